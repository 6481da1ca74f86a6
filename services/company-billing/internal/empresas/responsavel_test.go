package empresas

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/outbox/outboxtest"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

// repEvent is an outbox row as the tests compare it.
type repEvent struct {
	Sequencia int64
	Tipo      string
	Empresa   timekeepingapi.Empresa
}

// events returns company id's REP events, in sequence.
func (e *env) events(t *testing.T, id int64) []repEvent {
	t.Helper()
	rows, _ := e.db.Query(context.Background(), `SELECT sequencia, tipo, dados->'empresa' FROM outbox_eventos
		WHERE empresa_id = $1 ORDER BY sequencia`, id)
	evs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (repEvent, error) {
		var ev repEvent
		err := r.Scan(&ev.Sequencia, &ev.Tipo, &ev.Empresa)
		return ev, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// responsavelEverywhere fails unless company id shows resp (nil: null)
// in its own view and in the internal one timekeeping reads.
func (e *env) responsavelEverywhere(t *testing.T, id int64, resp map[string]any) {
	t.Helper()
	me := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id)))
	internal := do(t, http.MethodGet, e.internal+"/internal/empresas/"+strconv.FormatInt(id, 10), nil, e.asAuth(t))
	for name, a := range map[string]answer{"me": me, "internal": internal} {
		got, present := a.body["responsavel"]
		if !present || (resp == nil && got != nil) || (resp != nil && !reflect.DeepEqual(got, resp)) {
			t.Errorf("%s view of company %d: responsavel %v, want %v: %s", name, id, got, resp, a.raw)
		}
	}
}

func TestResponsavelAtRegistrationAndLater(t *testing.T) {
	e := newEnv(t)
	ana := map[string]any{"nome": "Ana Souza", "cpf": "529.982.247-25"}
	req := validRequest(0)
	req["responsavel"] = ana
	a := e.register(t, req, nil)
	id := savedID(t, a)
	if got := a.body["savedEmpresa"].(map[string]any)["responsavel"]; !reflect.DeepEqual(got, ana) {
		t.Errorf("savedEmpresa.responsavel = %v", got)
	}
	e.responsavelEverywhere(t, id, ana)

	// Without one: null everywhere, until the company names one.
	b := e.mustRegister(t, 1)
	e.responsavelEverywhere(t, b, nil)
	bia := map[string]any{"nome": "Bia Lima", "cpf": "111.444.777-35"}
	ans := e.patchMe(t, b, map[string]any{"responsavel": bia})
	if ans.status != http.StatusOK || !reflect.DeepEqual(ans.body["responsavel"], bia) {
		t.Fatalf("PATCH responsavel: %d %s", ans.status, ans.raw)
	}
	e.responsavelEverywhere(t, b, bia)
	e.responsavelEverywhere(t, id, ana) // the other tenant is untouched
}

func TestResponsavelRefusedWithNothingWritten(t *testing.T) {
	e := newEnv(t)
	for name, tc := range map[string]struct {
		resp  any
		field string
	}{
		"wrong check digits": {map[string]any{"nome": "Ana", "cpf": "529.982.247-24"}, "responsavel.cpf"},
		"all digits equal":   {map[string]any{"nome": "Ana", "cpf": "111.111.111-11"}, "responsavel.cpf"},
		"no mask":            {map[string]any{"nome": "Ana", "cpf": "52998224725"}, "responsavel.cpf"},
		"no cpf":             {map[string]any{"nome": "Ana"}, "responsavel.cpf"},
		"no name":            {map[string]any{"cpf": "529.982.247-25"}, "responsavel.nome"},
		"blank name":         {map[string]any{"nome": "  ", "cpf": "529.982.247-25"}, "responsavel.nome"},
	} {
		t.Run(name, func(t *testing.T) {
			req := validRequest(0)
			req["responsavel"] = tc.resp
			a := e.register(t, req, nil)
			if _, ok := a.fields()[tc.field]; a.status != http.StatusBadRequest || a.code() != "validacao" || !ok {
				t.Fatalf("register: %d %s; want 400 naming %s", a.status, a.raw, tc.field)
			}
		})
	}
	if n := e.countEmpresas(t); n != 0 {
		t.Fatalf("%d companies stored after refused registrations", n)
	}
	if calls := len(e.stripe.Requests(http.MethodPost, "/v1/")); calls != 0 {
		t.Fatalf("%d Stripe calls for refused registrations", calls)
	}

	id := e.mustRegister(t, 0)
	ans := e.patchMe(t, id, map[string]any{"responsavel": map[string]any{"nome": "Ana", "cpf": "529.982.247-24"}, "fusoHorario": "America/Manaus"})
	if _, ok := ans.fields()["responsavel.cpf"]; ans.status != http.StatusBadRequest || !ok {
		t.Fatalf("PATCH: %d %s", ans.status, ans.raw)
	}
	e.responsavelEverywhere(t, id, nil)
	e.zoneEverywhere(t, id, "America/Sao_Paulo") // nothing of the body applied
	if evs := e.events(t, id); len(evs) != 1 {
		t.Fatalf("events after a refused change: %+v", evs)
	}
}

