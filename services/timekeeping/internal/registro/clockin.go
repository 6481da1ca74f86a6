package registro

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// Clock-ins are written in batches (group commit). A company's punches
// must be numbered and chained one after the other, under its chain head's
// row lock; writing them one transaction each made that lock, and the
// commit's WAL flush, the cost of every punch (docs/performance.md). A
// lane instead takes every punch that arrived while its previous batch was
// being written and records them all in one transaction of two round
// trips: the chain heads, NSRs, hashes and statements are shared by the
// batch. Under no load a batch is one punch; under load it grows by
// itself, and so does what each commit carries.
//
// Companies are spread over the lanes by id, so a company's punches always
// meet in the same lane of a replica; lanes write in parallel. Between
// replicas the row lock still orders a company's punches, and a batch
// locks its companies in id order, so batches never deadlock.
const (
	// lanes is how many batches a replica writes at once, each on one
	// database connection. One: with four, batches under the spread
	// benchmark were a quarter of the size and PostgreSQL spent 0.40 ms of
	// CPU per punch instead of 0.22 (docs/performance.md).
	lanes = 1
	// maxBatch bounds the punches of one transaction.
	maxBatch = 128
	// batchTimeout bounds one batch's transaction: it outlives the
	// requests that queued it, which may give up earlier.
	batchTimeout = 10 * time.Second
)

