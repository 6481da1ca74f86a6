package registro

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
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
	// chains is one queue per company (a chan struct{} of capacity 1 by
	// empresa id): see ClockIn.
	chains sync.Map
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

// ClockIn records p and returns it with the employee's earlier punches of
// its workday (at most maxEarlier, oldest first); replayed is true when
// p's Idempotency-Key was already used by this employee, in which case the
// first punch is returned and nothing is written.
//
// The transaction first takes the company's chain head (cadeias) with an
// upsert that increments the NSR and locks the row, so that everything
// after it runs for one punch of the company at a time on every replica:
// the key check sees any committed twin, the workday count gives the
// right tipo, the time stamp follows NSR order, and the hash chains to the
// previous punch. A rollback undoes the increment: NSRs have no gaps.
//
// Because that lock serialises a company's punches, the time it is held
// bounds how many punches one company can record per second. The
// transaction is therefore sent as two pipelined batches (several
// statements in one round trip each; docs/performance.md), and the lock
// is held for one round trip and the commit instead of five:
//
//  1. lockChain: BEGIN, the chain head, the idempotency twin, the
//     employee's last type-5 record, the workday count, the earlier
//     punches;
//  2. write: the type-5 record when needed, the punch, the chain head
//     moved to it, COMMIT.
func (s *Store) ClockIn(ctx context.Context, p Punch) (r Row, earlier []Row, replayed bool, err error) {
	// Punches of one company queue here, in this replica, before they
	// take a database connection. Waiting on the chain head's row lock in
	// PostgreSQL instead would hold a connection per waiter, and each
	// commit would wake every waiter to race for the row again: under a
	// burst on one company that costs more than the punches themselves.
	// The row lock still orders the replicas between them. Waiting here
	// ends with the request's deadline.
	q, ok := s.chains.Load(p.EmpresaID)
	if !ok {
		q, _ = s.chains.LoadOrStore(p.EmpresaID, make(chan struct{}, 1))
	}
	select {
	case q.(chan struct{}) <- struct{}{}:
		defer func() { <-q.(chan struct{}) }()
	case <-ctx.Done():
		return Row{}, nil, false, fmt.Errorf("registro: waiting for the company's chain: %w", ctx.Err())
	}

	conn, err := s.db.Acquire(ctx)
	if err != nil {
		return Row{}, nil, false, fmt.Errorf("registro: acquire: %w", err)
	}
	// Whatever fails below leaves the transaction open or aborted:
	// rollback ends it, and pgxpool closes a connection released in any
	// other state.
	defer conn.Release()
	defer func() {
		if err != nil {
			rollback(ctx, conn.Conn())
		}
	}()
	// Everything below uses this one connection: taking a second from
	// the pool while holding it could deadlock a full pool.
	head, err := s.lockChain(ctx, conn.Conn(), p)
	if err == nil && head.twin != nil {
		rollback(ctx, conn.Conn()) // gives the NSR back
		r, replayed = *head.twin, true
		earlier, err = earlierOf(ctx, conn, r, maxEarlier)
	} else if err == nil {
		r, earlier, err = s.write(ctx, conn.Conn(), p, head)
	}
	if isUniqueViolation(err, "registros_ponto_idempotencia") {
		// Unreachable while the chain lock serialises a company's punches;
		// kept so that a twin can never become a second punch.
		rollback(ctx, conn.Conn())
		var found bool
		if r, found, err = byKey(ctx, conn, p.FuncionarioID, *p.IdempotencyKey); err == nil && !found {
			err = errors.New("registro: idempotency key vanished")
		}
		if err == nil {
			earlier, err = earlierOf(ctx, conn, r, maxEarlier)
		}
		replayed = true
	}
	if err != nil {
		return Row{}, nil, false, err
	}
	if replayed && deref(r.Localizacao) != p.Localizacao {
		return Row{}, nil, false, errKeyReused
	}
	return r, earlier, replayed, nil
}

// chainHead is what the first batch read under the company's lock.
type chainHead struct {
	nsr      int64  // the NSR taken
	anterior string // the previous punch's hash ("" before the first)
	twin     *Row   // the punch already made with p's Idempotency-Key
	// rep is the employee's last type-5 record (nil before his first).
	rep *struct{ cpf, nome string }
	// jornada is the workday the count and earlier punches are of.
	jornada time.Time
	done    int
	earlier []Row
}

