package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/clock/clocktest"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
)

// The chain audit verifies what was written since its last run, and flags
// a chain broken on purpose through the owner role: in the metric, in
// the log (company and NSR) and on the company's own route.
func TestChainAudit(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	_, o := e.outsider()
	punchTwoChains(e, w, o)
	logs := &logtest.Buffer{}
	a := chainaudit.New(e.db, slog.New(slog.NewJSONHandler(logs, nil)), clock.New(time.Now), chainaudit.Limits{})

	r := e.pub("GET", "/registropontos/cadeia", c.token, nil)
	want(t, r, 200)
	if got := r.obj(t); got["verificadoEm"] != nil || got["integra"] != true {
		t.Fatalf("before the first audit: %v", got)
	}
	res, err := a.Once(t.Context())
	// Company 1: the type-5 inclusion and 3 punches; company 2: 2 records.
	if err != nil || res.Companies != 2 || res.Records != 6 || res.Broken != 0 {
		t.Fatalf("first run %+v, %v", res, err)
	}
	got := e.pub("GET", "/registropontos/cadeia", c.token, nil).obj(t)
	if got["ultimoNsrVerificado"] != float64(4) || got["integra"] != true || got["verificadoEm"] == nil {
		t.Fatalf("after the audit: %v", got)
	}
	// Incremental: only what was written since is read.
	e.punch(w, local(2026, 3, 9, 12, 0))
	if res, err = a.Once(t.Context()); err != nil || res.Companies != 1 || res.Records != 1 {
		t.Fatalf("second run %+v, %v", res, err)
	}
	if res, err = a.Once(t.Context()); err != nil || res.Companies != 0 || res.Records != 0 {
		t.Fatalf("a run with nothing new %+v, %v", res, err)
	}

	// The owner can still bypass the append-only triggers: the audit
	// catches what it does.
	e.punch(w, local(2026, 3, 9, 13, 0))
	e.punch(w, local(2026, 3, 9, 17, 0))
	if _, err := dbtest.AsOwner(t, e.dbURL).Exec(t.Context(), `ALTER TABLE registros_ponto DISABLE TRIGGER USER;
		UPDATE registros_ponto SET horario_registro = horario_registro - interval '1 hour' WHERE empresa_id = 1 AND nsr = 6;
		ALTER TABLE registros_ponto ENABLE TRIGGER USER`); err != nil {
		t.Fatal(err)
	}
	if res, err = a.Once(t.Context()); err != nil || res.Broken != 1 {
		t.Fatalf("run over the tampered record %+v, %v", res, err)
	}
	if v := testutil.ToFloat64(a.Collectors()[0]); v != 1 {
		t.Fatalf("ponto_chain_broken_companies = %v", v)
	}
	got = e.pub("GET", "/registropontos/cadeia", c.token, nil).obj(t)
	if got["integra"] != false || got["nsrQuebra"] != float64(6) || got["ultimoNsrVerificado"] != float64(5) {
		t.Fatalf("after the break: %v", got)
	}
	if !strings.Contains(logs.String(), `"empresaId":1`) || !strings.Contains(logs.String(), `"nsr":6`) {
		t.Fatalf("the break is not logged with its company and NSR:\n%s", logs)
	}
	// The other company's chain is its own, and intact.
	other := e.pub("GET", "/registropontos/cadeia", e.company(2).token, nil).obj(t)
	if other["integra"] != true || other["ultimoNsrVerificado"] != float64(2) {
		t.Fatalf("the other company: %v", other)
	}
	wantErr(t, e.pub("GET", "/registropontos/cadeia", w.token, nil), 403, "acesso_negado")
}