// Marcacao is a clock-in to record.
type Marcacao struct {
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
	// Coletor is the AFD's collector code the client sent (01 to 05).
	Coletor string
	// Zone is the employee's time zone and Escala his schedule: together
	// they decide the punch's workday (core.Jornada) and offset.
	Zone   *time.Location
	Escala *core.Escala
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
// The punch joins its company's lane and is written with the batch that
// lane writes next (record). Waiting ends with ctx: a punch whose request
// gave up before its batch took the chain heads is not written.
func (s *Store) ClockIn(ctx context.Context, p Marcacao) (Row, []*Row, bool, error) {
	c := &call{ctx: ctx, p: p, done: make(chan outcome, 1), queued: time.Now()}
	s.lanes[uint64(p.EmpresaID)%lanes].submit(s, c)
	var o outcome
	select {
	case o = <-c.done:
	case <-ctx.Done():
		return Row{}, nil, false, fmt.Errorf("registro: waiting for the company's chain: %w", ctx.Err())
	}
	if o.err != nil {
		return Row{}, nil, false, o.err
	}
	if !o.replayed {
		return o.r, o.earlier, false, nil
	}
	if deref(o.r.Localizacao) != p.Localizacao {
		return Row{}, nil, false, errKeyReused
	}
	if o.twin {
		// The punch was recorded by an earlier batch: read what preceded it.
		var err error
		if o.earlier, err = earlierOf(ctx, s.db, o.r, maxEarlier); err != nil {
			return Row{}, nil, false, err
		}
	}
	return o.r, o.earlier, true, nil
}

// call is a punch waiting in a lane.
type call struct {
	ctx  context.Context
	p    Marcacao
	done chan outcome // buffered: the lane never waits for the caller
	// jornada is the punch's workday when the batch read the chain heads.
	jornada time.Time
	// queued is when the call joined its lane (the batch-wait metric).
	queued time.Time
}

// outcome is what the lane answers a call. earlier points into the
// batch's rows, which nothing changes once the batch is committed: the
// answers render them without the lane copying them first. For a replay
// of a punch from an earlier batch (twin), the caller reads earlier.
type outcome struct {
	r        Row
	earlier  []*Row
	replayed bool
	twin     bool
	err      error
}

// lane queues punches and writes them in batches, one at a time. Its
// writer goroutine exists only while there is something to write.
type lane struct {
	mu      sync.Mutex
	queue   []*call
	writing bool
}

func (l *lane) submit(s *Store, c *call) {
	l.mu.Lock()
	l.queue = append(l.queue, c)
	start := !l.writing
	l.writing = true
	l.mu.Unlock()
	if start {
		go l.write(s)
	}
}

// write records the queue's punches batch after batch until it is empty.
func (l *lane) write(s *Store) {
	for {
		l.mu.Lock()
		n := min(len(l.queue), maxBatch)
		if n == 0 {
			l.queue, l.writing = nil, false
			l.mu.Unlock()
			return
		}
		batch := slices.Clone(l.queue[:n])
		l.queue = l.queue[n:]
		l.mu.Unlock()
		s.record(batch)
	}
}

// record writes one batch and answers each of its calls. A batch fails as
// a whole; when PostgreSQL refused it (a constraint, say), the punches are
// tried again one by one, so that one bad punch cannot fail the others.
func (s *Store) record(batch []*call) {
	live := batch[:0]
	for _, c := range batch {
		if err := c.ctx.Err(); err != nil {
			c.done <- outcome{err: err}
			continue
		}
		live = append(live, c)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(live[0].ctx), batchTimeout)
	defer cancel()
	start := time.Now()
	outs, err := s.commit(ctx, live)
	if err == nil {
		s.tellBatch(live, outs, start)
	}
	var pgErr *pgconn.PgError
	s.observe(live, err, errors.As(err, &pgErr))
	if err != nil && len(live) > 1 && errors.As(err, &pgErr) {
		for _, c := range live {
			s.record([]*call{c})
		}
		return
	}
	for i, c := range live {
		if err != nil {
			c.done <- outcome{err: err}
		} else {
			c.done <- outs[i]
		}
	}
}

// Availability follows whether punches can be written
// (disponibilidade.Monitor): the AFD's type-6 records.
type Availability interface {
	Refused(empresas []int64, at time.Time)
	Written(at time.Time)
}

// WatchAvailability has the store tell a of every batch written, and of
// every batch refused because the database could not be reached.
func (s *Store) WatchAvailability(a Availability) { s.availability = a }

// observe tells the availability watcher how a batch went: written, or
// refused by a database that did not answer (PostgreSQL's own refusals,
// such as a constraint, say nothing of availability).
func (s *Store) observe(calls []*call, err error, refusedByPostgres bool) {
	if s.availability == nil || refusedByPostgres {
		return
	}
	now := s.clock.Now()
	if err == nil {
		s.availability.Written(now)
		return
	}
	empresas := make([]int64, 0, len(calls))
	for _, c := range calls {
		empresas = append(empresas, c.p.EmpresaID)
	}
	s.availability.Refused(empresas, now)
}

// errWorkdayChanged: the batch read a punch's workday and stamped it on
// the next.
var errWorkdayChanged = errors.New("registro: the workday changed during the batch")

// commit writes calls in one transaction, again (rarely) when a workday
// boundary fell between reading the workday and stamping its punches. Calls whose
// request gave up by the time the chain heads are locked are answered
// with their context's error and left out.
func (s *Store) commit(ctx context.Context, calls []*call) ([]outcome, error) {
	for attempt := 0; ; attempt++ {
		outs, err := s.commitOnce(ctx, calls)
		if !errors.Is(err, errWorkdayChanged) || attempt == 2 {
			return outs, err
		}
	}
}

func (s *Store) commitOnce(ctx context.Context, calls []*call) (outs []outcome, err error) {
	conn, err := s.db.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("registro: acquire: %w", err)
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
	now := s.clock.Now()
	for _, c := range calls {
		c.jornada = core.Jornada(now, c.p.Zone, c.p.Escala)
	}
	st, err := s.lock(ctx, conn.Conn(), calls)
	if err != nil {
		return nil, err
	}
	plan, err := s.plan(calls, st)
	if err != nil {
		return nil, err
	}
	if err := plan.write(ctx, conn.Conn()); err != nil {
		return nil, err
	}
	return plan.outcomes(), nil
}

// The batch's first round trip opens the transaction, takes (and locks,
// in company order, so that batches never deadlock) the chain heads, and
// reads what each punch depends on.
const (
	lockChainsSQL = `INSERT INTO cadeias (empresa_id) SELECT unnest($1::bigint[])
		ON CONFLICT (empresa_id) DO UPDATE SET ultimo_nsr = cadeias.ultimo_nsr
		RETURNING empresa_id, ultimo_nsr, ultimo_hash::text`
	// twinsSQL: the punches already made with the batch's Idempotency-Keys
	// (employees $1, keys $2), each after its key.
	twinsSQL = `SELECT k.chave, x.* FROM unnest($1::bigint[], $2::text[]) AS k(funcionario_id, chave)
		CROSS JOIN LATERAL (SELECT ` + punchColumns + `
			WHERE p.funcionario_id = k.funcionario_id AND p.idempotency_key = k.chave) x`
	// lastREPsSQL: each employee's ($1 companies, $2 employees) last AFD
	// type-5 record.
	lastREPsSQL = `SELECT k.funcionario_id, x.cpf, x.nome FROM unnest($1::bigint[], $2::bigint[]) AS k(empresa_id, funcionario_id)
		CROSS JOIN LATERAL (SELECT cpf, nome FROM empregados_rep r
			WHERE r.funcionario_id = k.funcionario_id AND r.empresa_id = k.empresa_id
			ORDER BY r.nsr DESC LIMIT 1) x`
	// latestSQL: each employee's ($1) latest punches ($3 at most) of his
	// workday ($2), newest first. Under the chain lock, every one of them
	// precedes the batch's punches.
	latestSQL = `SELECT x.* FROM unnest($1::bigint[], $2::date[]) AS k(funcionario_id, jornada)
		CROSS JOIN LATERAL (SELECT ` + punchColumns + `
			WHERE p.funcionario_id = k.funcionario_id AND p.jornada = k.jornada
			ORDER BY p.nsr DESC LIMIT $3) x`
)

// state is what the first round trip read, by company and employee.
type state struct {
	heads  map[int64]*head
	twins  map[twinKey]Row
	reps   map[int64]rep
	latest map[int64][]Row // oldest first
}

type head struct {
	nsr  int64  // the last NSR given
	hash string // the last punch's hash ("" before the first)
	// moved is true once the batch gave the company an NSR.
	moved bool
}

type twinKey struct {
	funcionarioID int64
	key           string
}

// rep is an employee as his last AFD type-5 record has him.
type rep struct{ cpf, nome string }

func (s *Store) lock(ctx context.Context, conn *pgx.Conn, calls []*call) (state, error) {
	var empresas, funcionarios, repEmpresas, keyFuncionarios []int64
	var keys []string
	var jornadas []time.Time
	seen := make(map[int64]bool, len(calls))
	for _, c := range calls {
		if !slices.Contains(empresas, c.p.EmpresaID) {
			empresas = append(empresas, c.p.EmpresaID)
		}
		if !seen[c.p.FuncionarioID] {
			seen[c.p.FuncionarioID] = true
			funcionarios = append(funcionarios, c.p.FuncionarioID)
			repEmpresas = append(repEmpresas, c.p.EmpresaID)
			jornadas = append(jornadas, c.jornada)
		}
		if c.p.IdempotencyKey != nil {
			keyFuncionarios, keys = append(keyFuncionarios, c.p.FuncionarioID), append(keys, *c.p.IdempotencyKey)
		}
	}
	slices.Sort(empresas)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(lockChainsSQL, empresas)
	if len(keys) > 0 {
		b.Queue(twinsSQL, keyFuncionarios, keys)
	}
	b.Queue(lastREPsSQL, repEmpresas, funcionarios)
	b.Queue(latestSQL, funcionarios, jornadas, maxEarlier)
	br := conn.SendBatch(ctx, b)
	st, err := readLock(br, len(keys) > 0)
	if cerr := br.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("registro: chain heads: %w", cerr)
	}
	return st, err
}

