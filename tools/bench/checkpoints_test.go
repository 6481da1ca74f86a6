package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database/dbtest"
)

// A checkpoint asked for between two readings is counted between them,
// with its write and sync times, and named on the workload's line; no
// checkpoint, no mention.
func TestCheckpointsBetweenTwoReadings(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := pgxpool.New(ctx, dbtest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before, err := readCheckpoints(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	// The checkpointer reports its statistics just after it wakes the
	// CHECKPOINT command, so the count may arrive a moment later.
	var got *Checkpoints
	for deadline := time.Now().Add(10 * time.Second); ; {
		after, err := readCheckpoints(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if got = after.since(before); got.Count > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got.Count < 1 || got.WriteMs < 0 || got.SyncMs < 0 {
		t.Fatalf("after a CHECKPOINT: %+v", got)
	}
	if text := checkpointText(got); !strings.Contains(text, "checkpoints do PostgreSQL durante a medição") {
		t.Errorf("line: %q", text)
	}
	if text := checkpointText(before.since(before)); text != "" {
		t.Errorf("no checkpoint, yet: %q", text)
	}
}
