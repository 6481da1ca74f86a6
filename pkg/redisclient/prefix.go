package redisclient

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"
)

// unlinkBatch is how many keys one UNLINK takes (and one SCAN asks for).
const unlinkBatch = 500

// DeletePrefix removes every key that starts with prefix, taken
// literally (glob characters in it are escaped). It walks the keys with
// SCAN rather than KEYS, so it does not block a server that others share,
// and frees them with UNLINK. For tools and tests that give a run its own
// prefix (the benchmark's stack, a test's keys) and clean it up after.
func DeletePrefix(ctx context.Context, c redis.UniversalClient, prefix string) error {
	iter := c.Scan(ctx, 0, escapeGlob(prefix)+"*", unlinkBatch).Iterator()
	var batch []string
	for iter.Next(ctx) {
		batch = append(batch, iter.Val())
		if len(batch) == unlinkBatch {
			if err := c.Unlink(ctx, batch...).Err(); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	if err := iter.Err(); err != nil {
		return err
	}
	if len(batch) > 0 {
		return c.Unlink(ctx, batch...).Err()
	}
	return nil
}

// escapeGlob makes s match itself in SCAN's MATCH pattern.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