const (
	lockChainSQL = `INSERT INTO cadeias (empresa_id, ultimo_nsr) VALUES ($1, 1)
		ON CONFLICT (empresa_id) DO UPDATE SET ultimo_nsr = cadeias.ultimo_nsr + 1
		RETURNING ultimo_nsr, ultimo_hash::text`
	lastREPSQL = `SELECT cpf, nome FROM empregados_rep WHERE empresa_id = $1 AND funcionario_id = $2
		ORDER BY nsr DESC LIMIT 1`
	workdayCountSQL = `SELECT count(*) FROM registros_ponto WHERE funcionario_id = $1 AND jornada = $2`
	// earlierSQL: the workday's punches so far, the latest limit of them,
	// oldest first. Under the chain lock every one of them precedes the
	// punch being recorded.
	earlierSQL = `SELECT * FROM (
			SELECT r.* FROM (` + Rows + `) r
			WHERE r.funcionario_id = $1 AND r.jornada = $2 AND r.nsr < $3
			ORDER BY r.nsr DESC LIMIT $4) x
		ORDER BY x.nsr`
)

// lockChain opens the transaction and, in one round trip, increments
// p's company NSR (locking its chain head until the transaction ends)
// and reads what the punch depends on. The workday is the one of the
// moment the batch is sent; write checks it against the punch's own time
// stamp, taken once the lock is held.
func (s *Store) lockChain(ctx context.Context, conn *pgx.Conn, p Punch) (chainHead, error) {
	h := chainHead{jornada: s.clock.Workday(s.clock.Now())}
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(lockChainSQL, p.EmpresaID)
	if p.IdempotencyKey != nil {
		b.Queue(byKeySQL, p.FuncionarioID, *p.IdempotencyKey)
	}
	b.Queue(lastREPSQL, p.EmpresaID, p.FuncionarioID)
	b.Queue(workdayCountSQL, p.FuncionarioID, h.jornada)
	b.Queue(earlierSQL, p.FuncionarioID, h.jornada, int64(math.MaxInt64), maxEarlier)
	br := conn.SendBatch(ctx, b)
	err := readLockChain(br, p, &h)
	if cerr := br.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("registro: chain head: %w", cerr)
	}
	return h, err
}

func readLockChain(br pgx.BatchResults, p Punch, h *chainHead) error {
	if _, err := br.Exec(); err != nil {
		return fmt.Errorf("registro: begin: %w", err)
	}
	var anterior *string
	if err := br.QueryRow().Scan(&h.nsr, &anterior); err != nil {
		return fmt.Errorf("registro: chain head: %w", err)
	}
	h.anterior = deref(anterior)
	if p.IdempotencyKey != nil {
		rows, _ := br.Query()
		twin, err := pgx.CollectExactlyOneRow(rows, ScanRow)
		switch {
		case err == nil:
			h.twin = &twin
		case !errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("registro: by idempotency key: %w", err)
		}
	}
	var rep struct{ cpf, nome string }
	switch err := br.QueryRow().Scan(&rep.cpf, &rep.nome); {
	case err == nil:
		h.rep = &rep
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("registro: REP employee: %w", err)
	}
	if err := br.QueryRow().Scan(&h.done); err != nil {
		return fmt.Errorf("registro: workday count: %w", err)
	}
	rows, _ := br.Query()
	earlier, err := pgx.CollectRows(rows, ScanRow)
	if err != nil {
		return fmt.Errorf("registro: earlier: %w", err)
	}
	h.earlier = earlier
	return nil
}

