package bench

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Checkpoints is what the PostgreSQL server's checkpointer reported during
// a measured part. A checkpoint writes out the pages dirtied since the
// last one, then syncs every file it wrote to; commits that wait behind
// that sync hold up every request in flight at once. The server is the
// machine's, shared by every database of the run and anything else on
// it: its checkpoints come from all their writes, not the workload's
// alone.
type Checkpoints struct {
	// Count is how many checkpoints ended during the measured part (timed
	// and requested: the server reports a checkpoint's statistics as it
	// ends, so one that began before the measured part counts too).
	Count int64 `json:"quantidade"`
	// WriteMs and SyncMs are the write and sync time of the checkpoints
	// that ended during the measured part.
	WriteMs float64 `json:"escritaMs"`
	SyncMs  float64 `json:"syncMs"`
}

// checkpointCounters are the server's cumulative checkpoint statistics,
// which Checkpoints is the difference of.
type checkpointCounters struct {
	count           int64
	writeMs, syncMs float64
}

// pg_stat_checkpointer holds the counters from PostgreSQL 17 on;
// pg_stat_bgwriter held them before.
const (
	checkpointerSQL = `SELECT num_timed + num_requested, write_time, sync_time FROM pg_stat_checkpointer`
	bgwriterSQL     = `SELECT checkpoints_timed + checkpoints_req, checkpoint_write_time, checkpoint_sync_time
		FROM pg_stat_bgwriter`
)

func readCheckpoints(ctx context.Context, db *pgxpool.Pool) (checkpointCounters, error) {
	var version int
	if err := db.QueryRow(ctx, `SELECT current_setting('server_version_num')::int`).Scan(&version); err != nil {
		return checkpointCounters{}, fmt.Errorf("checkpoints: server version: %w", err)
	}
	query := bgwriterSQL
	if version >= 170000 {
		query = checkpointerSQL
	}
	var c checkpointCounters
	if err := db.QueryRow(ctx, query).Scan(&c.count, &c.writeMs, &c.syncMs); err != nil {
		return checkpointCounters{}, fmt.Errorf("checkpoints: %w", err)
	}
	return c, nil
}

// since is what happened between before and c.
func (c checkpointCounters) since(before checkpointCounters) *Checkpoints {
	return &Checkpoints{Count: c.count - before.count, WriteMs: c.writeMs - before.writeMs, SyncMs: c.syncMs - before.syncMs}
}

// checkpointText is the workload line's mention of checkpoints, empty when
// none ended during the measured part.
func checkpointText(c *Checkpoints) string {
	if c == nil || (c.Count == 0 && c.SyncMs == 0) {
		return ""
	}
	return fmt.Sprintf("; checkpoints do PostgreSQL durante a medição: %d (escrita %.0f ms, sync %.0f ms)",
		c.Count, c.WriteMs, c.SyncMs)
}
