package webhooks

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Store updates the subscription status of companies.
type Store struct {
	db *pgxpool.Pool
}

// SetStatus stores status for the company whose subscription is
// subscriptionID, unless the status stored came from a newer event
// (Stripe does not deliver in order). It reports whether a row changed:
// false for a subscription that is not ours, or a stale event.
func (s *Store) SetStatus(ctx context.Context, subscriptionID, status string, eventCreated int64) (bool, error) {
	tag, err := s.db.Exec(ctx, `
		UPDATE empresas
		SET assinatura_status = $2, assinatura_evento_em = $3, atualizada_em = now()
		WHERE subscription_id = $1
		  AND (assinatura_evento_em IS NULL OR assinatura_evento_em <= $3)`,
		subscriptionID, status, eventCreated)
	if err != nil {
		return false, fmt.Errorf("update assinatura_status: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}