func readLock(br pgx.BatchResults, withKeys bool) (state, error) {
	st := state{heads: map[int64]*head{}, twins: map[twinKey]Row{}, reps: map[int64]rep{}, latest: map[int64][]Row{}}
	if _, err := br.Exec(); err != nil {
		return st, fmt.Errorf("registro: begin: %w", err)
	}
	rows, _ := br.Query()
	var empresaID, nsr int64
	var hash *string
	if _, err := pgx.ForEachRow(rows, []any{&empresaID, &nsr, &hash}, func() error {
		st.heads[empresaID] = &head{nsr: nsr, hash: deref(hash)}
		return nil
	}); err != nil {
		return st, fmt.Errorf("registro: chain heads: %w", err)
	}
	if withKeys {
		rows, _ := br.Query()
		if _, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
			var key string
			var r Row
			err := scanRow(row, &r, &key)
			st.twins[twinKey{r.FuncionarioID, key}] = r
			return struct{}{}, err
		}); err != nil {
			return st, fmt.Errorf("registro: by idempotency key: %w", err)
		}
	}
	rows, _ = br.Query()
	var funcionarioID int64
	var r rep
	if _, err := pgx.ForEachRow(rows, []any{&funcionarioID, &r.cpf, &r.nome}, func() error {
		st.reps[funcionarioID] = r
		return nil
	}); err != nil {
		return st, fmt.Errorf("registro: REP employees: %w", err)
	}
	rows, _ = br.Query()
	latest, err := collectRows(rows)
	if err != nil {
		return st, fmt.Errorf("registro: earlier: %w", err)
	}
	st.latest = byEmployee(latest)
	return st, nil
}