// write stamps punch p, gives it its NSR (after the type-5 record that
// must precede it, if any), its tipo and its hash chained to the previous
// punch, and stores it, the record and the moved chain head in one round
// trip that ends with the commit. It runs under the lock lockChain took.
func (s *Store) write(ctx context.Context, conn *pgx.Conn, p Punch, h chainHead) (Row, []Row, error) {
	now := s.clock.Now()
	jornada := s.clock.Workday(now)
	if !jornada.Equal(h.jornada) {
		// The batch was sent just before midnight and the lock came after
		// it: count the new workday instead (rare, one more round trip).
		if err := s.recount(ctx, conn, p, jornada, &h); err != nil {
			return Row{}, nil, err
		}
	}
	offset := s.clock.OffsetMinutes(now)
	cpf := afd.CPF12(p.CPF)
	nsr := h.nsr
	b := &pgx.Batch{}
	// The AFD's type-5 record precedes the employee's first punch
	// (inclusion, I) and any punch after his name or CPF changed
	// (alteration, A); it takes this NSR and the punch the next one, so
	// the sequence stays gapless over both tables.
	if h.rep == nil || h.rep.cpf != cpf || h.rep.nome != p.Nome {
		operacao := "A"
		if h.rep == nil {
			operacao = "I"
		}
		b.Queue(`INSERT INTO empregados_rep (empresa_id, nsr, funcionario_id, operacao, cpf, nome,
			responsavel, gravado_em, fuso_minutos) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			p.EmpresaID, nsr, p.FuncionarioID, operacao, cpf, p.Nome, afd.ResponsavelSistema, now, offset)
		nsr++
	}
	r := Row{EmpresaID: p.EmpresaID, FuncionarioID: p.FuncionarioID, Jornada: jornada, HorarioRegistro: now,
		Tipo: NextTipo(h.done), Localizacao: &p.Localizacao, NSR: &nsr}
	m := afd.Marcacao{NSR: nsr, Horario: now, OffsetMinutes: offset, CPF: p.CPF, Coletor: afd.ColetorMobile}
	hash, err := afd.Hash(m, h.anterior)
	if err != nil {
		return Row{}, nil, apierr.Internal(err)
	}
	r.Hash = &hash
	var local *int64
	var distancia *int
	var fora *bool
	if g := p.Local; g != nil {
		local, distancia, fora = &g.LocalTrabalhoID, &g.DistanciaMetros, &g.Fora
	}
	b.Queue(`INSERT INTO registros_ponto (empresa_id, funcionario_id, jornada,
			horario_registro, tipo, localizacao, nsr, hash, cpf, fuso_minutos, coletor, idempotency_key,
			local_trabalho_id, distancia_metros, fora_do_local)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
		p.EmpresaID, p.FuncionarioID, r.Jornada, now, r.Tipo, p.Localizacao, nsr, hash,
		cpf, m.OffsetMinutes, m.Coletor, p.IdempotencyKey, local, distancia, fora).QueryRow(func(row pgx.Row) error {
		return row.Scan(&r.ID)
	})
	b.Queue(`UPDATE cadeias SET ultimo_nsr = $2, ultimo_hash = $3 WHERE empresa_id = $1`, p.EmpresaID, nsr, hash)
	b.Queue("COMMIT")
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return Row{}, nil, fmt.Errorf("registro: insert: %w", err)
	}
	return r, h.earlier, nil
}

// recount reads the workday count and earlier punches of jornada, still
// under the lock.
func (s *Store) recount(ctx context.Context, conn *pgx.Conn, p Punch, jornada time.Time, h *chainHead) error {
	if err := conn.QueryRow(ctx, workdayCountSQL, p.FuncionarioID, jornada).Scan(&h.done); err != nil {
		return fmt.Errorf("registro: workday count: %w", err)
	}
	rows, _ := conn.Query(ctx, earlierSQL, p.FuncionarioID, jornada, int64(math.MaxInt64), maxEarlier)
	earlier, err := pgx.CollectRows(rows, ScanRow)
	if err != nil {
		return fmt.Errorf("registro: earlier: %w", err)
	}
	h.jornada, h.earlier = jornada, earlier
	return nil
}

// rollback ends conn's transaction, if one is open, so that the
// connection goes back to the pool; if it cannot, Release closes it.
func rollback(ctx context.Context, conn *pgx.Conn) {
	if conn.IsClosed() || conn.PgConn().TxStatus() == 'I' {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, _ = conn.Exec(ctx, "ROLLBACK")
}

// errReplayed rolls back a clock-in whose key was used before.
var errReplayed = errors.New("registro: idempotent replay")

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// byKeySQL finds employee $1's punch with Idempotency-Key $2.
const byKeySQL = `SELECT r.* FROM (` + Rows + `) r JOIN registros_ponto p ON p.id = r.id
	WHERE p.funcionario_id = $1 AND p.idempotency_key = $2`

func byKey(ctx context.Context, q querier, funcionarioID int64, key string) (Row, bool, error) {
	rows, _ := q.Query(ctx, byKeySQL, funcionarioID, key)
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
	return earlierOf(ctx, s.db, r, limit)
}

func earlierOf(ctx context.Context, q querier, r Row, limit int) ([]Row, error) {
	rows, _ := q.Query(ctx, earlierSQL, r.FuncionarioID, r.Jornada, deref(r.NSR), limit)
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
