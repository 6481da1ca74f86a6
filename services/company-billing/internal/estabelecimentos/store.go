package estabelecimentos

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/outbox"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

var (
	// ErrNotFound: no such establishment in the caller's company.
	ErrNotFound = domainerr.NotFound("estabelecimento não encontrado")
	// errBloqueada is the 403 of a blocked company, as on /empresas/me.
	errBloqueada  = domainerr.Forbidden("empresa_bloqueada", "empresa bloqueada; entre em contato com o suporte")
	errEmpresa    = domainerr.NotFound("empresa não encontrada")
	errDuplicado  = domainerr.Conflict("estabelecimento_duplicado", "a empresa já tem um estabelecimento com este tipo e número")
	errPrincipal  = domainerr.Conflict("estabelecimento_principal", "o estabelecimento principal não pode ser desativado")
	errComAtivos  = domainerr.Conflict("estabelecimento_com_funcionarios", "o estabelecimento ainda tem funcionários ativos; transfira-os ou desative-os antes")
	errLimiteEsts = domainerr.Conflict("limite_estabelecimentos", "a empresa atingiu o limite de 1000 estabelecimentos")
)

// maxPorEmpresa bounds a company's establishments (and so its list).
const maxPorEmpresa = 1000

const columns = `id, empresa_id, principal, tipo, numero, nome, endereco, fuso_horario, ativo`

func scan(row pgx.Row) (Estabelecimento, error) {
	var e Estabelecimento
	err := row.Scan(&e.ID, &e.EmpresaID, &e.Principal, &e.Tipo, &e.Numero, &e.Nome, &e.Endereco, &e.FusoHorario, &e.Ativo)
	return e, err
}

// Empresa is what the establishments need of their company.
type Empresa struct {
	CNPJ        string
	FusoHorario string
	Bloqueada   bool
	// REP is the company's identification to the REP (AFD type 2).
	REP timekeepingapi.Empresa
}

// Store holds the SQL of the estabelecimentos table.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// empresa reads company id (locked for share inside a transaction), or
// errEmpresa.
func empresa(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, id int64, lock string) (Empresa, error) {
	var e Empresa
	var nome, cpf *string
	err := q.QueryRow(ctx, `SELECT cnpj, razao_social, responsavel_nome, responsavel_cpf, fuso_horario, bloqueada
		FROM empresas WHERE id = $1`+lock, id).Scan(&e.CNPJ, &e.REP.RazaoSocial, &nome, &cpf, &e.FusoHorario, &e.Bloqueada)
	if errors.Is(err, pgx.ErrNoRows) {
		return Empresa{}, errEmpresa
	}
	if err != nil {
		return Empresa{}, fmt.Errorf("estabelecimentos: read empresa: %w", err)
	}
	e.REP.CNPJ = e.CNPJ
	if nome != nil && cpf != nil {
		e.REP.Responsavel = &timekeepingapi.Responsavel{Nome: *nome, CPF: *cpf}
	}
	return e, nil
}

// Empresa reads company id; a blocked company is errBloqueada.
func (s *Store) Empresa(ctx context.Context, id int64) (Empresa, error) {
	e, err := empresa(ctx, s.db, id, "")
	if err == nil && e.Bloqueada {
		return Empresa{}, errBloqueada
	}
	return e, err
}

// List returns company empresaID's establishments, the principal first.
func (s *Store) List(ctx context.Context, empresaID int64) ([]Estabelecimento, error) {
	rows, _ := s.db.Query(ctx, `SELECT `+columns+` FROM estabelecimentos WHERE empresa_id = $1
		ORDER BY principal DESC, id`, empresaID)
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Estabelecimento, error) { return scan(r) })
	if err != nil {
		return nil, fmt.Errorf("estabelecimentos: list: %w", err)
	}
	return list, nil
}

// Get returns establishment id of company empresaID, or ErrNotFound.
func (s *Store) Get(ctx context.Context, empresaID, id int64) (Estabelecimento, error) {
	e, err := scan(s.db.QueryRow(ctx, `SELECT `+columns+` FROM estabelecimentos WHERE id = $1 AND empresa_id = $2`,
		id, empresaID))
	if errors.Is(err, pgx.ErrNoRows) {
		return Estabelecimento{}, ErrNotFound
	}
	if err != nil {
		return Estabelecimento{}, fmt.Errorf("estabelecimentos: get: %w", err)
	}
	return e, nil
}