// byEmployee gives each employee his rows of latest (each employee's
// newest first), oldest first, as a part of latest itself: a batch reads
// up to maxEarlier rows an employee, and copying them once more per
// employee was the batch's largest allocation (docs/performance.md).
// latestSQL returns an employee's rows together; SQL promises nothing of
// the order across its lateral join, so rows that come apart are put
// together first, by a stable sort that keeps each employee's order.
func byEmployee(latest []Row) map[int64][]Row {
	out := make(map[int64][]Row)
	for start := 0; start < len(latest); {
		f := latest[start].FuncionarioID
		end := start + 1
		for end < len(latest) && latest[end].FuncionarioID == f {
			end++
		}
		if _, apart := out[f]; apart {
			slices.SortStableFunc(latest, func(a, b Row) int { return cmp.Compare(a.FuncionarioID, b.FuncionarioID) })
			return byEmployee(latest)
		}
		out[f] = latest[start:end:end] // capped: appending never reaches the next employee's
		start = end
	}
	for _, rows := range out {
		slices.Reverse(rows)
	}
	return out
}

// plan is the batch as it will be written: each call's punch (or replay)
// stamped, numbered, typed and chained, in the calls' order.
type plan struct {
	calls   []*call
	punches []toInsert
	// of and earlier give each call its punch (an index into punches) and
	// the punches that preceded it in its workday; replay marks a call
	// whose punch an earlier call of the batch made.
	of      []int
	earlier [][]*Row
	replay  []bool
	twins   map[int]Row   // replays of earlier batches' punches, by call
	gone    map[int]error // calls whose request gave up: not written
	reps    []repRecord
	heads   map[int64]*head
}

// toInsert is a punch to insert: its row and what the row does not keep.
type toInsert struct {
	*Row
	cpf     string
	fuso    int16
	coletor string
	key     *string
	local   *Geofence
}

type repRecord struct {
	empresaID, nsr, funcionarioID int64
	operacao, cpf, nome           string
	gravadoEm                     time.Time
	fuso                          int16
}

