package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
)

// auditChains runs the service's chain audit once over every company's
// whole chain (its state table emptied first, as on the audit's first run
// in production) and returns its cost per record. Later runs read only
// what was written since, so this is the audit's cost per punch, paid
// once.
func auditChains(ctx context.Context, db *pgxpool.Pool) (AuditCost, error) {
	if _, err := db.Exec(ctx, `DELETE FROM auditorias_cadeia`); err != nil {
		return AuditCost{}, fmt.Errorf("auditoria: %w", err)
	}
	// Sliced as in production (CHAIN_AUDIT_SLICE's default), not paced:
	// the cost per record, not the rate the service allows itself.
	a := chainaudit.New(db, slog.New(slog.NewTextHandler(io.Discard, nil)), clock.New(time.Now),
		chainaudit.Limits{Slice: 50000})
	start := time.Now()
	res, err := a.Once(ctx)
	if err != nil {
		return AuditCost{}, fmt.Errorf("auditoria: %w", err)
	}
	c := AuditCost{Records: res.Records, Broken: res.Broken}
	if res.Records > 0 {
		c.WallMicrosPerRecord = float64(time.Since(start).Microseconds()) / float64(res.Records)
	}
	if res.Broken > 0 {
		return c, fmt.Errorf("auditoria: %d cadeias quebradas", res.Broken)
	}
	return c, nil
}
