package ledger

import (
	"context"
	"errors"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/clock/clocktest"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/services/timekeeping/core"
)

func newStore(t *testing.T, times ...time.Time) *Ledger {
	t.Helper()
	zone, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	db := dbtest.New(t, os.DirFS("../../migrations"))
	testZone = zone
	var src clocktest.Source
	src.Set(times...)
	return New(db, clock.New(src.Now))
}

// testZone is the zone of the punches newStore's tests make.
var testZone *time.Location

func punch(empresaID, funcionarioID int64) Marcacao {
	return Marcacao{EmpresaID: empresaID, FuncionarioID: funcionarioID, CPF: "123.456.789-09", Nome: "Ana",
		Localizacao: "-23.5, -46.6", Coletor: core.ColetorMobile, Zone: testZone}
}

// The first batch counts the workday of the moment it is sent; when the
// lock comes after midnight, the punch belongs to the new day, counted
// again under the lock.
func TestClockInAcrossMidnightCountsTheNewWorkday(t *testing.T) {
	sp := func(d, h, m, s int) time.Time { return time.Date(2024, 3, d, h, m, s, 0, time.FixedZone("", -3*3600)) }
	s := newStore(t,
		sp(4, 8, 0, 0), sp(4, 8, 0, 0), // an entrada on the 4th (batch, stamp)
		sp(4, 23, 59, 59), sp(5, 0, 0, 1)) // batch sent on the 4th, stamped on the 5th
	ctx := t.Context()
	first, _, _, err := s.ClockIn(ctx, punch(1, 10))
	if err != nil || first.Tipo != core.TipoEntrada {
		t.Fatalf("first punch: %+v, %v", first, err)
	}
	r, earlier, replayed, err := s.ClockIn(ctx, punch(1, 10))
	if err != nil || replayed {
		t.Fatal(err, replayed)
	}
	if got := r.Jornada.Format(time.DateOnly); got != "2024-03-05" || r.Tipo != core.TipoEntrada || len(earlier) != 0 {
		t.Fatalf("after midnight: workday %s, tipo %q, %d earlier punches; want 2024-03-05, entrada, none",
			got, r.Tipo, len(earlier))
	}
	// NSR 1 is the employee's type-5 inclusion, then the two punches.
	if *first.NSR != 2 || *r.NSR != 3 {
		t.Fatalf("NSRs %d and %d, want 2 and 3", *first.NSR, *r.NSR)
	}
}

// A punch waiting for its company's turn gives up with its request, and
// is not written once its batch gets the chain head.
func TestClockInWaitingForTheCompanyEndsWithTheRequest(t *testing.T) {
	s := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	ctx := t.Context()
	// Another replica holds company 1's chain head.
	other, err := s.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Rollback(ctx) }()
	if _, err := other.Exec(ctx, `INSERT INTO cadeias (empresa_id) VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, _, _, err := s.ClockIn(short, punch(1, 10)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the request's deadline", err)
	}
	if err := other.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	r, _, _, err := s.ClockIn(ctx, punch(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT count(*) FROM registros_ponto WHERE empresa_id = 1`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("company 1 has %d punches (%v), want 1", n, err)
	}
	if r.Tipo != core.TipoEntrada || *r.NSR != 2 {
		t.Fatalf("the punch is %s with NSR %d, want the day's entrada after the type-5 record", r.Tipo, *r.NSR)
	}
}

// newCall is a punch queued as ClockIn queues it.
func newCall(ctx context.Context, p Marcacao) *call {
	return &call{ctx: ctx, p: p, done: make(chan outcome, 1)}
}

func withKey(p Marcacao, key string) Marcacao { p.IdempotencyKey = &key; return p }