// plan stamps, numbers, types and chains the batch's punches under the
// locks taken. A key used twice in one batch makes the second a replay of
// the first.
func (s *Store) plan(calls []*call, st state) (*plan, error) {
	pl := &plan{calls: calls, heads: st.heads, twins: map[int]Row{}, gone: map[int]error{},
		of: make([]int, len(calls)), earlier: make([][]*Row, len(calls)), replay: make([]bool, len(calls))}
	day := make(map[int64][]*Row, len(st.latest)) // each employee's punches of the workday so far
	for f, rows := range st.latest {
		day[f] = pointersTo(rows)
	}
	byKey := make(map[twinKey]int)
	for i, c := range calls {
		p := c.p
		if err := c.ctx.Err(); err != nil {
			pl.gone[i] = err
			continue
		}
		if p.IdempotencyKey != nil {
			k := twinKey{p.FuncionarioID, *p.IdempotencyKey}
			if twin, ok := st.twins[k]; ok {
				pl.twins[i] = twin
				continue
			}
			if j, ok := byKey[k]; ok {
				pl.of[i], pl.earlier[i], pl.replay[i] = pl.of[j], pl.earlier[j], true
				continue
			}
			byKey[k] = i
		}
		now := s.clock.Now()
		jornada := core.Jornada(now, p.Zone, p.Escala)
		if !jornada.Equal(c.jornada) {
			return nil, errWorkdayChanged
		}
		h := st.heads[p.EmpresaID]
		if h == nil {
			return nil, fmt.Errorf("registro: no chain head for company %d", p.EmpresaID)
		}
		offset := core.Offset(now, p.Zone)
		cpf := core.CPF12(p.CPF)
		// The AFD's type-5 record precedes the employee's first punch
		// (inclusion, I) and any punch after his name or CPF changed
		// (alteration, A); it takes the next NSR and the punch the one
		// after, so the sequence stays gapless over both tables.
		last, known := st.reps[p.FuncionarioID]
		if operacao := core.OperacaoREP(known, last.cpf, last.nome, cpf, p.Nome); operacao != "" {
			h.nsr = core.NextNSR(h.nsr)
			pl.reps = append(pl.reps, repRecord{empresaID: p.EmpresaID, nsr: h.nsr, funcionarioID: p.FuncionarioID,
				operacao: operacao, cpf: cpf, nome: p.Nome, gravadoEm: now, fuso: int16(offset)})
			st.reps[p.FuncionarioID] = rep{cpf: cpf, nome: p.Nome}
		}
		h.nsr = core.NextNSR(h.nsr)
		hash, err := core.Hash(core.Marcacao{NSR: h.nsr, Horario: now, OffsetMinutes: offset, CPF: p.CPF,
			Coletor: p.Coletor}, h.hash)
		if err != nil {
			return nil, err
		}
		h.hash, h.moved = hash, true
		before := day[p.FuncionarioID]
		nsr, loc := h.nsr, p.Localizacao
		r := &Row{EmpresaID: p.EmpresaID, FuncionarioID: p.FuncionarioID, Jornada: jornada, HorarioRegistro: now,
			Tipo: nextTipo(before), Localizacao: &loc, NSR: &nsr, Hash: &hash}
		pl.of[i], pl.earlier[i] = len(pl.punches), before[max(0, len(before)-maxEarlier):]
		pl.punches = append(pl.punches, toInsert{Row: r, cpf: cpf, fuso: int16(offset), coletor: p.Coletor,
			key: p.IdempotencyKey, local: p.Local})
		day[p.FuncionarioID] = append(before[:len(before):len(before)], r)
	}
	return pl, nil
}

// nextTipo is the tipo of the punch after the workday's punches so far
// (core.TipoAfter the last one's).
func nextTipo(day []*Row) string {
	if len(day) == 0 {
		return core.TipoAfter("")
	}
	return core.TipoAfter(day[len(day)-1].Tipo)
}

// The batch's second round trip writes the type-5 records, the punches and
// the moved chain heads, and commits.
const (
	insertREPsSQL = `INSERT INTO empregados_rep (empresa_id, nsr, funcionario_id, operacao, cpf, nome,
			responsavel, gravado_em, fuso_minutos)
		SELECT u.empresa_id, u.nsr, u.funcionario_id, u.operacao, u.cpf, u.nome,
			coalesce((SELECT r.responsavel FROM empresas_rep r WHERE r.empresa_id = u.empresa_id
				ORDER BY r.nsr DESC LIMIT 1), $1), u.gravado_em, u.fuso
		FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[],
			$8::timestamptz[], $9::smallint[]) AS u(empresa_id, nsr, funcionario_id, operacao, cpf, nome, gravado_em, fuso)`
	insertPunchesSQL = `INSERT INTO registros_ponto (empresa_id, funcionario_id, jornada,
			horario_registro, tipo, localizacao, nsr, hash, hash_versao, cpf, fuso_minutos, coletor, idempotency_key,
			local_trabalho_id, distancia_metros, fora_do_local)
		SELECT u.empresa_id, u.funcionario_id, u.jornada, u.horario, u.tipo, u.localizacao, u.nsr, u.hash, $1, u.cpf,
			u.fuso, u.coletor, u.chave, u.local_id, u.distancia, u.fora
		FROM unnest($2::bigint[], $3::bigint[], $4::date[], $5::timestamptz[], $6::text[], $7::text[], $8::bigint[],
			$9::text[], $10::text[], $11::smallint[], $12::text[], $13::text[], $14::bigint[], $15::int[], $16::boolean[])
			AS u(empresa_id, funcionario_id, jornada, horario, tipo, localizacao, nsr, hash, cpf, fuso, coletor, chave,
				local_id, distancia, fora)
		RETURNING id, empresa_id, nsr`
	moveChainsSQL = `UPDATE cadeias c SET ultimo_nsr = u.nsr, ultimo_hash = u.hash
		FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(empresa_id, nsr, hash)
		WHERE c.empresa_id = u.empresa_id`
)

