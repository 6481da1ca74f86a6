package main

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/outbox/outboxtest"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

// repEvent is an outbox row as the tests compare it.
type repEvent struct {
	Sequencia   int64
	Tipo        string
	Funcionario timekeepingapi.Funcionario
}

// events returns company empresaID's REP events, in sequence.
func (e *env) events(empresaID int64) []repEvent {
	e.t.Helper()
	rows, _ := e.db.Query(context.Background(), `SELECT sequencia, tipo, dados->'funcionario' FROM outbox_eventos
		WHERE empresa_id = $1 ORDER BY sequencia`, empresaID)
	evs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (repEvent, error) {
		var ev repEvent
		err := r.Scan(&ev.Sequencia, &ev.Tipo, &ev.Funcionario)
		return ev, err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return evs
}

func TestREPEventsOfAnEmployee(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	esc := e.escala(a, "A")
	body := funcionarioBody(a, esc, map[string]any{"nome": "Ana Souza"})
	r := e.pub("POST", "/funcionarios", a.token, body)
	want(t, r, 200)
	id := int64(r.obj(t)["id"].(float64))
	cpf := body["cpf"].(string)
	patch := func(body map[string]any, status int) {
		t.Helper()
		want(t, e.pub("PATCH", path("/funcionarios/%d", id), a.token, body), status)
	}
	patch(map[string]any{"nome": "Ana Souza Lima"}, 200)
	patch(map[string]any{"cargo": "Gerente", "telefone": "11912345678"}, 200) // not the REP's business
	patch(map[string]any{"nome": "Ana Souza Lima"}, 200)                      // the same name: no change
	patch(map[string]any{"ativo": false}, 200)
	patch(map[string]any{"nome": "Ana Lima"}, 200) // inactive: not in the REP
	patch(map[string]any{"ativo": true}, 200)

	ana := func(nome string) timekeepingapi.Funcionario {
		return timekeepingapi.Funcionario{ID: id, Nome: nome, CPF: cpf}
	}
	wantEvents := []repEvent{
		{1, timekeepingapi.FuncionarioIncluido, ana("Ana Souza")},
		{2, timekeepingapi.FuncionarioAlterado, ana("Ana Souza Lima")},
		{3, timekeepingapi.FuncionarioExcluido, ana("Ana Souza Lima")},
		{4, timekeepingapi.FuncionarioIncluido, ana("Ana Lima")},
	}
	if got := e.events(a.id); !slices.Equal(got, wantEvents) {
		t.Fatalf("events = %+v\nwant %+v", got, wantEvents)
	}

	// Failed changes write no event: a duplicate CPF, another company's
	// schedule, a deactivation auth could not confirm, another company's
	// employee.
	wantErr(t, e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, map[string]any{"cpf": cpf})), 409, "cpf_duplicado")
	patch(map[string]any{"nome": "Outro Nome", "escalaTrabalhoId": e.escala(b, "B")}, 404)
	e.auth.setStatus(http.StatusInternalServerError)
	patch(map[string]any{"ativo": false}, 503)
	want(t, e.pub("PATCH", path("/funcionarios/%d", id), b.token, map[string]any{"nome": "Intruso"}), 404)
	if got := e.events(a.id); len(got) != 4 {
		t.Fatalf("failed changes wrote events: %+v", got)
	}
	if got := e.events(b.id); len(got) != 0 {
		t.Fatalf("company 2 has events: %+v", got)
	}
}

// With timekeeping down, ten employees make ten pending events; when it
// is back, each is delivered once, in order.
func TestREPEventsWaitForTimekeeping(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(3)
	esc := e.escala(a, "A")
	rcv := outboxtest.NewReceiver(t)
	rcv.SetDown(true)
	cfg := outbox.Config{URL: rcv.URL(), PollInterval: time.Second,
		BackoffMin: time.Nanosecond, BackoffMax: time.Nanosecond, Timeout: 2 * time.Second, Batch: 4}
	relay := outbox.NewRelay(e.db, name, cfg, timekeepingapi.NewSender(cfg), slog.New(slog.DiscardHandler))
	var ids []int64
	for range 10 {
		ids = append(ids, e.funcionario(a, esc, nil))
	}
	if err := relay.Pass(t.Context()); err != nil {
		t.Fatal(err)
	}
	var pending int
	if err := e.db.QueryRow(t.Context(), `SELECT count(*) FROM outbox_eventos WHERE enviado_em IS NULL`).Scan(&pending); err != nil {
		t.Fatal(err)
	}
	if pending != 10 || len(rcv.Applied()) != 0 {
		t.Fatalf("pending %d, applied %d; want 10, 0", pending, len(rcv.Applied()))
	}

	rcv.SetDown(false)
	for range 2 {
		if err := relay.Pass(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	got := rcv.Applied()
	if len(got) != 10 {
		t.Fatalf("applied %d events; want 10", len(got))
	}
	for i, ev := range got {
		f := ev["funcionario"].(map[string]any)
		if ev["sequencia"] != float64(i+1) || ev["tipo"] != timekeepingapi.FuncionarioIncluido || f["id"] != float64(ids[i]) ||
			ev["origem"] != "employee" || ev["empresaId"] != float64(a.id) || ev["id"] == "" {
			t.Fatalf("event %d = %v", i, ev)
		}
	}
	if err := e.db.QueryRow(t.Context(), `SELECT count(*) FROM outbox_eventos WHERE enviado_em IS NULL`).Scan(&pending); err != nil || pending != 0 {
		t.Fatalf("pending %d (%v) after delivery", pending, err)
	}
}
