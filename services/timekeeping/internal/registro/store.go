package registro

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/internal/afd"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
)

// ErrNotFound means no such record (for this caller).
var ErrNotFound = apierr.NotFound("registro de ponto não encontrado")

var errKeyReused = apierr.Conflict("idempotencia_divergente",
	"Idempotency-Key já usada em outra marcação com dados diferentes")

// Store holds the SQL of time records.
type Store struct {
	db    *pgxpool.Pool
	clock *clock.Clock
}

// NewStore returns a Store on db; clk stamps punches and decides workdays.
func NewStore(db *pgxpool.Pool, clk *clock.Clock) *Store { return &Store{db: db, clock: clk} }

// Rows selects time records with the columns scanRow reads: punches with
// their adjustment, and absences (whose id shares the punches' sequence).
// Filter it as a subquery: SELECT * FROM (Rows) r WHERE ...
const Rows = `SELECT p.id, p.empresa_id, p.funcionario_id, p.jornada, p.horario_registro, p.tipo,
		p.localizacao, p.nsr, p.hash::text, a.status, a.data_solicitar, a.motivo
	FROM registros_ponto p LEFT JOIN ajustes a ON a.registro_id = p.id
	UNION ALL
	SELECT f.id, f.empresa_id, f.funcionario_id, f.data, f.inicio_dia, 'falta',
		NULL::text, NULL::bigint, NULL::text, NULL::text, NULL::timestamptz, NULL::text
	FROM faltas f`

// ScanRow reads one row of Rows.
func ScanRow(row pgx.CollectableRow) (Row, error) {
	var r Row
	err := row.Scan(&r.ID, &r.EmpresaID, &r.FuncionarioID, &r.Jornada, &r.HorarioRegistro, &r.Tipo,
		&r.Localizacao, &r.NSR, &r.Hash, &r.AjusteStatus, &r.DataSolicitar, &r.Motivo)
	return r, err
}

// Get returns record id of company empresaID (either kind), or ErrNotFound.
func (s *Store) Get(ctx context.Context, empresaID, id int64) (Row, error) {
	rows, _ := s.db.Query(ctx, `SELECT * FROM (`+Rows+`) r WHERE r.id = $1 AND r.empresa_id = $2`, id, empresaID)
	r, err := pgx.CollectExactlyOneRow(rows, ScanRow)
	if errors.Is(err, pgx.ErrNoRows) {
		return Row{}, ErrNotFound
	}
	if err != nil {
		return Row{}, fmt.Errorf("registro: get: %w", err)
	}
	return r, nil
}

// Punch is a clock-in to record.
type Punch struct {
	EmpresaID     int64
	FuncionarioID int64
	CPF           string
	// Nome is the employee's name, which the AFD's type-5 record carries.
	Nome           string
	Localizacao    string
	IdempotencyKey *string
	// Local is the geofence check of the position (nil when the company
	// has no work place).
	Local *Geofence
}

// Geofence is where a punch fell against the company's work places: the
// nearest one, the distance to it, and whether it was outside all of them.
type Geofence struct {
	LocalTrabalhoID int64
	DistanciaMetros int
	Fora            bool
}

// ClockIn records p and returns it; replayed is true when p's
// Idempotency-Key was already used by this employee, in which case the
// first punch is returned and nothing is written.
//
// The transaction first takes the company's chain head (cadeias) with an
// upsert that increments the NSR and locks the row, so that everything
// after it runs for one punch of the company at a time on every replica:
// the key check sees any committed twin, the workday count gives the
// right tipo, the time stamp follows NSR order, and the hash chains to the
// previous punch. A rollback undoes the increment: NSRs have no gaps.
func (s *Store) ClockIn(ctx context.Context, p Punch) (r Row, replayed bool, err error) {
	err = pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		nsr, anterior, err := nextNSR(ctx, tx, p.EmpresaID)
		if err != nil {
			return err
		}
		if p.IdempotencyKey != nil {
			first, found, err := byKey(ctx, tx, p.FuncionarioID, *p.IdempotencyKey)
			if err != nil {
				return err
			}
			if found {
				r, replayed = first, true
				return errReplayed // rolls the NSR increment back
			}
		}
		r, err = s.insert(ctx, tx, p, nsr, anterior)
		return err
	})
	switch {
	case errors.Is(err, errReplayed):
		err = nil
	case isUniqueViolation(err, "registros_ponto_idempotencia"):
		// Unreachable while the chain lock serialises a company's punches;
		// kept so that a twin can never become a second punch.
		var found bool
		if r, found, err = s.byKey(ctx, p.FuncionarioID, *p.IdempotencyKey); err == nil && !found {
			err = errors.New("registro: idempotency key vanished")
		}
		replayed = true
	}
	if err != nil {
		return Row{}, false, err
	}
	if replayed && deref(r.Localizacao) != p.Localizacao {
		return Row{}, false, errKeyReused
	}
	return r, replayed, nil
}

