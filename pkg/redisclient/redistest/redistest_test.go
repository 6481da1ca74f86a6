package redistest_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/redisclient/redistest"
)

func TestPrefixIsStablePerTestAndUniqueAcrossTests(t *testing.T) {
	p := redistest.Prefix(t)
	if again := redistest.Prefix(t); again != p {
		t.Fatalf("Prefix changed within a test: %q then %q", p, again)
	}
	if !strings.HasPrefix(p, "test:") || !strings.HasSuffix(p, ":") {
		t.Errorf("prefix %q, want test:...:", p)
	}
	t.Run("sub test", func(t *testing.T) {
		sub := redistest.Prefix(t)
		if sub == p {
			t.Errorf("sub-test shares its parent's prefix %q", p)
		}
		if strings.ContainsAny(sub, " *?[]") {
			t.Errorf("prefix %q holds spaces or glob characters", sub)
		}
	})
}

func TestCleanupDeletesOnlyPrefixedKeys(t *testing.T) {
	ctx := context.Background()
	outside := "redistest-outside-" + time.Now().Format(time.RFC3339Nano)
	var inside []string

	t.Run("writes keys", func(t *testing.T) {
		c := redistest.New(t)
		p := redistest.Prefix(t)
		inside = []string{p + "a", p + "b", p + "hash"}
		for i := range 600 { // more than one SCAN/UNLINK batch
			inside = append(inside, p+"n:"+strconv.Itoa(i))
		}
		for _, k := range inside[:2] {
			if err := c.Set(ctx, k, "v", time.Minute).Err(); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.HSet(ctx, inside[2], "f", "v").Err(); err != nil {
			t.Fatal(err)
		}
		pipe := c.Pipeline()
		for _, k := range inside[3:] {
			pipe.Set(ctx, k, "v", time.Minute)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := c.Set(ctx, outside, "keep", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	})

	c := redistest.New(t)
	if n, err := c.Exists(ctx, inside...).Result(); err != nil || n != 0 {
		t.Errorf("after the sub-test, %d prefixed keys remain (err %v)", n, err)
	}
	if n, err := c.Exists(ctx, outside).Result(); err != nil || n != 1 {
		t.Errorf("key outside the prefix was touched: exists=%d err=%v", n, err)
	}
	c.Del(ctx, outside)
}
