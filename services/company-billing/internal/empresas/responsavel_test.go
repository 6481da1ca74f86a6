package empresas

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
func (e *env) responsavelEverywhere(t *testing.T, id int64, resp *wireResponsavel) {
	t.Helper()
	me := decodeAs[wireEmpresa](t, do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id))))
	internal := decodeAs[wireCompany](t, do(t, http.MethodGet, e.internal+"/internal/empresas/"+strconv.FormatInt(id, 10), nil, e.asAuth(t)))
	type views struct{ Me, Internal *wireResponsavel }
	if diff := cmp.Diff(views{resp, resp}, views{me.Responsavel, internal.Responsavel}); diff != "" {
		t.Errorf("company %d's responsavel (-want +got):\n%s", id, diff)
	}
}

// asBody is resp as a request body names it.
func asBody(resp *wireResponsavel) map[string]any {
	return map[string]any{"nome": resp.Nome, "cpf": resp.CPF}
}

func TestResponsavelAtRegistrationAndLater(t *testing.T) {
	e := newEnv(t)
	ana := &wireResponsavel{Nome: "Ana Souza", CPF: "529.982.247-25"}
	req := validRequest(0)
	req["responsavel"] = asBody(ana)
	a := e.register(t, req, nil)
	id := savedID(t, a)
	if diff := cmp.Diff(ana, decodeAs[wireCadastro](t, a).SavedEmpresa.Responsavel); diff != "" {
		t.Errorf("savedEmpresa.responsavel (-want +got):\n%s", diff)
	}
	e.responsavelEverywhere(t, id, ana)

	// Without one: null everywhere, until the company names one.
	b := e.mustRegister(t, 1)
	e.responsavelEverywhere(t, b, nil)
	bia := &wireResponsavel{Nome: "Bia Lima", CPF: "111.444.777-35"}
	ans := e.patchMe(t, b, map[string]any{"responsavel": asBody(bia)})
	wantOutcome(t, "PATCH responsavel", ans, outcome{Status: http.StatusOK})
	if diff := cmp.Diff(bia, decodeAs[wireEmpresa](t, ans).Responsavel); diff != "" {
		t.Errorf("PATCH answer's responsavel (-want +got):\n%s", diff)
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
			wantOutcome(t, "register", a, outcome{http.StatusBadRequest, "validacao"})
			if decodeAs[wireError](t, a).Fields[tc.field] == "" {
				t.Fatalf("register: %s; want it to name %s", a.raw, tc.field)
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
	wantOutcome(t, "PATCH", ans, outcome{http.StatusBadRequest, "validacao"})
	if decodeAs[wireError](t, ans).Fields["responsavel.cpf"] == "" {
		t.Fatalf("PATCH: %s; want it to name responsavel.cpf", ans.raw)
	}
	e.responsavelEverywhere(t, id, nil)
	e.zoneEverywhere(t, id, "America/Sao_Paulo") // nothing of the body applied
	if evs := e.events(t, id); len(evs) != 2 {   // empresa.incluida, estabelecimento.incluido
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
	// The principal establishment's event carries the company's
	// identification as it is (no address yet).
	want := []repEvent{
		{1, timekeepingapi.EmpresaIncluida, ident},
		{2, timekeepingapi.EstabelecimentoIncluido, ident},
		{3, timekeepingapi.EmpresaAlterada, withResp("Ana Souza", "529.982.247-25")},
		{4, timekeepingapi.EmpresaAlterada, withResp("Bia Lima", "111.444.777-35")},
	}
	if diff := cmp.Diff(want, e.events(t, id)); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}

	// A registration that fails (duplicate CNPJ) writes no event; a
	// blocked company changes nothing.
	wantOutcome(t, "duplicate", e.register(t, validRequest(0), nil), outcome{http.StatusConflict, "cnpj_duplicado"})
	if s := do(t, http.MethodPut, e.public+"/admin/empresas/"+strconv.FormatInt(id, 10)+"/bloquear", nil, bearer(e.iss.Admin(t))).status; s != http.StatusOK {
		t.Fatalf("block: %d", s)
	}
	wantOutcome(t, "blocked", e.patchMe(t, id, map[string]any{"responsavel": map[string]any{"nome": "Caio", "cpf": "529.982.247-25"}}),
		outcome{http.StatusForbidden, "empresa_bloqueada"})
	var total int
	if err := e.db.QueryRow(t.Context(), `SELECT count(*) FROM outbox_eventos`).Scan(&total); err != nil || total != 4 {
		t.Fatalf("%d events in all (%v); want 4", total, err)
	}

	// The relay carries them to timekeeping in order.
	rcv := outboxtest.NewReceiver(t)
	cfg := outbox.Config{URL: rcv.URL(), PollInterval: time.Second,
		BackoffMin: time.Second, BackoffMax: time.Second, Timeout: 5 * time.Second, Batch: 10}
	relay := outbox.NewRelay(e.db, "company-billing", cfg, timekeepingapi.NewSender(cfg), slog.New(slog.DiscardHandler))
	if err := relay.Pass(t.Context()); err != nil {
		t.Fatal(err)
	}
	applied := []string{"1:empresa.incluida", "2:estabelecimento.incluido", "3:empresa.alterada", "4:empresa.alterada"}
	if diff := cmp.Diff(applied, outboxtest.Of(rcv.Applied(), id)); diff != "" {
		t.Fatalf("applied (-want +got):\n%s", diff)
	}
	last, _ := json.Marshal(rcv.Applied()[3]["empresa"])
	var sent timekeepingapi.Empresa
	if err := json.Unmarshal(last, &sent); err != nil {
		t.Fatalf("sent empresa %s: %v", last, err)
	}
	if diff := cmp.Diff(want[3].Empresa, sent); diff != "" {
		t.Fatalf("sent empresa (-want +got):\n%s", diff)
	}
}