// Create stores e for company empresaID with its event
// estabelecimento.incluido, in one transaction; a repeated tipo and
// numero is a 409 and stores nothing.
func (s *Store) Create(ctx context.Context, empresaID int64, e Estabelecimento) (Estabelecimento, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		co, err := empresa(ctx, tx, empresaID, " FOR SHARE")
		if err != nil {
			return err
		}
		if co.Bloqueada {
			return errBloqueada
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM estabelecimentos WHERE empresa_id = $1`, empresaID).Scan(&n); err != nil {
			return fmt.Errorf("estabelecimentos: count: %w", err)
		}
		if n >= maxPorEmpresa {
			return errLimiteEsts
		}
		e.EmpresaID = empresaID
		if err := insert(ctx, tx, &e); err != nil {
			return err
		}
		return enqueue(ctx, tx, timekeepingapi.EstabelecimentoIncluido, e, co.REP)
	})
	return e, err
}

func insert(ctx context.Context, tx pgx.Tx, e *Estabelecimento) error {
	err := tx.QueryRow(ctx, `INSERT INTO estabelecimentos (empresa_id, principal, tipo, numero, nome, endereco, fuso_horario, ativo)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		e.EmpresaID, e.Principal, e.Tipo, e.Numero, e.Nome, e.Endereco, e.FusoHorario, e.Ativo).Scan(&e.ID)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "estabelecimentos_numero_key" {
		return errDuplicado
	}
	if err != nil {
		return fmt.Errorf("estabelecimentos: insert: %w", err)
	}
	return nil
}

func enqueue(ctx context.Context, tx pgx.Tx, tipo string, e Estabelecimento, rep timekeepingapi.Empresa) error {
	return outbox.Enqueue(ctx, tx, e.EmpresaID, tipo, REPPayload(e, rep))
}

// InsertPrincipal stores, inside the registration's transaction tx, the
// principal establishment of a new company: its own CNPJ, name and zone,
// with its event estabelecimento.incluido (after empresa.incluida).
func InsertPrincipal(ctx context.Context, tx pgx.Tx, empresaID int64, nome, cnpj, fuso string, rep timekeepingapi.Empresa) error {
	e := Estabelecimento{EmpresaID: empresaID, Principal: true, Tipo: TipoCNPJ, Numero: brdocs.Plain(cnpj),
		Nome: nome, FusoHorario: fuso, Ativo: true}
	if err := insert(ctx, tx, &e); err != nil {
		return err
	}
	return enqueue(ctx, tx, timekeepingapi.EstabelecimentoIncluido, e, rep)
}

// EnqueueCompanyChange writes, inside the transaction tx that changed
// company empresaID's identification to rep, one estabelecimento.alterado
// per active establishment but the principal (whose change is the
// empresa.alterada event), in id order.
func EnqueueCompanyChange(ctx context.Context, tx pgx.Tx, empresaID int64, rep timekeepingapi.Empresa) error {
	rows, _ := tx.Query(ctx, `SELECT `+columns+` FROM estabelecimentos
		WHERE empresa_id = $1 AND ativo AND NOT principal ORDER BY id`, empresaID)
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Estabelecimento, error) { return scan(r) })
	if err != nil {
		return fmt.Errorf("estabelecimentos: list for company change: %w", err)
	}
	for _, e := range list {
		if err := enqueue(ctx, tx, timekeepingapi.EstabelecimentoAlterado, e, rep); err != nil {
			return err
		}
	}
	return nil
}

// Deactivation is asked before an establishment is deactivated; an error
// refuses it (errComAtivos when it still has active employees).
type Deactivation func(ctx context.Context, e Estabelecimento) error

// Update applies r to establishment id of company empresaID in one
// transaction, with its event estabelecimento.alterado when the REP's
// view of it changed. Deactivating the principal is a 409;
// deactivating another runs check first, with the row locked.
func (s *Store) Update(ctx context.Context, empresaID, id int64, r alteracaoRequest, check Deactivation) (Estabelecimento, error) {
	var after Estabelecimento
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		co, err := empresa(ctx, tx, empresaID, " FOR SHARE")
		if err != nil {
			return err
		}
		if co.Bloqueada {
			return errBloqueada
		}
		before, err := scan(tx.QueryRow(ctx, `SELECT `+columns+` FROM estabelecimentos WHERE id = $1 AND empresa_id = $2 FOR UPDATE`,
			id, empresaID))
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("estabelecimentos: lock: %w", err)
		}
		if after, err = r.apply(before); err != nil {
			return err
		}
		if before.Ativo && !after.Ativo {
			if before.Principal {
				return errPrincipal
			}
			if err := check(ctx, before); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE estabelecimentos SET nome = $3, endereco = $4, fuso_horario = $5, ativo = $6,
			atualizado_em = now() WHERE id = $1 AND empresa_id = $2`,
			id, empresaID, after.Nome, after.Endereco, after.FusoHorario, after.Ativo); err != nil {
			return fmt.Errorf("estabelecimentos: update: %w", err)
		}
		if repChanged(before, after) {
			return enqueue(ctx, tx, timekeepingapi.EstabelecimentoAlterado, after, co.REP)
		}
		return nil
	})
	return after, err
}