// One batch numbers and chains its punches in arrival order, over
// companies and employees, gives each employee's type-5 record its NSR
// before his first punch, types a second punch of the same employee after
// the first, and makes a key used twice one punch.
func TestBatchNumbersChainsAndTypesInArrivalOrder(t *testing.T) {
	s := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	ctx := t.Context()
	calls := []*call{
		newCall(ctx, withKey(punch(1, 10), "k1")),
		newCall(ctx, punch(2, 20)),
		newCall(ctx, withKey(punch(1, 10), "k1")), // the same request again
		newCall(ctx, punch(1, 11)),
		newCall(ctx, punch(1, 10)),
	}
	s.record(calls)
	outs := make([]outcome, len(calls))
	for i, c := range calls {
		outs[i] = <-c.done
		if outs[i].err != nil {
			t.Fatalf("call %d: %v", i, outs[i].err)
		}
	}
	type want struct {
		nsr      int64
		tipo     string
		replayed bool
		earlier  int
	}
	for i, w := range []want{{2, core.TipoEntrada, false, 0}, {2, core.TipoEntrada, false, 0}, {2, core.TipoEntrada, true, 0},
		{4, core.TipoEntrada, false, 0}, {5, core.TipoAlmoco, false, 1}} {
		o := outs[i]
		if *o.r.NSR != w.nsr || o.r.Tipo != w.tipo || o.replayed != w.replayed || len(o.earlier) != w.earlier || o.r.ID == 0 {
			t.Errorf("call %d: id %d, NSR %d, %s, replayed %v, %d earlier; want NSR %d, %s, replayed %v, %d earlier",
				i, o.r.ID, *o.r.NSR, o.r.Tipo, o.replayed, len(o.earlier), w.nsr, w.tipo, w.replayed, w.earlier)
		}
	}
	if outs[2].r.ID != outs[0].r.ID || outs[4].earlier[0].ID != outs[0].r.ID {
		t.Errorf("the replay or the earlier punch is not the first punch")
	}
	verifyChains(t, s, map[Chain]int64{Principal(1): 5, Principal(2): 2})
}

// PostgreSQL refusing one punch (a name it cannot store) fails that punch
// alone: the rest of its batch is written.
func TestBatchRefusedPunchFailsAlone(t *testing.T) {
	s := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	ctx := t.Context()
	bad := punch(1, 11)
	bad.Nome = "A\x00"
	calls := []*call{newCall(ctx, punch(1, 10)), newCall(ctx, bad), newCall(ctx, punch(1, 12))}
	s.record(calls)
	for i, c := range calls {
		o := <-c.done
		if (o.err != nil) != (i == 1) {
			t.Errorf("call %d: err = %v", i, o.err)
		}
	}
	verifyChains(t, s, map[Chain]int64{Principal(1): 4})
}