// A run goes in slices, each saving how far it got: a gap at a slice's
// end is a break like any other, and a run cut short between slices
// (here by its rate, whose wait would outlast the context) keeps the
// slices it verified.
func TestChainAuditSlices(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	for i := range 5 {
		e.punch(w, local(2026, 3, 9, 8+i, 0))
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	clk := clock.New(time.Now)
	audited := func() map[string]any { return e.pub("GET", "/registropontos/cadeia", c.token, nil).obj(t) }

	// One record every 1,000 seconds, two per slice: the first slice
	// (the type-5 inclusion and the first punch) is paid by the burst,
	// the second (NSR 3–4) is verified, and the wait it then owes is
	// longer than the context allows.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if _, err := chainaudit.New(e.db, quiet, clk, chainaudit.Limits{Slice: 2, Rate: 0.001}).Once(ctx); err == nil {
		t.Fatal("a run whose pace outlasts its context ended without an error")
	}
	if got := audited(); got["ultimoNsrVerificado"] != float64(4) || got["integra"] != true {
		t.Fatalf("after two slices: %v", got)
	}

	// Unpaced, the rest (NSR 5–6) in one more slice.
	a := chainaudit.New(e.db, quiet, clk, chainaudit.Limits{Slice: 2})
	if res, err := a.Once(t.Context()); err != nil || res.Records != 2 || res.Broken != 0 {
		t.Fatalf("the rest %+v, %v", res, err)
	}
	if got := audited(); got["ultimoNsrVerificado"] != float64(6) || got["integra"] != true {
		t.Fatalf("after every slice: %v", got)
	}

	// NSR 8 removed: the slice 7–8 (the head is 9) ends short of it.
	e.punch(w, local(2026, 3, 9, 14, 0))
	e.punch(w, local(2026, 3, 9, 15, 0))
	e.punch(w, local(2026, 3, 9, 16, 0))
	if _, err := dbtest.AsOwner(t, e.dbURL).Exec(t.Context(), `ALTER TABLE registros_ponto DISABLE TRIGGER USER;
		DELETE FROM registros_ponto WHERE empresa_id = 1 AND nsr = 8;
		ALTER TABLE registros_ponto ENABLE TRIGGER USER`); err != nil {
		t.Fatal(err)
	}
	if res, err := a.Once(t.Context()); err != nil || res.Broken != 1 || res.Records != 1 {
		t.Fatalf("run over the gap %+v, %v", res, err)
	}
	if got := audited(); got["integra"] != false || got["nsrQuebra"] != float64(8) || got["ultimoNsrVerificado"] != float64(7) {
		t.Fatalf("after the gap: %v", got)
	}
}

// Every Limits.Review the audit verifies again the records behind each
// checkpoint, from NSR 1: a record changed there by the owner, which the
// incremental audit never reads again, is found then, and an intact chain
// is left as it was, its next review a period away.
func TestChainAuditReview(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, o := e.outsider()
	punchTwoChains(e, w, o)
	now := &clocktest.Source{}
	now.Set(time.Now())
	const review = 24 * time.Hour
	a := chainaudit.New(e.db, slog.New(slog.NewTextHandler(io.Discard, nil)), clock.New(now.Now),
		chainaudit.Limits{Slice: 2, Review: review})
	audited := func(token string) map[string]any { return e.pub("GET", "/registropontos/cadeia", token, nil).obj(t) }

	// The first audit reads every record: it is the first review too.
	if res, err := a.Once(t.Context()); err != nil || res.Records != 6 || res.Reviewed != 0 || res.Broken != 0 {
		t.Fatalf("first run %+v, %v", res, err)
	}
	if _, err := dbtest.AsOwner(t, e.dbURL).Exec(t.Context(), `ALTER TABLE registros_ponto DISABLE TRIGGER USER;
		UPDATE registros_ponto SET horario_registro = horario_registro + interval '10 minutes' WHERE empresa_id = 1 AND nsr = 2;
		ALTER TABLE registros_ponto ENABLE TRIGGER USER`); err != nil {
		t.Fatal(err)
	}
	if res, err := a.Once(t.Context()); err != nil || res.Companies != 0 || res.Broken != 0 {
		t.Fatalf("a run before the review is due %+v, %v", res, err)
	}
	if got := audited(c.token); got["integra"] != true {
		t.Fatalf("before the review: %v", got)
	}

	now.Set(now.Now().Add(review + time.Minute))
	res, err := a.Once(t.Context())
	// Company 1's review stops at NSR 2; company 2's reads both records.
	if err != nil || res.Companies != 2 || res.Records != 0 || res.Reviewed != 3 || res.Broken != 1 {
		t.Fatalf("the review %+v, %v", res, err)
	}
	if got := audited(c.token); got["integra"] != false || got["nsrQuebra"] != float64(2) || got["ultimoNsrVerificado"] != float64(4) {
		t.Fatalf("after the review found the change: %v", got)
	}
	if got := audited(other.token); got["integra"] != true || got["ultimoNsrVerificado"] != float64(2) {
		t.Fatalf("the intact chain after its review: %v", got)
	}
	if v := testutil.ToFloat64(a.Collectors()[0]); v != 1 {
		t.Fatalf("ponto_chain_broken_companies = %v", v)
	}
	// Reviewed, company 2 is not due again for a period; company 1 stays
	// flagged.
	if res, err := a.Once(t.Context()); err != nil || res.Companies != 0 || res.Reviewed != 0 || res.Broken != 1 {
		t.Fatalf("the run after the review %+v, %v", res, err)
	}
}

// punchTwoChains gives w's company three punches and o's one: with each
// employee's type-5 inclusion, chains of four records and two.
func punchTwoChains(e *env, w, o worker) {
	for i := range 3 {
		e.punch(w, local(2026, 3, 9, 8+i, 0))
	}
	e.punch(o, local(2026, 3, 9, 8, 0))
}