// nextNSR increments company empresaID's NSR, locking its chain head until
// the transaction ends, and returns the new NSR with the previous punch's
// hash ("" before the first punch).
func nextNSR(ctx context.Context, tx pgx.Tx, empresaID int64) (int64, string, error) {
	var nsr int64
	var anterior *string
	err := tx.QueryRow(ctx, `INSERT INTO cadeias (empresa_id, ultimo_nsr) VALUES ($1, 1)
		ON CONFLICT (empresa_id) DO UPDATE SET ultimo_nsr = cadeias.ultimo_nsr + 1
		RETURNING ultimo_nsr, ultimo_hash::text`, empresaID).Scan(&nsr, &anterior)
	if err != nil {
		return 0, "", fmt.Errorf("registro: chain head: %w", err)
	}
	return nsr, deref(anterior), nil
}

// insert stamps and stores punch p with its NSR, its tipo (from the
// employee's earlier punches of the workday) and its hash chained to
// anterior, then moves the chain head to it. It must run under the chain
// lock taken by nextNSR.
func (s *Store) insert(ctx context.Context, tx pgx.Tx, p Punch, nsr int64, anterior string) (Row, error) {
	now := s.clock.Now()
	nsr, err := s.registerEmployee(ctx, tx, p, nsr, now)
	if err != nil {
		return Row{}, err
	}
	r := Row{EmpresaID: p.EmpresaID, FuncionarioID: p.FuncionarioID, Jornada: s.clock.Workday(now),
		HorarioRegistro: now, Localizacao: &p.Localizacao, NSR: &nsr}
	var done int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM registros_ponto WHERE funcionario_id = $1 AND jornada = $2`,
		p.FuncionarioID, r.Jornada).Scan(&done); err != nil {
		return Row{}, fmt.Errorf("registro: workday count: %w", err)
	}
	r.Tipo = NextTipo(done)
	m := afd.Marcacao{NSR: nsr, Horario: now, OffsetMinutes: s.clock.OffsetMinutes(now), CPF: p.CPF, Coletor: afd.ColetorMobile}
	hash, err := afd.Hash(m, anterior)
	if err != nil {
		return Row{}, apierr.Internal(err)
	}
	r.Hash = &hash
	var local *int64
	var distancia *int
	var fora *bool
	if g := p.Local; g != nil {
		local, distancia, fora = &g.LocalTrabalhoID, &g.DistanciaMetros, &g.Fora
	}
	if err := tx.QueryRow(ctx, `INSERT INTO registros_ponto (empresa_id, funcionario_id, jornada,
			horario_registro, tipo, localizacao, nsr, hash, cpf, fuso_minutos, coletor, idempotency_key,
			local_trabalho_id, distancia_metros, fora_do_local)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
		p.EmpresaID, p.FuncionarioID, r.Jornada, now, r.Tipo, p.Localizacao, nsr, hash,
		afd.CPF12(p.CPF), m.OffsetMinutes, m.Coletor, p.IdempotencyKey, local, distancia, fora).Scan(&r.ID); err != nil {
		return Row{}, fmt.Errorf("registro: insert: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE cadeias SET ultimo_hash = $2 WHERE empresa_id = $1`, p.EmpresaID, hash); err != nil {
		return Row{}, fmt.Errorf("registro: chain head: %w", err)
	}
	return r, nil
}

