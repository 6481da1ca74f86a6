package empresas

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/services/company-billing/internal/estabelecimentos"
	"github.com/ponto/ponto/services/company-billing/internalapi"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

// Empresa is a row of the empresas table.
type Empresa struct {
	ID                int64
	Nome              string
	RazaoSocial       string
	CNPJ              string
	DataAbertura      time.Time
	Email             string
	PasswordHash      string
	NomeDoPlano       string
	Role              string
	PrecoID           string
	InvoiceID         string
	BillingCustomerID string
	SubscriptionID    string
	AssinaturaStatus  *string
	Bloqueada         bool
	CriadaEm          time.Time
	// FusoHorario is the company's IANA time zone.
	FusoHorario string
	// Responsavel is the person responsible before the REP; nil until the
	// company names one.
	Responsavel *Responsavel
}

// Responsavel is the company's responsible person: name and CPF
// (###.###.###-##).
type Responsavel = internalapi.Responsavel

const columns = `id, nome, razao_social, cnpj, data_abertura, email, password_hash,
	nome_do_plano, role, preco_id, invoice_id, billing_customer_id, subscription_id,
	assinatura_status, bloqueada, criada_em, fuso_horario, responsavel_nome, responsavel_cpf`

func scan(row pgx.Row) (Empresa, error) {
	var e Empresa
	var respNome, respCPF *string
	err := row.Scan(&e.ID, &e.Nome, &e.RazaoSocial, &e.CNPJ, &e.DataAbertura, &e.Email, &e.PasswordHash,
		&e.NomeDoPlano, &e.Role, &e.PrecoID, &e.InvoiceID, &e.BillingCustomerID, &e.SubscriptionID,
		&e.AssinaturaStatus, &e.Bloqueada, &e.CriadaEm, &e.FusoHorario, &respNome, &respCPF)
	if respNome != nil && respCPF != nil {
		e.Responsavel = &Responsavel{Nome: *respNome, CPF: *respCPF}
	}
	return e, err
}

// repIdentification is what the REP keeps of the company (AFD type 2):
// a change of any of it is an empresa.alterada event. There is no
// address or CNO in the company record yet, so local and cno are empty.
func (e Empresa) repIdentification() timekeepingapi.Empresa {
	id := timekeepingapi.Empresa{CNPJ: e.CNPJ, RazaoSocial: e.RazaoSocial}
	if e.Responsavel != nil {
		id.Responsavel = &timekeepingapi.Responsavel{Nome: e.Responsavel.Nome, CPF: e.Responsavel.CPF}
	}
	return id
}

// enqueueREP writes the REP event tipo about the company into tx.
func enqueueREP(ctx context.Context, tx pgx.Tx, empresaID int64, tipo string, id timekeepingapi.Empresa) error {
	return outbox.Enqueue(ctx, tx, empresaID, tipo, timekeepingapi.Payload{Empresa: &id})
}

// sameREPIdentification reports whether a and b are the same to the REP.
func sameREPIdentification(a, b timekeepingapi.Empresa) bool {
	if (a.Responsavel == nil) != (b.Responsavel == nil) {
		return false
	}
	if a.Responsavel != nil && *a.Responsavel != *b.Responsavel {
		return false
	}
	a.Responsavel, b.Responsavel = nil, nil
	return a == b
}

// errNotFound: no company with that id or e-mail.
var errNotFound = errors.New("empresa não encontrada")

// errStoreBloqueada: the company is blocked, so it may not change itself.
var errStoreBloqueada = errors.New("empresa bloqueada")

// duplicateError is a unique violation; field names what is duplicated:
// cnpj, email, or assinatura (the Stripe objects already belong to a
// company).
type duplicateError struct {
	field string
	err   error
}

func (e *duplicateError) Error() string { return "duplicate " + e.field + ": " + e.err.Error() }
func (e *duplicateError) Unwrap() error { return e.err }

// uniqueFields maps the unique indexes of the migration to the field
// their violation is about.
var uniqueFields = map[string]string{
	"empresas_cnpj_key":                "cnpj",
	"empresas_email_key":               "email",
	"empresas_billing_customer_id_key": "assinatura",
	"empresas_subscription_id_key":     "assinatura",
}