func TestREPEventsOfACompany(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	req := validRequest(0)
	ident := timekeepingapi.Empresa{CNPJ: req["cnpj"].(string), RazaoSocial: req["razaoSocial"].(string)}
	patch := func(body map[string]any) {
		t.Helper()
		if a := e.patchMe(t, id, body); a.status != http.StatusOK {
			t.Fatalf("PATCH %v: %d %s", body, a.status, a.raw)
		}
	}
	patch(map[string]any{"fusoHorario": "America/Manaus"}) // not the REP's business
	patch(map[string]any{"responsavel": map[string]any{"nome": "Ana Souza", "cpf": "529.982.247-25"}})
	patch(map[string]any{"responsavel": map[string]any{"nome": "Ana Souza", "cpf": "529.982.247-25"}}) // the same: no change
	patch(map[string]any{"responsavel": map[string]any{"nome": "Bia Lima", "cpf": "111.444.777-35"}})

	withResp := func(nome, cpf string) timekeepingapi.Empresa {
		i := ident
		i.Responsavel = &timekeepingapi.Responsavel{Nome: nome, CPF: cpf}
		return i
	}
	want := []repEvent{
		{1, timekeepingapi.EmpresaIncluida, ident},
		{2, timekeepingapi.EmpresaAlterada, withResp("Ana Souza", "529.982.247-25")},
		{3, timekeepingapi.EmpresaAlterada, withResp("Bia Lima", "111.444.777-35")},
	}
	if got := e.events(t, id); !eventsEqual(got, want) {
		t.Fatalf("events %+v\nwant %+v", got, want)
	}

	// A registration that fails (duplicate CNPJ) writes no event; a
	// blocked company changes nothing.
	if a := e.register(t, validRequest(0), nil); a.status != http.StatusConflict {
		t.Fatalf("duplicate: %d %s", a.status, a.raw)
	}
	if s := do(t, http.MethodPut, e.public+"/admin/empresas/"+strconv.FormatInt(id, 10)+"/bloquear", nil, bearer(e.iss.Admin(t))).status; s != http.StatusOK {
		t.Fatalf("block: %d", s)
	}
	if a := e.patchMe(t, id, map[string]any{"responsavel": map[string]any{"nome": "Caio", "cpf": "529.982.247-25"}}); a.status != http.StatusForbidden {
		t.Fatalf("blocked: %d %s", a.status, a.raw)
	}
	var total int
	if err := e.db.QueryRow(t.Context(), `SELECT count(*) FROM outbox_eventos`).Scan(&total); err != nil || total != 3 {
		t.Fatalf("%d events in all (%v); want 3", total, err)
	}

	// The relay carries them to timekeeping in order.
	rcv := outboxtest.NewReceiver(t)
	cfg := outbox.Config{URL: rcv.URL(), PollInterval: time.Second,
		BackoffMin: time.Second, BackoffMax: time.Second, Timeout: 5 * time.Second, Batch: 10}
	relay := outbox.NewRelay(e.db, "company-billing", cfg, timekeepingapi.NewSender(cfg), slog.New(slog.DiscardHandler))
	if err := relay.Pass(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := outboxtest.Of(rcv.Applied(), id)
	if !slices.Equal(got, []string{"1:empresa.incluida", "2:empresa.alterada", "3:empresa.alterada"}) {
		t.Fatalf("applied %v", got)
	}
	last, _ := json.Marshal(rcv.Applied()[2]["empresa"])
	var sent timekeepingapi.Empresa
	if err := json.Unmarshal(last, &sent); err != nil || !reflect.DeepEqual(sent, want[2].Empresa) {
		t.Fatalf("sent empresa %s (%v)", last, err)
	}
}

func eventsEqual(a, b []repEvent) bool {
	return slices.EqualFunc(a, b, func(x, y repEvent) bool { return reflect.DeepEqual(x, y) })
}
