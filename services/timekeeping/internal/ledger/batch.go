package ledger

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// errWorkdayChanged: the batch read a punch's workday and stamped it on
// the next.
var errWorkdayChanged = errors.New("ledger: the workday changed during the batch")

// commit writes calls in one transaction, again (rarely) when a workday
// boundary fell between reading the workday and stamping its punches.
// Calls whose request gave up by the time the chain heads are locked are
// answered with their context's error and left out.
func (s *Ledger) commit(ctx context.Context, calls []*call) ([]outcome, error) {
	for attempt := 0; ; attempt++ {
		outs, err := s.commitOnce(ctx, calls)
		if !errors.Is(err, errWorkdayChanged) || attempt == 2 {
			return outs, err
		}
	}
}

func (s *Ledger) commitOnce(ctx context.Context, calls []*call) (outs []outcome, err error) {
	conn, err := s.db.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("ledger: acquire: %w", err)
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
		c.jornada = core.Jornada(c.p.punchTime(now), c.p.Zone, c.p.Escala)
	}
	st, err := s.lock(ctx, conn.Conn(), calls)
	if err != nil {
		return nil, err
	}
	pl, err := s.plan(calls, st)
	if err != nil {
		return nil, err
	}
	if err := pl.write(ctx, conn.Conn()); err != nil {
		return nil, err
	}
	return pl.outcomes(), nil
}

// The batch's first round trip opens the transaction, takes (and locks,
// in chain order, so that batches never deadlock) the chain heads, and
// reads what each punch depends on.
const (
	// twinsSQL: the punches already made with the batch's Idempotency-Keys
	// (employees $1, keys $2), each after its key.
	twinsSQL = `SELECT k.chave, x.* FROM unnest($1::bigint[], $2::text[]) AS k(funcionario_id, chave)
		CROSS JOIN LATERAL (SELECT ` + PunchColumns + `
			WHERE p.funcionario_id = k.funcionario_id AND p.idempotency_key = k.chave) x`
	// lastREPsSQL: each employee's ($3) last AFD type-5 record in his
	// chain ($1 companies, $2 establishments).
	lastREPsSQL = `SELECT k.estabelecimento_id, k.funcionario_id, x.operacao = 'E', x.cpf, x.nome
		FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS k(empresa_id, estabelecimento_id, funcionario_id)
		CROSS JOIN LATERAL (SELECT operacao, cpf, nome FROM empregados_rep r
			WHERE r.funcionario_id = k.funcionario_id AND r.empresa_id = k.empresa_id
				AND r.estabelecimento_id = k.estabelecimento_id
			ORDER BY r.nsr DESC LIMIT 1) x`
	// latestSQL: each employee's ($1) latest punches ($3 at most) of his
	// workday ($2), newest first. Under the chain lock, every one of them
	// precedes the batch's punches.
	latestSQL = `SELECT x.* FROM unnest($1::bigint[], $2::date[]) AS k(funcionario_id, jornada)
		CROSS JOIN LATERAL (SELECT ` + PunchColumns + `
			WHERE p.funcionario_id = k.funcionario_id AND p.jornada = k.jornada
			ORDER BY p.nsr DESC LIMIT $3) x`
)

// state is what the first round trip read, by chain and employee.
type state struct {
	heads  map[Chain]*head
	twins  map[twinKey]Row
	reps   map[repKey]core.EmpregadoREP
	latest map[dayKey][]Row // oldest first
}

// dayKey is an employee's workday.
type dayKey struct {
	funcionarioID int64
	jornada       int // yyyymmdd
}

func keyOf(funcionarioID int64, jornada time.Time) dayKey {
	y, m, d := jornada.Date()
	return dayKey{funcionarioID, y*10000 + int(m)*100 + d}
}

func compareDays(a, b dayKey) int {
	return cmp.Or(cmp.Compare(a.funcionarioID, b.funcionarioID), cmp.Compare(a.jornada, b.jornada))
}

type head struct {
	core.Head
	// moved is true once the batch gave the chain an NSR.
	moved bool
}

type twinKey struct {
	funcionarioID int64
	key           string
}

// repKey is an employee in an establishment's chain.
type repKey struct{ estabelecimentoID, funcionarioID int64 }