// Many clock-ins at once, of one company and of several, in batches as
// they come: NSRs gapless, every hash chained to the previous record, the
// chain head on the last one, each employee's workday in sequence.
func TestConcurrentClockInsKeepEveryChain(t *testing.T) {
	s := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	ctx := t.Context()
	const empresas, funcionarios, punches = 3, 8, 6
	var wg sync.WaitGroup
	errs := make(chan error, empresas*funcionarios*punches)
	for e := int64(1); e <= empresas; e++ {
		for f := int64(1); f <= funcionarios; f++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range punches {
					if _, _, _, err := s.ClockIn(ctx, punch(e, e*100+f)); err != nil {
						errs <- err
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	verifyChains(t, s, map[Chain]int64{Principal(1): funcionarios * (punches + 1),
		Principal(2): funcionarios * (punches + 1), Principal(3): funcionarios * (punches + 1)})
	seen := map[int64]int{}
	rows, _ := s.db.Query(ctx, `SELECT funcionario_id, tipo FROM registros_ponto ORDER BY funcionario_id, nsr`)
	var f int64
	var tipo string
	if _, err := pgx.ForEachRow(rows, []any{&f, &tipo}, func() error {
		if want := core.NextTipo(seen[f]); tipo != want {
			t.Errorf("employee %d punch %d: %s, want %s", f, seen[f]+1, tipo, want)
		}
		seen[f]++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// verifyChains checks each chain's records (types 2, 5, 6 and punches):
// NSRs 1..want gapless, each punch's hash recomputed from its fields and
// the previous punch's hash, and the chain head on the last.
func verifyChains(t *testing.T, s *Ledger, want map[Chain]int64) {
	t.Helper()
	ctx := t.Context()
	for chain, n := range want {
		rows, _ := s.db.Query(ctx, `SELECT nsr, horario_registro, fuso_minutos, cpf, coletor, hash::text FROM registros_ponto
				WHERE empresa_id = $1 AND estabelecimento_id = $2
			UNION ALL SELECT nsr, gravado_em, fuso_minutos, cpf, NULL, NULL FROM empregados_rep
				WHERE empresa_id = $1 AND estabelecimento_id = $2
			UNION ALL SELECT nsr, gravado_em, fuso_minutos, '', NULL, NULL FROM empresas_rep
				WHERE empresa_id = $1 AND estabelecimento_id = $2
			UNION ALL SELECT nsr, gravado_em, fuso_minutos, '', NULL, NULL FROM eventos_rep
				WHERE empresa_id = $1 AND estabelecimento_id = $2
			ORDER BY 1`, chain.EmpresaID, chain.EstabelecimentoID)
		var nsr int64
		var at time.Time
		var fuso int
		var cpf string
		var coletor, hash *string
		anterior, last := "", int64(0)
		if _, err := pgx.ForEachRow(rows, []any{&nsr, &at, &fuso, &cpf, &coletor, &hash}, func() error {
			if nsr != last+1 {
				t.Errorf("chain %v: NSR %d after %d", chain, nsr, last)
			}
			last = nsr
			if hash == nil {
				return nil // a type-5 record
			}
			got, err := core.Hash(core.Marcacao{NSR: nsr, Horario: at, OffsetMinutes: fuso, CPF: cpf, Coletor: *coletor}, anterior)
			if err != nil || got != *hash {
				t.Errorf("chain %v NSR %d: hash %s, recomputed %s (%v)", chain, nsr, *hash, got, err)
			}
			anterior = *hash
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if last != n {
			t.Errorf("chain %v: %d records, want %d", chain, last, n)
		}
		var headNSR int64
		var headHash string
		if err := s.db.QueryRow(ctx, `SELECT ultimo_nsr, coalesce(ultimo_hash::text, '') FROM cadeias
			WHERE empresa_id = $1 AND estabelecimento_id = $2`,
			chain.EmpresaID, chain.EstabelecimentoID).Scan(&headNSR, &headHash); err != nil || headNSR != last || headHash != anterior {
			t.Errorf("chain %v: chain head %d %s (%v), want %d %s", chain, headNSR, headHash, err, last, anterior)
		}
	}
}

// collectRows reads the same rows as pgx.CollectRows with ScanRow, each
// with values of its own: a NULL after a value, or a value after a NULL,
// in the one set of destinations it scans through, and a second read
// reusing the pooled scratch slice, leave the first read's rows as read.
func TestCollectRowsGivesEachRowItsOwnValues(t *testing.T) {
	s := newStore(t)
	const sql = `SELECT * FROM (VALUES
		(1::bigint, 7::bigint, 42::bigint, '2026-11-24'::date, '2026-11-24 08:00-03'::timestamptz, 'entrada'::text,
			'-23.5,-46.6'::text, 1::bigint, 'aa'::text, 'aprovado'::text, '2026-11-24 12:00-03'::timestamptz, 'esqueci'::text,
			'2026-11-24 09:00-03'::timestamptz),
		(2, 7, 42, '2026-11-24', '2026-11-24 12:00-03', 'saida', NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(3, 7, 43, '2026-11-25', '2026-11-25 08:00-03', 'falta', 'x', 3, 'cc', 'pendente', '2026-11-25 09:00-03', 'm',
			NULL)
	) AS v ORDER BY 1 LIMIT $1`
	want, err := pgx.CollectRows(mustQuery(t, s, sql, 3), ScanRow)
	if err != nil {
		t.Fatal(err)
	}
	got, err := collectRows(mustQuery(t, s, sql, 3))
	if err != nil {
		t.Fatal(err)
	}
	again, err := collectRows(mustQuery(t, s, sql, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || len(got) != 3 || cap(got) != 3 {
		t.Fatalf("collectRows: %+v (cap %d)\nwant %+v", got, cap(got), want)
	}
	if !reflect.DeepEqual(again, want[:1]) || got[0].Localizacao == again[0].Localizacao {
		t.Fatalf("second read: %+v, sharing the first's values: %v", again, got[0].Localizacao == again[0].Localizacao)
	}
	if none, err := collectRows(mustQuery(t, s, sql, 0)); err != nil || len(none) != 0 {
		t.Fatalf("no rows: %v, %v", none, err)
	}
}

func mustQuery(t *testing.T, s *Ledger, sql string, args ...any) pgx.Rows {
	t.Helper()
	rows, err := s.db.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
