// Package outbox is the transactional outbox of the services that tell
// timekeeping about REP operations (Portaria 671, Anexo IX item 6): an
// employee or a company changing is written together with its event, in
// the same transaction, and a relay delivers the events afterwards, in
// order per company, until timekeeping has answered 200 for each.
//
// Each service's own migration creates the two tables: outbox_eventos
// (the events, unique per company and gapless sequence) and
// outbox_sequencias (each company's last sequence); the SQL here is
// shared so both services behave the same.
package outbox

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Enqueue writes an event of type tipo about company empresaID into tx.
// dados is its payload, stored as JSON and sent with the event (the wire
// types are timekeeping's: services/timekeeping/internalapi, Payload).
//
// It takes the company's next sequence and stores the event, both inside
// tx. The counter row stays locked until tx ends, so concurrent changes
// of one company queue behind each other: sequences follow the commit
// order and a rolled-back change leaves no gap. ocorrido_em is read after
// the lock, so it grows with the sequence.
func Enqueue(ctx context.Context, tx pgx.Tx, empresaID int64, tipo string, dados any) error {
	body, err := json.Marshal(dados)
	if err != nil {
		return fmt.Errorf("outbox: encode %s: %w", tipo, err)
	}
	_, err = tx.Exec(ctx, `
		WITH seq AS (
			INSERT INTO outbox_sequencias (empresa_id, ultima) VALUES ($1, 1)
			ON CONFLICT (empresa_id) DO UPDATE SET ultima = outbox_sequencias.ultima + 1
			RETURNING ultima)
		INSERT INTO outbox_eventos (empresa_id, sequencia, tipo, dados, ocorrido_em)
		SELECT $1, ultima, $2, $3, clock_timestamp() FROM seq`,
		empresaID, tipo, body)
	if err != nil {
		return fmt.Errorf("outbox: enqueue %s: %w", tipo, err)
	}
	return nil
}