func (s *Ledger) lock(ctx context.Context, conn *pgx.Conn, calls []*call) (state, error) {
	var chains []Chain
	var funcionarios, keyFuncionarios, repEmpresas, repEstabs, repFuncionarios []int64
	var keys []string
	var jornadas []time.Time
	seen := make(map[dayKey]bool, len(calls))
	seenRep := make(map[repKey]bool, len(calls))
	for _, c := range calls {
		chains = append(chains, c.p.chain())
		if k := keyOf(c.p.FuncionarioID, c.jornada); !seen[k] {
			seen[k] = true
			funcionarios = append(funcionarios, c.p.FuncionarioID)
			jornadas = append(jornadas, c.jornada)
		}
		if k := (repKey{c.p.EstabelecimentoID, c.p.FuncionarioID}); !seenRep[k] {
			seenRep[k] = true
			repEmpresas = append(repEmpresas, c.p.EmpresaID)
			repEstabs, repFuncionarios = append(repEstabs, k.estabelecimentoID), append(repFuncionarios, k.funcionarioID)
		}
		if c.p.IdempotencyKey != nil {
			keyFuncionarios, keys = append(keyFuncionarios, c.p.FuncionarioID), append(keys, *c.p.IdempotencyKey)
		}
	}
	empresas, estabelecimentos := lockArgs(chains)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(lockSQL, empresas, estabelecimentos)
	if len(keys) > 0 {
		b.Queue(twinsSQL, keyFuncionarios, keys)
	}
	b.Queue(lastREPsSQL, repEmpresas, repEstabs, repFuncionarios)
	b.Queue(latestSQL, funcionarios, jornadas, MaxEarlier)
	br := conn.SendBatch(ctx, b)
	st, err := readLock(br, len(keys) > 0)
	if cerr := br.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("ledger: chain heads: %w", cerr)
	}
	return st, err
}

func readLock(br pgx.BatchResults, withKeys bool) (state, error) {
	st := state{heads: map[Chain]*head{}, twins: map[twinKey]Row{}, reps: map[repKey]core.EmpregadoREP{}}
	if _, err := br.Exec(); err != nil {
		return st, fmt.Errorf("ledger: begin: %w", err)
	}
	rows, _ := br.Query()
	var c Chain
	var nsr int64
	var hash *string
	if _, err := pgx.ForEachRow(rows, []any{&c.EmpresaID, &c.EstabelecimentoID, &nsr, &hash}, func() error {
		st.heads[c] = &head{Head: core.Head{NSR: nsr, Hash: deref(hash)}}
		return nil
	}); err != nil {
		return st, fmt.Errorf("ledger: chain heads: %w", err)
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
			return st, fmt.Errorf("ledger: by idempotency key: %w", err)
		}
	}
	rows, _ = br.Query()
	var k repKey
	var r core.EmpregadoREP
	if _, err := pgx.ForEachRow(rows, []any{&k.estabelecimentoID, &k.funcionarioID, &r.Excluido, &r.CPF, &r.Nome}, func() error {
		r.Conhecido = true
		st.reps[k] = r
		return nil
	}); err != nil {
		return st, fmt.Errorf("ledger: REP employees: %w", err)
	}
	rows, _ = br.Query()
	latest, err := collectRows(rows)
	if err != nil {
		return st, fmt.Errorf("ledger: earlier: %w", err)
	}
	st.latest = byEmployee(latest)
	return st, nil
}

