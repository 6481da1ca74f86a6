package comprovante

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
)

// Store reads what a receipt prints.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Marcacao is a punch as its receipt shows it.
type Marcacao struct {
	ID, EmpresaID, FuncionarioID, NSR int64
	Horario                           time.Time
	OffsetMinutes                     int
	CPF, Coletor, Hash, Localizacao   string
	// Nome is the employee's name in the REP when he punched (his last
	// type-5 record before the punch); empty for punches older than those
	// records.
	Nome string
	// Local is the work place the punch was checked against, if any.
	LocalNome, LocalEndereco *string
	Distancia                *int
	Fora                     *bool
	// Estabelecimento is the establishment whose chain holds the punch, as
	// company-billing last told timekeeping of it (zero: not told yet).
	Estabelecimento Estabelecimento
	// Gravacao is an off-line punch's recording time (nil: on-line).
	Gravacao *time.Time
}

// Estabelecimento names a punch's establishment on its receipt.
type Estabelecimento struct{ Nome, Tipo, Numero string }

// Get returns punch id of company empresaID; funcionarioID, when not 0,
// must be the punch's employee. Anything else (an absence, another
// tenant's punch) is registro.ErrNotFound.
func (s *Store) Get(ctx context.Context, empresaID, funcionarioID, id int64) (Marcacao, error) {
	return database.One(ctx, s.db, scanMarcacao, registro.ErrNotFound, "comprovante: get",
		`SELECT p.id, p.empresa_id, p.funcionario_id, p.nsr, p.horario_registro, p.fuso_minutos,
			p.cpf, p.coletor, p.hash::text, p.localizacao, coalesce(e.nome, ''), l.nome, l.endereco,
			p.distancia_metros, p.fora_do_local, coalesce(s.nome, ''), coalesce(s.tipo, ''), coalesce(s.numero, ''),
			p.gravado_em
		FROM registros_ponto p
		LEFT JOIN LATERAL (SELECT nome FROM empregados_rep r WHERE r.empresa_id = p.empresa_id
			AND r.estabelecimento_id = p.estabelecimento_id AND r.funcionario_id = p.funcionario_id AND r.nsr < p.nsr
			ORDER BY r.nsr DESC LIMIT 1) e ON true
		LEFT JOIN locais_trabalho l ON l.id = p.local_trabalho_id
		LEFT JOIN estabelecimentos s ON s.empresa_id = p.empresa_id
			AND (s.id = p.estabelecimento_id OR (p.estabelecimento_id = 0 AND s.principal))
		WHERE p.id = $1 AND p.empresa_id = $2 AND ($3 = 0 OR p.funcionario_id = $3)`, id, empresaID, funcionarioID)
}

func scanMarcacao(row pgx.CollectableRow) (Marcacao, error) {
	var m Marcacao
	err := row.Scan(&m.ID, &m.EmpresaID, &m.FuncionarioID, &m.NSR, &m.Horario, &m.OffsetMinutes, &m.CPF, &m.Coletor,
		&m.Hash, &m.Localizacao, &m.Nome, &m.LocalNome, &m.LocalEndereco, &m.Distancia, &m.Fora,
		&m.Estabelecimento.Nome, &m.Estabelecimento.Tipo, &m.Estabelecimento.Numero, &m.Gravacao)
	return m, err
}
