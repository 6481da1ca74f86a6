// Package outbox is the transactional outbox of the services that tell
// timekeeping about REP operations (Portaria 671, Anexo IX item 6): an
// employee or a company changing is written together with its event, in
// the same transaction, and a relay delivers the events afterwards, in
// order per company, until timekeeping has answered 200 for each.
//
// Each service's own migration creates the two tables (see Schema); the
// SQL here is shared so both services behave the same.
package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Schema is the DDL a service's migration must contain, verbatim: the
// events and the per-company counter that makes their sequence gapless.
// It is here for documentation and for the package's own tests; the
// migrations keep their own frozen copy.
const Schema = `
CREATE TABLE outbox_sequencias (
    empresa_id bigint PRIMARY KEY,
    ultima     bigint NOT NULL CHECK (ultima > 0)
);
CREATE TABLE outbox_eventos (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id  bigint      NOT NULL,
    sequencia   bigint      NOT NULL CHECK (sequencia > 0),
    tipo        text        NOT NULL,
    dados       jsonb       NOT NULL,
    ocorrido_em timestamptz NOT NULL,
    enviado_em  timestamptz,
    tentativas  integer     NOT NULL DEFAULT 0,
    UNIQUE (empresa_id, sequencia)
);
CREATE INDEX outbox_eventos_pendentes ON outbox_eventos (empresa_id, sequencia) WHERE enviado_em IS NULL;
INSERT INTO table_access (table_name, access) VALUES ('outbox_sequencias', 'read_write'), ('outbox_eventos', 'read_write');
`

// Event types of the wire contract (docs/internal-api.md).
const (
	FuncionarioIncluido = "funcionario.incluido"
	FuncionarioAlterado = "funcionario.alterado"
	FuncionarioExcluido = "funcionario.excluido"
	EmpresaIncluida     = "empresa.incluida"
	EmpresaAlterada     = "empresa.alterada"
)

// Funcionario is the employee an event is about.
type Funcionario struct {
	ID   int64  `json:"id"`
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
}

// Pessoa is the person responsible for a company.
type Pessoa struct {
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
}

// Empresa is the employer identification an event carries (AFD type 2).
type Empresa struct {
	CNPJ        string `json:"cnpj"`
	RazaoSocial string `json:"razaoSocial"`
	// Local is the place where the services are rendered: the company's
	// address when it has one, else "".
	Local string `json:"local"`
	// CNO is the CEI/CAEPF/CNO, when there is one.
	CNO         string  `json:"cno"`
	Responsavel *Pessoa `json:"responsavel"`
}

// Enqueue writes an event about a funcionario into tx.
func EnqueueFuncionario(ctx context.Context, tx pgx.Tx, empresaID int64, tipo string, f Funcionario) error {
	if !strings.HasPrefix(tipo, "funcionario.") {
		return fmt.Errorf("outbox: %q is not an employee event", tipo)
	}
	return enqueue(ctx, tx, empresaID, tipo, map[string]any{"funcionario": f})
}

// EnqueueEmpresa writes an event about the company itself into tx.
func EnqueueEmpresa(ctx context.Context, tx pgx.Tx, empresaID int64, tipo string, e Empresa) error {
	if !strings.HasPrefix(tipo, "empresa.") {
		return fmt.Errorf("outbox: %q is not a company event", tipo)
	}
	return enqueue(ctx, tx, empresaID, tipo, map[string]any{"empresa": e})
}

// enqueue takes the company's next sequence and stores the event, both
// inside tx. The counter row stays locked until tx ends, so concurrent
// changes of one company queue behind each other: sequences follow the
// commit order and a rolled-back change leaves no gap. ocorrido_em is
// read after the lock, so it grows with the sequence.
func enqueue(ctx context.Context, tx pgx.Tx, empresaID int64, tipo string, dados map[string]any) error {
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