func (pl *plan) write(ctx context.Context, conn *pgx.Conn) error {
	b := &pgx.Batch{}
	if len(pl.reps) > 0 {
		b.Queue(insertREPsSQL, append([]any{core.ResponsavelSistema}, pl.repColumns()...)...)
	}
	if len(pl.punches) > 0 {
		byNSR := make(map[[2]int64]*Row, len(pl.punches))
		for _, p := range pl.punches {
			byNSR[[2]int64{p.EmpresaID, *p.NSR}] = p.Row
		}
		b.Queue(insertPunchesSQL, append([]any{core.HashVersion}, pl.punchColumns()...)...).Query(
			func(rows pgx.Rows) error {
				var id, empresaID, nsr int64
				_, err := pgx.ForEachRow(rows, []any{&id, &empresaID, &nsr}, func() error {
					byNSR[[2]int64{empresaID, nsr}].ID = id
					return nil
				})
				return err
			})
		b.Queue(moveChainsSQL, pl.chainColumns()...)
	}
	b.Queue("COMMIT")
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("registro: insert: %w", err)
	}
	return nil
}

func (pl *plan) repColumns() []any {
	n := len(pl.reps)
	empresas, nsrs, funcionarios := make([]int64, n), make([]int64, n), make([]int64, n)
	operacoes, cpfs, nomes := make([]string, n), make([]string, n), make([]string, n)
	gravados, fusos := make([]time.Time, n), make([]int16, n)
	for i, r := range pl.reps {
		empresas[i], nsrs[i], funcionarios[i] = r.empresaID, r.nsr, r.funcionarioID
		operacoes[i], cpfs[i], nomes[i], gravados[i], fusos[i] = r.operacao, r.cpf, r.nome, r.gravadoEm, r.fuso
	}
	return []any{empresas, nsrs, funcionarios, operacoes, cpfs, nomes, gravados, fusos}
}

func (pl *plan) punchColumns() []any {
	n := len(pl.punches)
	empresas, funcionarios, nsrs := make([]int64, n), make([]int64, n), make([]int64, n)
	jornadas, horarios := make([]time.Time, n), make([]time.Time, n)
	tipos, localizacoes, hashes, cpfs := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	fusos, coletores, keys := make([]int16, n), make([]string, n), make([]*string, n)
	locals, distancias, foras := make([]*int64, n), make([]*int32, n), make([]*bool, n)
	for i, p := range pl.punches {
		empresas[i], funcionarios[i], nsrs[i], horarios[i] = p.EmpresaID, p.FuncionarioID, *p.NSR, p.HorarioRegistro
		jornadas[i], tipos[i], localizacoes[i], hashes[i] = p.Jornada, p.Tipo, *p.Localizacao, *p.Hash
		cpfs[i], fusos[i], coletores[i], keys[i] = p.cpf, p.fuso, p.coletor, p.key
		if g := p.local; g != nil {
			d := int32(g.DistanciaMetros)
			locals[i], distancias[i], foras[i] = &g.LocalTrabalhoID, &d, &g.Fora
		}
	}
	return []any{empresas, funcionarios, jornadas, horarios, tipos, localizacoes, nsrs, hashes, cpfs, fusos, coletores,
		keys, locals, distancias, foras}
}

func (pl *plan) chainColumns() []any {
	var empresas, nsrs []int64
	var hashes []string
	for id, h := range pl.heads {
		if h.moved {
			empresas, nsrs, hashes = append(empresas, id), append(nsrs, h.nsr), append(hashes, h.hash)
		}
	}
	return []any{empresas, nsrs, hashes}
}

// outcomes answers each call once the batch is committed (and the punches
// have their ids).
func (pl *plan) outcomes() []outcome {
	outs := make([]outcome, len(pl.calls))
	for i := range pl.calls {
		if err, ok := pl.gone[i]; ok {
			outs[i] = outcome{err: err}
			continue
		}
		if twin, ok := pl.twins[i]; ok {
			outs[i] = outcome{r: twin, replayed: true, twin: true}
			continue
		}
		outs[i] = outcome{r: *pl.punches[pl.of[i]].Row, earlier: pl.earlier[i], replayed: pl.replay[i]}
	}
	return outs
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