// byEmployee gives each employee's workday its rows of latest (each
// one's newest first), oldest first, as a part of latest itself: a batch reads
// up to MaxEarlier rows an employee, and copying them once more per
// employee was the batch's largest allocation (docs/performance.md).
// latestSQL returns an employee's rows together; SQL promises nothing of
// the order across its lateral join, so rows that come apart are put
// together first, by a stable sort that keeps each employee's order.
func byEmployee(latest []Row) map[dayKey][]Row {
	out := make(map[dayKey][]Row)
	for start := 0; start < len(latest); {
		f := keyOf(latest[start].FuncionarioID, latest[start].Jornada)
		end := start + 1
		for end < len(latest) && keyOf(latest[end].FuncionarioID, latest[end].Jornada) == f {
			end++
		}
		if _, apart := out[f]; apart {
			slices.SortStableFunc(latest, func(a, b Row) int {
				return compareDays(keyOf(a.FuncionarioID, a.Jornada), keyOf(b.FuncionarioID, b.Jornada))
			})
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
	heads   map[Chain]*head
}

// toInsert is a punch to insert: its row and what the row does not keep.
type toInsert struct {
	*Row
	estabelecimentoID int64
	cpf               string
	fuso              int16
	coletor           string
	key               *string
	local             *Geofence
	offline           *Offline
}

type repRecord struct {
	chain               Chain
	nsr, funcionarioID  int64
	operacao, cpf, nome string
	gravadoEm           time.Time
	fuso                int16
}

// plan stamps, numbers, types and chains the batch's punches under the
// locks taken: core.PlanBatida decides each, in arrival order. A key used
// twice in one batch makes the second a replay of the first.
func (s *Ledger) plan(calls []*call, st state) (*plan, error) {
	pl := &plan{calls: calls, heads: st.heads, twins: map[int]Row{}, gone: map[int]error{},
		of: make([]int, len(calls)), earlier: make([][]*Row, len(calls)), replay: make([]bool, len(calls))}
	day := make(map[dayKey][]*Row, len(st.latest)) // each employee's punches of the workday so far
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
		if err := pl.add(i, s.clock.Now(), st, day); err != nil {
			return nil, err
		}
	}
	return pl, nil
}

// add plans call i's punch, recorded at now.
func (pl *plan) add(i int, now time.Time, st state, day map[dayKey][]*Row) error {
	c := pl.calls[i]
	p := c.p
	horario := p.punchTime(now)
	jornada := core.Jornada(horario, p.Zone, p.Escala)
	if !jornada.Equal(c.jornada) {
		return errWorkdayChanged
	}
	h := st.heads[p.chain()]
	if h == nil {
		return fmt.Errorf("ledger: no chain head for %v", p.chain())
	}
	offset := core.Offset(horario, p.Zone)
	rk := repKey{p.EstabelecimentoID, p.FuncionarioID}
	e := st.reps[rk]
	dk := keyOf(p.FuncionarioID, jornada)
	before := day[dk]
	last := ""
	if len(before) > 0 {
		last = before[len(before)-1].Tipo
	}
	bt := core.Batida{FuncionarioID: p.FuncionarioID, CPF: p.CPF, Nome: p.Nome, Horario: horario,
		OffsetMinutes: offset, Coletor: p.Coletor}
	if p.Offline != nil {
		bt.Gravacao, bt.OffLine = now, true
	}
	b, err := core.PlanBatida(&h.Head, &e, last, bt)
	if err != nil {
		return err
	}
	if p.Offline != nil || anyOffline(before) {
		b.Tipo = core.TipoNaOrdem(punchTimes(before), horario) // its place in punch-time order
	}
	h.moved, st.reps[rk] = true, e
	if b.Operacao != "" {
		pl.reps = append(pl.reps, repRecord{chain: p.chain(), nsr: b.NSR - 1, funcionarioID: p.FuncionarioID,
			operacao: b.Operacao, cpf: e.CPF, nome: p.Nome, gravadoEm: now, fuso: int16(offset)})
	}
	nsr, hash, loc := b.NSR, b.Hash, p.Localizacao
	r := &Row{EmpresaID: p.EmpresaID, FuncionarioID: p.FuncionarioID, Jornada: jornada, HorarioRegistro: horario,
		Tipo: b.Tipo, Localizacao: &loc, NSR: &nsr, Hash: &hash}
	pl.of[i], pl.earlier[i] = len(pl.punches), before[max(0, len(before)-MaxEarlier):]
	ins := toInsert{Row: r, estabelecimentoID: p.EstabelecimentoID, cpf: core.CPF12(p.CPF),
		fuso: int16(offset), coletor: p.Coletor, key: p.IdempotencyKey, local: p.Local}
	if p.Offline != nil {
		r.Gravacao = &now
		ins.offline = p.Offline
	}
	pl.punches = append(pl.punches, ins)
	day[dk] = append(before[:len(before):len(before)], r)
	return nil
}

// anyOffline reports whether a late punch joined the workday: then the
// labels may not alternate in NSR order, and a punch's tipo is its place
// in punch-time order.
func anyOffline(rows []*Row) bool {
	for _, r := range rows {
		if r.Gravacao != nil {
			return true
		}
	}
	return false
}

func punchTimes(rows []*Row) []time.Time {
	out := make([]time.Time, len(rows))
	for i, r := range rows {
		out[i] = r.HorarioRegistro
	}
	return out
}
