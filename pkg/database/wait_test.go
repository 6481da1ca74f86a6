package database_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
)

// A migration job whose address the NetworkPolicy controller admits late
// sees "connection refused" first: migrate keeps trying and succeeds once
// the port accepts (here after 1.5 s).
func TestMigrateWaitsForTheServer(t *testing.T) {
	t.Parallel()
	ownerURL := dbtest.CreateDatabase(t)
	const refusing = 1500 * time.Millisecond
	port := refuseThenForward(t, refusing, hostOf(t, ownerURL))
	cfg := database.Config{
		URL:         dbtest.ServiceURL(t, ownerURL),
		MigrateURL:  withHost(t, ownerURL, port),
		MigrateWait: 30 * time.Second,
	}

	start := time.Now()
	if err := cfg.Migrate(context.Background(), testMigrations, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatalf("Migrate through a port refusing for %s: %v", refusing, err)
	}
	if took := time.Since(start); took < refusing {
		t.Errorf("Migrate returned after %s, before the port accepted (%s)", took, refusing)
	}
	if got := gooseVersions(t, dbtest.AsOwner(t, ownerURL)); got != 2 {
		t.Errorf("applied migrations = %d, want 2", got)
	}
}

func TestWaitReachable(t *testing.T) {
	t.Parallel()
	ownerURL := dbtest.CreateDatabase(t)
	tests := []struct {
		name    string
		url     string
		wait    time.Duration
		wantErr string
		// atLeast/atMost bound how long the call took.
		atLeast, atMost time.Duration
	}{
		{name: "reachable", url: ownerURL, wait: time.Second, atMost: 5 * time.Second},
		{name: "refusing port gives up after the wait", url: withHost(t, ownerURL, closedPort(t)),
			wait: time.Second, wantErr: "unreachable after 1s", atLeast: 500 * time.Millisecond, atMost: 5 * time.Second},
		{name: "zero wait tries once", url: withHost(t, ownerURL, closedPort(t)),
			wantErr: "unreachable after 0s", atMost: 2 * time.Second},
		// The server answered: no amount of waiting creates the database.
		{name: "missing database fails at once", url: withDatabaseName(t, ownerURL, "no_such_database_here"),
			wait: 30 * time.Second, wantErr: "no_such_database_here", atMost: 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			err := database.WaitReachable(context.Background(), tt.url, tt.wait)
			took := time.Since(start)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("WaitReachable = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("WaitReachable = %v, want an error containing %q", err, tt.wantErr)
			}
			if took < tt.atLeast || took > tt.atMost {
				t.Errorf("WaitReachable took %s, want between %s and %s", took, tt.atLeast, tt.atMost)
			}
		})
	}
}

// closedPort is a 127.0.0.1 port nothing listens on (it was free a moment
// ago).
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// refuseThenForward returns a 127.0.0.1 address that refuses connections
// for delay and then forwards each one to target.
func refuseThenForward(t *testing.T, delay time.Duration, target string) string {
	t.Helper()
	addr := closedPort(t)
	var wg sync.WaitGroup
	done := make(chan struct{})
	t.Cleanup(func() { close(done); wg.Wait() })
	wg.Go(func() {
		select {
		case <-done:
			return
		case <-time.After(delay):
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Errorf("listen on %s after %s: %v", addr, delay, err)
			return
		}
		go func() { <-done; ln.Close() }()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { forward(c, target) })
		}
	})
	return addr
}

func forward(c net.Conn, target string) {
	defer c.Close()
	s, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer s.Close()
	go func() { _, _ = io.Copy(s, c); s.Close() }()
	_, _ = io.Copy(c, s)
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func withHost(t *testing.T, raw, host string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = host
	return u.String()
}

func withDatabaseName(t *testing.T, raw, name string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
