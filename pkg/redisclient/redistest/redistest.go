// Package redistest connects tests to a real Redis and cleans up after them.
//
// Tests share one Redis server (TEST_REDIS_ADDR, default 127.0.0.1:6379),
// possibly from several packages at once, so a test must never FLUSHDB.
// Instead every key a test creates MUST start with Prefix(t): its keys are
// deleted when the test ends. Keys outside the prefix are left behind.
//
// An unreachable server fails the test: skipping would let a broken CI
// look green.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/redisclient"
)

// DefaultAddr is used when TEST_REDIS_ADDR is unset.
const DefaultAddr = "127.0.0.1:6379"

// cleanupTimeout bounds the SCAN+DEL run at the end of a test.
const cleanupTimeout = 10 * time.Second

// Addr is the server address from TEST_REDIS_ADDR or DefaultAddr.
func Addr() string {
	if a := os.Getenv("TEST_REDIS_ADDR"); a != "" {
		return a
	}
	return DefaultAddr
}

// New returns a client on the test server, closed when the test ends. It
// also reserves Prefix(t), so the keys under it are deleted at cleanup.
func New(t testing.TB) *redis.Client {
	t.Helper()
	c, err := redisclient.Open(redisclient.Config{Addr: Addr()})
	if err != nil {
		t.Fatalf("redistest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := redisclient.Ping(c)(ctx); err != nil {
		_ = c.Close()
		t.Fatalf("redistest: Redis unreachable at %s (set TEST_REDIS_ADDR or start the server): %v", Addr(), err)
	}
	t.Cleanup(func() { _ = c.Close() })
	Prefix(t)
	return c
}

// prefixes maps each test to its prefix so repeated calls agree.
var prefixes sync.Map // testing.TB -> string

// Prefix returns the key prefix of t, like "test:TestFoo/sub:1a2b3c4d:",
// unique even across concurrent runs. The first call registers a cleanup
// that deletes every key under it. Sub-tests get their own prefix.
func Prefix(t testing.TB) string {
	t.Helper()
	if p, ok := prefixes.Load(t); ok {
		return p.(string)
	}
	p := "test:" + sanitize(t.Name()) + ":" + randomHex(4) + ":"
	prefixes.Store(t, p)
	t.Cleanup(func() {
		prefixes.Delete(t)
		if err := deletePrefix(p); err != nil {
			t.Errorf("redistest: delete keys %s*: %v", p, err)
		}
	})
	return p
}

// deletePrefix uses its own connection so it works whatever the test did
// to its client (closed it, SELECTed another DB...).
func deletePrefix(prefix string) error {
	c, err := redisclient.Open(redisclient.Config{Addr: Addr()})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()

	return redisclient.DeletePrefix(ctx, c, prefix)
}

// sanitize keeps test names readable in keys while removing spaces and
// the glob characters SCAN MATCH would interpret.
func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '*', '?', '[', ']', '\\', ':':
			return '_'
		}
		return r
	}, name)
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails since Go 1.24
	return hex.EncodeToString(b)
}
