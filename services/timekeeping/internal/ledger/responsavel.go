package ledger

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// historicoSQL is company $1's responsible persons in the order they were
// named (core.ResponsavelEmVigor picks by instant).
const historicoSQL = `SELECT responsavel, vigente_desde FROM responsaveis_empresa WHERE empresa_id = $1 ORDER BY id`

// Historico is company empresaID's responsible persons, each with the
// instant he came in force. Call it in the transaction that writes the
// record that needs one.
func Historico(ctx context.Context, tx pgx.Tx, empresaID int64) ([]core.Vigencia, error) {
	rows, _ := tx.Query(ctx, historicoSQL, empresaID)
	h, err := pgx.CollectRows(rows, pgx.RowToStructByPos[core.Vigencia])
	if err != nil {
		return nil, fmt.Errorf("ledger: responsible persons: %w", err)
	}
	return h, nil
}

// ResponsavelEm is the responsible person of company empresaID in force
// at instant em (core.ResponsavelEmVigor).
func ResponsavelEm(ctx context.Context, tx pgx.Tx, empresaID int64, em time.Time) (string, error) {
	h, err := Historico(ctx, tx, empresaID)
	if err != nil {
		return "", err
	}
	return core.ResponsavelEmVigor(h, em), nil
}

// NomearResponsavel records that responsavel (a CPF's 11 digits) is
// company empresaID's responsible person from instant desde, unless he
// already is then.
func NomearResponsavel(ctx context.Context, tx pgx.Tx, empresaID int64, responsavel string, desde time.Time) error {
	atual, err := ResponsavelEm(ctx, tx, empresaID, desde)
	if err != nil || atual == responsavel {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO responsaveis_empresa (empresa_id, responsavel, vigente_desde) VALUES ($1, $2, $3)`,
		empresaID, responsavel, desde); err != nil {
		return fmt.Errorf("ledger: name responsible person: %w", err)
	}
	return nil
}
