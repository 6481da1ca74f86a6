package outbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/outbox/outboxtest"
)

// tables are the two tables as the services' migrations create them.
const tables = `-- +goose Up
CREATE TABLE outbox_sequencias (
    empresa_id bigint PRIMARY KEY,
    ultima     bigint NOT NULL CHECK (ultima > 0)
);
CREATE TABLE outbox_eventos (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id  bigint      NOT NULL,
    sequencia   bigint      NOT NULL CHECK (sequencia > 0),
    tipo        text        NOT NULL,
    dados       jsonb       NOT NULL,
    ocorrido_em timestamptz NOT NULL,
    enviado_em  timestamptz,
    tentativas  integer     NOT NULL DEFAULT 0,
    UNIQUE (empresa_id, sequencia)
);
INSERT INTO table_access (table_name, access) VALUES ('outbox_sequencias', 'read_write'), ('outbox_eventos', 'read_write');
-- +goose Down
DROP TABLE outbox_eventos;
DROP TABLE outbox_sequencias;
`

func newDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	return dbtest.New(t, fstest.MapFS{"00001_outbox.sql": {Data: []byte(tables)}})
}

func config(url string) outbox.Config {
	return outbox.Config{URL: url, PollInterval: 10 * time.Millisecond, BackoffMin: time.Nanosecond,
		BackoffMax: time.Nanosecond, Timeout: 2 * time.Second, Batch: 3}
}

// newRelay is employee's relay delivering to rcv in process.
func newRelay(t *testing.T, db *pgxpool.Pool, rcv outbox.Sender) (*outbox.Relay, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	r := outbox.NewRelay(db, "employee", config("http://timekeeping.test"), rcv, slog.New(slog.DiscardHandler))
	reg.MustRegister(r.Collectors()...)
	return r, reg
}

// funcionario is an employee event's payload.
type funcionario struct {
	ID   int64  `json:"id"`
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
}

// Event types the tests write.
const (
	incluido = "funcionario.incluido"
	alterado = "funcionario.alterado"
	excluido = "funcionario.excluido"
)

func payload(f funcionario) map[string]any { return map[string]any{"funcionario": f} }

func enqueue(t *testing.T, db *pgxpool.Pool, empresaID int64, tipo string, f funcionario) {
	t.Helper()
	err := pgx.BeginFunc(t.Context(), db, func(tx pgx.Tx) error {
		return outbox.Enqueue(t.Context(), tx, empresaID, tipo, payload(f))
	})
	if err != nil {
		t.Fatal(err)
	}
}

func pass(t *testing.T, r *outbox.Relay) {
	t.Helper()
	if err := r.Pass(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// metric reads one series of reg: the gauge or counter name, with
// label reason when reason is not "".
func metric(t *testing.T, reg *prometheus.Registry, name, reason string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			ok := reason == ""
			for _, l := range m.GetLabel() {
				ok = ok || (l.GetName() == "reason" && l.GetValue() == reason)
			}
			if ok && m.GetGauge() != nil {
				return m.GetGauge().GetValue()
			}
			if ok {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no metric %s %s", name, reason)
	return 0
}

func gauge(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	return metric(t, reg, name, "")
}

func failures(t *testing.T, reg *prometheus.Registry, reason string) float64 {
	t.Helper()
	return metric(t, reg, "outbox_delivery_failures_total", reason)
}

func delivered(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	return metric(t, reg, "outbox_delivered_total", "")
}

// sequences lists the sequences of company empresaID's events in evs.
func sequences(evs []map[string]any, empresaID int64) []int64 {
	var out []int64
	for _, e := range outboxtest.Of(evs, empresaID) {
		var n int64
		fmt.Sscanf(e, "%d:", &n)
		out = append(out, n)
	}
	return out
}

func TestSequenceIsPerCompanyAndGaplessAcrossRollbacks(t *testing.T) {
	db := newDB(t)
	ctx := t.Context()
	enqueue(t, db, 7, incluido, funcionario{ID: 1, Nome: "Ana", CPF: "529.982.247-25"})
	// A change that rolls back takes its event and its number with it.
	rollback := fmt.Errorf("rollback")
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if err := outbox.Enqueue(ctx, tx, 7, alterado, payload(funcionario{ID: 1})); err != nil {
			return err
		}
		return rollback
	})
	if err != rollback {
		t.Fatalf("err = %v", err)
	}
	enqueue(t, db, 8, incluido, funcionario{ID: 2, Nome: "Bia", CPF: "111.444.777-35"})
	enqueue(t, db, 7, alterado, funcionario{ID: 1, Nome: "Ana Maria", CPF: "529.982.247-25"})

	rows, _ := db.Query(ctx, `SELECT empresa_id, sequencia, tipo FROM outbox_eventos ORDER BY id`)
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var e, s int64
		var tipo string
		err := r.Scan(&e, &s, &tipo)
		return fmt.Sprintf("%d/%d/%s", e, s, tipo), err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"7/1/funcionario.incluido", "8/1/funcionario.incluido", "7/2/funcionario.alterado"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("events = %v; want %v", got, want)
	}
}

