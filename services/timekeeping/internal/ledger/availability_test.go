package ledger_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/clock/clocktest"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/disponibilidade"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// Punches refused because the database cannot be reached make an outage;
// when writes succeed again after the threshold, each company whose
// punches were refused gets AFD type-6 records 08 (at the first refusal)
// and 07 (at the recovery), once, however many replicas saw it. A blip
// under the threshold writes nothing.
func TestOutageRecordedAsType6(t *testing.T) {
	ctx := context.Background()
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	punch := func(empresaID, funcionarioID int64) ledger.Marcacao {
		return ledger.Marcacao{EmpresaID: empresaID, FuncionarioID: funcionarioID, CPF: "123.456.789-09", Nome: "Ana",
			Localizacao: "-23.5, -46.6", Coletor: core.ColetorMobile, Zone: sp}
	}
	db := dbtest.New(t, os.DirFS("../../migrations"))
	// Nothing listens on port 1: a real refused connection.
	down, err := pgxpool.New(ctx, "postgres://postgres@127.0.0.1:1/ponto?connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(down.Close)
	clk := &clocktest.Source{}
	zone := func(context.Context, int64) (*time.Location, error) { return sp, nil }
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	replica := func() (*ledger.Ledger, *ledger.Ledger, *disponibilidade.Monitor) {
		m := disponibilidade.NewMonitor(time.Minute, disponibilidade.NewStore(db, zone), quiet)
		bad, good := ledger.New(down, clock.New(clk.Now)), ledger.New(db, clock.New(clk.Now))
		bad.WatchAvailability(m)
		good.WatchAvailability(m)
		return bad, good, m
	}
	bad, good, m := replica()
	count := func() (n int) {
		if err := db.QueryRow(ctx, `SELECT count(*) FROM eventos_rep`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	t0 := time.Date(2026, 3, 9, 11, 0, 0, 0, time.UTC)

	// A 30-second blip: nothing recorded.
	clk.Set(t0)
	if _, _, _, err := bad.ClockIn(ctx, punch(1, 10)); err == nil {
		t.Fatal("a punch was written through an unreachable database")
	}
	clk.Set(t0.Add(30 * time.Second))
	if _, _, _, err := good.ClockIn(ctx, punch(1, 10)); err != nil {
		t.Fatal(err)
	}
	m.Wait()
	if n := count(); n != 0 {
		t.Fatalf("a 30 s blip wrote %d type-6 records", n)
	}

	// A 2-minute outage refusing punches of companies 1 and 2.
	t1 := t0.Add(time.Hour)
	clk.Set(t1)
	_, _, _, _ = bad.ClockIn(ctx, punch(1, 10))
	clk.Set(t1.Add(20 * time.Second))
	_, _, _, _ = bad.ClockIn(ctx, punch(2, 20))
	// Another replica saw the same outage a little later.
	bad2, good2, m2 := replica()
	_, _, _, _ = bad2.ClockIn(ctx, punch(2, 20))
	clk.Set(t1.Add(2 * time.Minute))
	if _, _, _, err := good.ClockIn(ctx, punch(3, 30)); err != nil {
		t.Fatal(err)
	}
	m.Wait()
	clk.Set(t1.Add(3 * time.Minute))
	if _, _, _, err := good2.ClockIn(ctx, punch(3, 30)); err != nil {
		t.Fatal(err)
	}
	m2.Wait()
	rows, err := db.Query(ctx, `SELECT empresa_id, nsr, codigo, gravado_em, fuso_minutos FROM eventos_rep ORDER BY empresa_id, nsr`)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		empresa, nsr int64
		codigo       string
		at           time.Time
		fuso         int
	}
	var got []rec
	for rows.Next() {
		var r rec
		if err := rows.Scan(&r.empresa, &r.nsr, &r.codigo, &r.at, &r.fuso); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	up := t1.Add(2 * time.Minute)
	want := []rec{{1, 3, "08", t1, -180}, {1, 4, "07", up, -180}, {2, 1, "08", t1, -180}, {2, 2, "07", up, -180}}
	if len(got) != len(want) {
		t.Fatalf("type-6 records %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].empresa != want[i].empresa || got[i].nsr != want[i].nsr || got[i].codigo != want[i].codigo ||
			!got[i].at.Equal(want[i].at) || got[i].fuso != want[i].fuso {
			t.Errorf("record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	res, err := chainaudit.New(db, quiet, clock.New(time.Now), chainaudit.Limits{}).Once(ctx)
	if err != nil || res.Broken != 0 {
		t.Fatalf("chains after the outage: %+v, %v", res, err)
	}
}
