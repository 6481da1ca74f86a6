// Package estabelecimento names a company's establishments on the
// documents timekeeping issues (the timesheet, the public check of a
// receipt), from what company-billing's events told timekeeping (the
// estabelecimentos table, migration 00014).
package estabelecimento

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/database"
)

// Estabelecimento is an establishment as a document names it.
type Estabelecimento struct {
	ID int64 `json:"id"`
	// Tipo is cnpj, caepf or cno; Numero its digits (letters allowed in
	// an alphanumeric CNPJ).
	Tipo   string `json:"tipo"`
	Numero string `json:"numero"`
	Nome   string `json:"nome"`
	// Principal: the company's head establishment (its chain is the
	// company's first one).
	Principal bool `json:"-"`
}

// Find returns company empresaID's establishment id as the employee
// service and the chains name it (0: the principal one), nil when
// timekeeping has not been told of it yet.
func Find(ctx context.Context, q database.RowQuerier, empresaID, id int64) (*Estabelecimento, error) {
	var e Estabelecimento
	err := q.QueryRow(ctx, `SELECT id, tipo, numero, nome, principal FROM estabelecimentos
		WHERE empresa_id = $1 AND (id = $2 OR ($2 = 0 AND principal))`, empresaID, id).
		Scan(&e.ID, &e.Tipo, &e.Numero, &e.Nome, &e.Principal)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("estabelecimento: %w", err)
	}
	return &e, nil
}

// CNPJ is the employer's CNPJ as it applies to the establishment, masked:
// its own when it has one, else empresa (the company's, for a CAEPF or
// CNO establishment or one timekeeping does not know).
func (e *Estabelecimento) CNPJ(empresa string) string {
	if e == nil || e.Tipo != "cnpj" || len(e.Numero) != 14 {
		return empresa
	}
	d := e.Numero
	return d[0:2] + "." + d[2:5] + "." + d[5:8] + "/" + d[8:12] + "-" + d[12:14]
}

// Identificacao is the establishment's name with its identifier, as the
// timesheet's header writes it: "Obra Centro (CNO 123456789012)".
func (e *Estabelecimento) Identificacao() string {
	switch e.Tipo {
	case "caepf":
		return e.Nome + " (CAEPF " + e.Numero + ")"
	case "cno":
		return e.Nome + " (CNO " + e.Numero + ")"
	}
	return e.Nome + " (CNPJ " + e.CNPJ(e.Numero) + ")"
}