// Concurrent changes of one company queue on its counter: every
// committed event has its own number, 1..n with no gap, and the time of
// each follows its number.
func TestConcurrentChangesOfOneCompanyAreNumberedInCommitOrder(t *testing.T) {
	db := newDB(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			err := pgx.BeginFunc(t.Context(), db, func(tx pgx.Tx) error {
				if err := outbox.Enqueue(t.Context(), tx, 7, incluido, payload(funcionario{ID: int64(i)})); err != nil {
					return err
				}
				if i%4 == 0 {
					return fmt.Errorf("rolled back")
				}
				return nil
			})
			if err != nil && err.Error() != "rolled back" {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var n, maxSeq int64
	var ordered bool
	err := db.QueryRow(t.Context(), `SELECT count(*), max(sequencia),
		bool_and(ocorrido_em >= COALESCE(prev, ocorrido_em))
		FROM (SELECT sequencia, ocorrido_em, lag(ocorrido_em) OVER (ORDER BY sequencia) AS prev FROM outbox_eventos) s`).Scan(&n, &maxSeq, &ordered)
	if err != nil {
		t.Fatal(err)
	}
	if n != 15 || maxSeq != 15 || !ordered {
		t.Fatalf("count %d, max sequence %d, times in order %v; want 15, 15, true", n, maxSeq, ordered)
	}
}

// recorder is a Sender that keeps what it is given and answers 200.
type recorder struct{ got []outbox.Event }

func (r *recorder) Send(_ context.Context, e outbox.Event) error {
	r.got = append(r.got, e)
	return nil
}

// The sender gets the envelope (the id made of the source and the row,
// the company, its sequence, when and what) and the payload as stored.
func TestSenderGetsTheEventAsStored(t *testing.T) {
	db := newDB(t)
	var rec recorder
	relay := outbox.NewRelay(db, "company-billing", config("http://timekeeping.test"), &rec, slog.New(slog.DiscardHandler))
	empresa := map[string]any{"empresa": map[string]any{"cnpj": "11.222.333/0001-81", "razaoSocial": "Padaria Ltda"}}
	err := pgx.BeginFunc(t.Context(), db, func(tx pgx.Tx) error {
		return outbox.Enqueue(t.Context(), tx, 7, "empresa.incluida", empresa)
	})
	if err != nil {
		t.Fatal(err)
	}
	pass(t, relay)
	if len(rec.got) != 1 {
		t.Fatalf("sent %d events; want 1", len(rec.got))
	}
	var id int64
	var at time.Time
	if err := db.QueryRow(t.Context(), `SELECT id, ocorrido_em FROM outbox_eventos`).Scan(&id, &at); err != nil {
		t.Fatal(err)
	}
	e := rec.got[0]
	if e.ID != fmt.Sprintf("company-billing:%d", id) || e.Origem != "company-billing" || e.EmpresaID != 7 ||
		e.Sequencia != 1 || e.Tipo != "empresa.incluida" || !e.OcorridoEm.Equal(at) {
		t.Fatalf("event = %+v (row %d at %v)", e, id, at)
	}
	var dados map[string]any
	if err := json.Unmarshal(e.Dados, &dados); err != nil || fmt.Sprint(dados) != fmt.Sprint(empresa) {
		t.Fatalf("dados = %s (%v); want %v", e.Dados, err, empresa)
	}
}

// With the receiver down nothing is lost: the events wait, the metrics
// say so, and once it is back each is delivered once, in order.
func TestReceiverDownKeepsEventsThenDeliversOnceInOrder(t *testing.T) {
	db := newDB(t)
	rcv := outboxtest.NewReceiver(t)
	rcv.SetDown(true)
	relay, reg := newRelay(t, db, rcv)
	for i := range 10 {
		enqueue(t, db, 7, incluido, funcionario{ID: int64(i + 1), Nome: fmt.Sprint("F", i)})
	}
	for range 3 {
		pass(t, relay)
	}
	if p := gauge(t, reg, "outbox_pending_events"); p != 10 {
		t.Fatalf("pending = %v; want 10", p)
	}
	if lag := gauge(t, reg, "outbox_lag_seconds"); lag <= 0 {
		t.Fatalf("lag = %v; want > 0", lag)
	}
	if f := failures(t, reg, outbox.ReasonUnavailable); f != 3 {
		t.Fatalf("unavailable failures = %v; want 3 (one per pass: a company stops at its first failure)", f)
	}
	rcv.SetDown(false)
	pass(t, relay)
	got := rcv.Applied()
	if s := sequences(got, 7); fmt.Sprint(s) != "[1 2 3 4 5 6 7 8 9 10]" {
		t.Fatalf("sequences applied = %v", s)
	}
	for i, ev := range got {
		if ev["funcionario"].(map[string]any)["id"] != float64(i+1) {
			t.Fatalf("event %d is about %v", i, ev["funcionario"])
		}
	}
	if p := gauge(t, reg, "outbox_pending_events"); p != 0 {
		t.Fatalf("pending = %v; want 0", p)
	}
	if lag := gauge(t, reg, "outbox_lag_seconds"); lag != 0 {
		t.Fatalf("lag = %v; want 0", lag)
	}
	if d := delivered(t, reg); d != 10 {
		t.Fatalf("delivered = %v; want 10", d)
	}
	pass(t, relay) // nothing pending: nothing sent again
	if n := len(rcv.Applied()); n != 10 {
		t.Fatalf("applied %d; want 10", n)
	}
}

// A post that reached timekeeping but was not marked sent (a crash in
// between) goes again; timekeeping answers aplicado=false and the event
// is then marked sent, applied once.
func TestRepeatAfterLostMarkIsAppliedOnce(t *testing.T) {
	db := newDB(t)
	rcv := outboxtest.NewReceiver(t)
	relay, _ := newRelay(t, db, rcv)
	enqueue(t, db, 7, incluido, funcionario{ID: 1})
	enqueue(t, db, 7, alterado, funcionario{ID: 1})
	pass(t, relay)
	if _, err := db.Exec(t.Context(), `UPDATE outbox_eventos SET enviado_em = NULL`); err != nil {
		t.Fatal(err)
	}
	pass(t, relay)
	if s := sequences(rcv.Applied(), 7); fmt.Sprint(s) != "[1 2]" {
		t.Fatalf("applied %v; want [1 2]", s)
	}
	var pending int
	if err := db.QueryRow(t.Context(), `SELECT count(*) FROM outbox_eventos WHERE enviado_em IS NULL`).Scan(&pending); err != nil {
		t.Fatal(err)
	}
	if pending != 0 || rcv.Posts() != 4 {
		t.Fatalf("pending %d, posts %d; want 0, 4", pending, rcv.Posts())
	}
}

// A receiver that lost events (409 naming an earlier sequence) gets them
// again from the one it expects.
func TestOutOfOrderAnswerResendsFromTheExpectedSequence(t *testing.T) {
	db := newDB(t)
	rcv := outboxtest.NewReceiver(t)
	relay, reg := newRelay(t, db, rcv)
	enqueue(t, db, 7, incluido, funcionario{ID: 1})
	enqueue(t, db, 7, alterado, funcionario{ID: 1})
	pass(t, relay)
	rcv.Reset()
	enqueue(t, db, 7, excluido, funcionario{ID: 1})
	pass(t, relay) // 409 esperada 1
	if f := failures(t, reg, outbox.ReasonOutOfOrder); f != 1 {
		t.Fatalf("out-of-order failures = %v; want 1", f)
	}
	pass(t, relay)
	if s := sequences(rcv.Applied(), 7); fmt.Sprint(s) != "[1 2 3]" {
		t.Fatalf("applied %v; want [1 2 3]", s)
	}
}

// A malformed event (400) is a bug: it is kept, counted, retried, and
// holds back its company's later events, never another company's.
func TestRejectedEventIsKeptAndHoldsOnlyItsCompany(t *testing.T) {
	db := newDB(t)
	rcv := outboxtest.NewReceiver(t)
	relay, reg := newRelay(t, db, rcv)
	enqueue(t, db, 7, incluido, funcionario{ID: 1})
	enqueue(t, db, 7, alterado, funcionario{ID: 1})
	enqueue(t, db, 8, incluido, funcionario{ID: 2})
	var first int64
	if err := db.QueryRow(t.Context(), `SELECT min(id) FROM outbox_eventos`).Scan(&first); err != nil {
		t.Fatal(err)
	}
	rcv.Reject(fmt.Sprintf("employee:%d", first))
	for range 5 {
		pass(t, relay)
	}
	if f := failures(t, reg, outbox.ReasonRejected); f != 5 {
		t.Fatalf("rejected failures = %v; want 5", f)
	}
	if s7, s8 := sequences(rcv.Applied(), 7), sequences(rcv.Applied(), 8); len(s7) != 0 || fmt.Sprint(s8) != "[1]" {
		t.Fatalf("applied company 7 %v, company 8 %v; want [], [1]", s7, s8)
	}
	var tentativas int
	if err := db.QueryRow(t.Context(), `SELECT tentativas FROM outbox_eventos WHERE id = $1 AND enviado_em IS NULL`, first).Scan(&tentativas); err != nil || tentativas != 5 {
		t.Fatalf("the rejected event: tentativas %d, err %v; want 5 and still pending", tentativas, err)
	}
	rcv.Reject() // the bug fixed
	pass(t, relay)
	if s := sequences(rcv.Applied(), 7); fmt.Sprint(s) != "[1 2]" {
		t.Fatalf("applied %v; want [1 2]", s)
	}
}

// Several replicas deliver side by side: each event is applied once, in
// order (the receiver refuses anything else with 409, which would leave
// events pending).
func TestReplicasDeliverEachEventOnceInOrder(t *testing.T) {
	db := newDB(t)
	rcv := outboxtest.NewReceiver(t)
	for e := range int64(4) {
		for i := range 15 {
			enqueue(t, db, e+1, incluido, funcionario{ID: int64(i)})
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for range 3 {
		relay, _ := newRelay(t, db, rcv)
		wg.Go(func() { relay.Run(ctx) })
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(rcv.Applied()) < 60 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	got := rcv.Applied()
	for e := range int64(4) {
		want := fmt.Sprint([]int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
		if s := sequences(got, e+1); fmt.Sprint(s) != want {
			t.Fatalf("company %d applied %v", e+1, s)
		}
	}
	if len(got) != 60 {
		t.Fatalf("applied %d; want 60", len(got))
	}
}

func TestConfigValidate(t *testing.T) {
	good := config("http://timekeeping:8081")
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	off := config("")
	if err := off.Validate(); err != nil {
		t.Fatalf("an empty URL (relay off) refused: %v", err)
	}
	for name, c := range map[string]outbox.Config{
		"bad url":     config("timekeeping:8081"),
		"no batch":    func() outbox.Config { c := good; c.Batch = 0; return c }(),
		"max < min":   func() outbox.Config { c := good; c.BackoffMax = c.BackoffMin / 2; c.BackoffMin = time.Second; return c }(),
		"no interval": func() outbox.Config { c := good; c.PollInterval = 0; return c }(),
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// failing is a Sender that fails with err.
type failing struct{ err error }

func (f failing) Send(context.Context, outbox.Event) error { return f.err }

// Each failure of the sender is counted under its reason, and the event
// stays pending.
func TestFailuresAreCountedByReason(t *testing.T) {
	for _, c := range []struct {
		reason string
		err    error
	}{
		{outbox.ReasonRejected, apierr.BadRequest("evento_invalido", "evento inválido")},
		{outbox.ReasonRejected, errors.New("the sender could not encode the event")},
		{outbox.ReasonBadAnswer, apierr.BadGateway("timekeeping", errors.New("200 without aplicado"))},
		{outbox.ReasonUnavailable, apierr.Unavailable("timekeeping", errors.New("connection refused"))},
		{outbox.ReasonOutOfOrder, &outbox.OutOfOrder{Esperada: 1}},
	} {
		reason, err := c.reason, c.err
		t.Run(reason, func(t *testing.T) {
			db := newDB(t)
			reg := prometheus.NewRegistry()
			relay := outbox.NewRelay(db, "employee", config("http://timekeeping.test"), failing{err}, slog.New(slog.DiscardHandler))
			reg.MustRegister(relay.Collectors()...)
			enqueue(t, db, 7, incluido, funcionario{ID: 1})
			pass(t, relay)
			if f := failures(t, reg, reason); f != 1 {
				t.Fatalf("%s failures = %v; want 1", reason, f)
			}
			if p := gauge(t, reg, "outbox_pending_events"); p != 1 {
				t.Fatalf("pending = %v; want 1", p)
			}
		})
	}
}