// registerEmployee writes the AFD type-5 record that must precede p in
// the REP when p is the employee's first punch (inclusion, I) or his name
// or CPF changed since the last one (alteration, A). That record takes
// nsr, and the punch the next one, which it returns. It runs under the
// chain lock, so the NSR sequence stays gapless over both tables.
func (s *Store) registerEmployee(ctx context.Context, tx pgx.Tx, p Punch, nsr int64, now time.Time) (int64, error) {
	var cpf, nome string
	err := tx.QueryRow(ctx, `SELECT cpf, nome FROM empregados_rep WHERE empresa_id = $1 AND funcionario_id = $2
		ORDER BY nsr DESC LIMIT 1`, p.EmpresaID, p.FuncionarioID).Scan(&cpf, &nome)
	operacao := "A"
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		operacao = "I"
	case err != nil:
		return 0, fmt.Errorf("registro: REP employee: %w", err)
	case cpf == afd.CPF12(p.CPF) && nome == p.Nome:
		return nsr, nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO empregados_rep (empresa_id, nsr, funcionario_id, operacao, cpf, nome,
			responsavel, gravado_em, fuso_minutos) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		p.EmpresaID, nsr, p.FuncionarioID, operacao, afd.CPF12(p.CPF), p.Nome, afd.ResponsavelSistema,
		now, s.clock.OffsetMinutes(now)); err != nil {
		return 0, fmt.Errorf("registro: REP employee: %w", err)
	}
	if err := tx.QueryRow(ctx, `UPDATE cadeias SET ultimo_nsr = ultimo_nsr + 1 WHERE empresa_id = $1
		RETURNING ultimo_nsr`, p.EmpresaID).Scan(&nsr); err != nil {
		return 0, fmt.Errorf("registro: chain head: %w", err)
	}
	return nsr, nil
}

// errReplayed rolls back a clock-in whose key was used before.
var errReplayed = errors.New("registro: idempotent replay")

func (s *Store) byKey(ctx context.Context, funcionarioID int64, key string) (Row, bool, error) {
	return byKey(ctx, s.db, funcionarioID, key)
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func byKey(ctx context.Context, q querier, funcionarioID int64, key string) (Row, bool, error) {
	rows, _ := q.Query(ctx, `SELECT r.* FROM (`+Rows+`) r JOIN registros_ponto p ON p.id = r.id
		WHERE p.funcionario_id = $1 AND p.idempotency_key = $2`, funcionarioID, key)
	r, err := pgx.CollectExactlyOneRow(rows, ScanRow)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Row{}, false, nil
	case err != nil:
		return Row{}, false, fmt.Errorf("registro: by idempotency key: %w", err)
	}
	return r, true, nil
}

// Earlier returns the punches of r's employee and workday made before r
// (at most limit, the latest ones), oldest first.
func (s *Store) Earlier(ctx context.Context, r Row, limit int) ([]Row, error) {
	rows, _ := s.db.Query(ctx, `SELECT * FROM (
			SELECT r.* FROM (`+Rows+`) r
			WHERE r.funcionario_id = $1 AND r.jornada = $2 AND r.nsr < $3
			ORDER BY r.nsr DESC LIMIT $4) x
		ORDER BY x.nsr`, r.FuncionarioID, r.Jornada, deref(r.NSR), limit)
	out, err := pgx.CollectRows(rows, ScanRow)
	if err != nil {
		return nil, fmt.Errorf("registro: earlier: %w", err)
	}
	return out, nil
}

// Own returns one page of employee funcionarioID's records (punches and
// absences) whose workday is in [inicio, fim], in time order, and how many
// there are in all.
func (s *Store) Own(ctx context.Context, funcionarioID int64, inicio, fim time.Time, p page.Page) ([]Row, int, error) {
	const where = ` WHERE r.funcionario_id = $1 AND r.jornada BETWEEN $2 AND $3`
	var total int
	if err := s.db.QueryRow(ctx, `SELECT count(*) FROM (`+Rows+`) r`+where, funcionarioID, inicio, fim).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("registro: own count: %w", err)
	}
	rows, _ := s.db.Query(ctx, `SELECT * FROM (`+Rows+`) r`+where+` ORDER BY r.horario_registro, r.id LIMIT $4 OFFSET $5`,
		funcionarioID, inicio, fim, p.Limit(), p.Offset())
	out, err := pgx.CollectRows(rows, ScanRow)
	if err != nil {
		return nil, 0, fmt.Errorf("registro: own: %w", err)
	}
	return out, total, nil
}

func isUniqueViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == constraint
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
