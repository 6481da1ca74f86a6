package redisclient_test

import (
	"context"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
)

// A prefix is taken literally: "run[1]*:" deletes its own keys, not the
// keys its glob reading would match ("run1…:", "run[1]x…").
func TestDeletePrefixTakesThePrefixLiterally(t *testing.T) {
	ctx := context.Background()
	c := redistest.New(t)
	base := redistest.Prefix(t)
	prefix := base + "run[1]*:"
	own := []string{prefix + "stream", prefix + "relay"}
	others := []string{base + "run1:stream", base + "run[1]x:stream", base + "run[1]*"}
	for _, k := range append(append([]string{}, own...), others...) {
		if err := c.Set(ctx, k, "v", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := redisclient.DeletePrefix(ctx, c, prefix); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Exists(ctx, own...).Result(); err != nil || n != 0 {
		t.Errorf("%d of the prefix's keys remain (err %v)", n, err)
	}
	for _, k := range others {
		if n, err := c.Exists(ctx, k).Result(); err != nil || n != 1 {
			t.Errorf("%s was deleted (err %v)", k, err)
		}
	}
}