// Store runs the SQL of the empresas table.
type Store struct {
	db *pgxpool.Pool
}

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Insert stores a new company and sets its ID, with the REP event
// empresa.incluida and its principal establishment (and that one's
// estabelecimento.incluido) in the same transaction. A unique violation is a
// *duplicateError.
func (s *Store) Insert(ctx context.Context, e *Empresa) error {
	var respNome, respCPF *string
	if e.Responsavel != nil {
		respNome, respCPF = &e.Responsavel.Nome, &e.Responsavel.CPF
	}
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			INSERT INTO empresas (nome, razao_social, cnpj, data_abertura, email, password_hash,
				nome_do_plano, role, preco_id, invoice_id, billing_customer_id, subscription_id, fuso_horario,
				responsavel_nome, responsavel_cpf)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
			RETURNING id, criada_em`,
			e.Nome, e.RazaoSocial, e.CNPJ, e.DataAbertura, e.Email, e.PasswordHash,
			e.NomeDoPlano, e.Role, e.PrecoID, e.InvoiceID, e.BillingCustomerID, e.SubscriptionID, e.FusoHorario,
			respNome, respCPF,
		).Scan(&e.ID, &e.CriadaEm)
		if err != nil {
			return err
		}
		if err := enqueueREP(ctx, tx, e.ID, timekeepingapi.EmpresaIncluida, e.repIdentification()); err != nil {
			return err
		}
		return estabelecimentos.InsertPrincipal(ctx, tx, e.ID, e.Nome, e.CNPJ, e.FusoHorario, e.repIdentification())
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		if field, ok := uniqueFields[pgErr.ConstraintName]; ok {
			return &duplicateError{field: field, err: err}
		}
	}
	if err != nil {
		return fmt.Errorf("insert empresa: %w", err)
	}
	return nil
}

// Duplicate names the field ("cnpj" or "email") of an existing company
// that the new one would repeat, or "" when there is none. E-mails are
// compared case-insensitively, as the unique index does.
func (s *Store) Duplicate(ctx context.Context, cnpj, email string) (string, error) {
	var sameCNPJ, sameEmail *bool
	err := s.db.QueryRow(ctx, `
		SELECT bool_or(cnpj = $1), bool_or(lower(email) = lower($2))
		FROM empresas WHERE cnpj = $1 OR lower(email) = lower($2)`, cnpj, email,
	).Scan(&sameCNPJ, &sameEmail)
	switch {
	case err != nil:
		return "", fmt.Errorf("find duplicate: %w", err)
	case sameCNPJ != nil && *sameCNPJ:
		return "cnpj", nil
	case sameEmail != nil && *sameEmail:
		return "email", nil
	}
	return "", nil
}

// OwnsCustomer reports whether a stored company already has the Stripe
// customer: then a failed insert was the loser of two identical
// registrations, and the customer must not be deleted.
func (s *Store) OwnsCustomer(ctx context.Context, customerID string) (bool, error) {
	var exists bool
	err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM empresas WHERE billing_customer_id = $1)`, customerID).Scan(&exists)
	if err != nil {
		return false, fmt.Errorf("find customer: %w", err)
	}
	return exists, nil
}

// Generation is how many times the registration with this fingerprint
// was compensated; it is part of the Stripe idempotency keys.
func (s *Store) Generation(ctx context.Context, fingerprint string) (int, error) {
	var g int
	err := s.db.QueryRow(ctx, `SELECT geracao FROM cadastro_compensacoes WHERE impressao = $1`, fingerprint).Scan(&g)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read generation: %w", err)
	}
	return g, nil
}

// BurnGeneration records that generation gen of the registration was
// compensated, so the next attempt uses new idempotency keys.
func (s *Store) BurnGeneration(ctx context.Context, fingerprint string, gen int) error {
	_, err := s.db.Exec(ctx, `
		INSERT INTO cadastro_compensacoes (impressao, geracao) VALUES ($1, $2)
		ON CONFLICT (impressao) DO UPDATE
		SET geracao = GREATEST(cadastro_compensacoes.geracao, EXCLUDED.geracao), atualizada_em = now()`,
		fingerprint, gen+1)
	if err != nil {
		return fmt.Errorf("burn generation: %w", err)
	}
	return nil
}

// ByID returns the company id, or errNotFound.
func (s *Store) ByID(ctx context.Context, id int64) (Empresa, error) {
	e, err := scan(s.db.QueryRow(ctx, `SELECT `+columns+` FROM empresas WHERE id = $1`, id))
	return e, notFound(err, "read empresa")
}

// ByEmail returns the company whose e-mail is email in any case, or
// errNotFound.
func (s *Store) ByEmail(ctx context.Context, email string) (Empresa, error) {
	e, err := scan(s.db.QueryRow(ctx, `SELECT `+columns+` FROM empresas WHERE lower(email) = lower($1)`, email))
	return e, notFound(err, "read empresa")
}

func notFound(err error, op string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pgx.ErrNoRows):
		return errNotFound
	default:
		return fmt.Errorf("%s: %w", op, err)
	}
}

// Filter narrows the admin listing; nil fields do not filter.
type Filter struct {
	Status    *string
	Bloqueada *bool
}

// List returns one page of companies, oldest first, and how many match.
func (s *Store) List(ctx context.Context, f Filter, limit, offset int) ([]Empresa, int, error) {
	const where = ` WHERE ($1::text IS NULL OR assinatura_status = $1) AND ($2::boolean IS NULL OR bloqueada = $2)`
	var total int
	if err := s.db.QueryRow(ctx, `SELECT count(*) FROM empresas`+where, f.Status, f.Bloqueada).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count empresas: %w", err)
	}
	rows, err := s.db.Query(ctx, `SELECT `+columns+` FROM empresas`+where+` ORDER BY id LIMIT $3 OFFSET $4`,
		f.Status, f.Bloqueada, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list empresas: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Empresa, error) { return scan(r) })
	if err != nil {
		return nil, 0, fmt.Errorf("list empresas: %w", err)
	}
	return list, total, nil
}

// SetBloqueada blocks or unblocks company id and returns it as it is now,
// with whether it was blocked before; errNotFound if there is none.
func (s *Store) SetBloqueada(ctx context.Context, id int64, bloqueada bool) (Empresa, bool, error) {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return Empresa{}, false, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var before bool
	err = tx.QueryRow(ctx, `SELECT bloqueada FROM empresas WHERE id = $1 FOR UPDATE`, id).Scan(&before)
	if err != nil {
		return Empresa{}, false, notFound(err, "lock empresa")
	}
	e, err := scan(tx.QueryRow(ctx, `
		UPDATE empresas SET bloqueada = $2, atualizada_em = now() WHERE id = $1
		RETURNING `+columns, id, bloqueada))
	if err != nil {
		return Empresa{}, false, fmt.Errorf("update bloqueada: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return Empresa{}, false, fmt.Errorf("commit: %w", err)
	}
	return e, before, nil
}

// Columns a company may change on itself (PATCH /empresas/me); Update
// sets no other.
const (
	colFusoHorario     = "fuso_horario"
	colResponsavelNome = "responsavel_nome"
	colResponsavelCPF  = "responsavel_cpf"
)

var updatable = []string{colFusoHorario, colResponsavelNome, colResponsavelCPF}

// Update sets the columns of set (keys from updatable) on company id
// unless it is blocked, and returns it as it is now; errNotFound when
// there is none, errStoreBloqueada when it is blocked (nothing changed).
// When the change touches what the REP keeps of the company, the event
// empresa.alterada is written in the same transaction, followed by one
// estabelecimento.alterado per other active establishment.
func (s *Store) Update(ctx context.Context, id int64, set map[string]any) (Empresa, error) {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return Empresa{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	before, err := scan(tx.QueryRow(ctx, `SELECT `+columns+` FROM empresas WHERE id = $1 FOR UPDATE`, id))
	if err != nil {
		return Empresa{}, notFound(err, "lock empresa")
	}
	if before.Bloqueada {
		return Empresa{}, errStoreBloqueada
	}
	sql, args := "UPDATE empresas SET atualizada_em = now()", []any{id}
	for _, col := range updatable {
		if v, ok := set[col]; ok {
			args = append(args, v)
			sql += fmt.Sprintf(", %s = $%d", col, len(args))
		}
	}
	e, err := scan(tx.QueryRow(ctx, sql+` WHERE id = $1 RETURNING `+columns, args...))
	if err != nil {
		return Empresa{}, fmt.Errorf("update empresa: %w", err)
	}
	if after := e.repIdentification(); !sameREPIdentification(before.repIdentification(), after) {
		if err := enqueueREP(ctx, tx, id, timekeepingapi.EmpresaAlterada, after); err != nil {
			return Empresa{}, fmt.Errorf("enqueue: %w", err)
		}
		if err := estabelecimentos.EnqueueCompanyChange(ctx, tx, id, after); err != nil {
			return Empresa{}, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return Empresa{}, fmt.Errorf("commit: %w", err)
	}
	return e, nil
}
