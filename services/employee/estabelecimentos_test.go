package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	companyapi "github.com/ponto/ponto/services/company-billing/internalapi"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

// companyStub stands in for company-billing's
// GET /internal/empresas/{empresaId}/estabelecimentos/{id} per
// docs/internal-api.md: the establishments the test adds, 404 for the
// others, or status for every call.
type companyStub struct {
	srv *httptest.Server

	mu     sync.Mutex
	ests   map[int64]companyapi.Estabelecimento
	status int
}

func newCompanyStub(t *testing.T) *companyStub {
	s := &companyStub{ests: map[int64]companyapi.Estabelecimento{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /internal/empresas/{empresaId}/estabelecimentos/{id}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		empresaID, _ := strconv.ParseInt(r.PathValue("empresaId"), 10, 64)
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		est, ok := s.ests[id]
		switch {
		case s.status != 0:
			w.WriteHeader(s.status)
			w.Write([]byte(`{"code":"erro_interno","message":"erro interno"}`))
		case !ok || est.EmpresaID != empresaID:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"code":"nao_encontrado","message":"estabelecimento não encontrado"}`))
		default:
			json.NewEncoder(w).Encode(est)
		}
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *companyStub) URL() string { return s.srv.URL }

func (s *companyStub) add(e companyapi.Estabelecimento) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ests[e.ID] = e
}

func (s *companyStub) setStatus(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status = status
}

// estabelecimentoOf reads employee id's establishment as the company
// sees it and as the internal view shows it.
func (e *env) estabelecimentoOf(c company, id int64) int64 {
	e.t.Helper()
	r := e.pub("GET", path("/funcionarios/%d", id), c.token, nil)
	want(e.t, r, 200)
	pub := int64(r.obj(e.t)["estabelecimentoId"].(float64))
	r = e.in("GET", path("/internal/funcionarios/%d", id), nil)
	want(e.t, r, 200)
	if in := int64(r.obj(e.t)["estabelecimentoId"].(float64)); in != pub {
		e.t.Fatalf("internal view's estabelecimentoId %d, public %d", in, pub)
	}
	return pub
}

func (e *env) ativos(c company, estID int64) int {
	e.t.Helper()
	r := e.in("GET", path("/internal/empresas/%d/estabelecimentos/%d/ativos", c.id, estID), nil)
	want(e.t, r, 200)
	return int(r.obj(e.t)["ativos"].(float64))
}

func TestEmployeeEstablishmentAndTransfer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	esc := e.escala(a, "A")
	const principal, filial, inativa, deB = 10, 11, 12, 20
	e.billing.add(companyapi.Estabelecimento{ID: principal, EmpresaID: a.id, Principal: true, Ativo: true})
	e.billing.add(companyapi.Estabelecimento{ID: filial, EmpresaID: a.id, Ativo: true})
	e.billing.add(companyapi.Estabelecimento{ID: inativa, EmpresaID: a.id})
	e.billing.add(companyapi.Estabelecimento{ID: deB, EmpresaID: b.id, Ativo: true})

	// Absent, 0 or the principal's id: the principal, stored as 0.
	ana := e.funcionario(a, esc, map[string]any{"nome": "Ana Souza"})
	bia := e.funcionario(a, esc, map[string]any{"nome": "Bia Lima", "estabelecimentoId": principal})
	r := e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, map[string]any{"nome": "Caio Reis", "estabelecimentoId": filial}))
	want(t, r, 200)
	caio := int64(r.obj(t)["id"].(float64))
	if got := r.obj(t)["estabelecimentoId"]; got != float64(filial) {
		t.Fatalf("created answer's estabelecimentoId %v", got)
	}
	for id, wantEst := range map[int64]int64{ana: 0, bia: 0, caio: filial} {
		if got := e.estabelecimentoOf(a, id); got != wantEst {
			t.Errorf("employee %d in %d, want %d", id, got, wantEst)
		}
	}

	// Refused, with nothing stored: an inactive one, another company's,
	// an unknown one, a negative id, company-billing down.
	before := e.count("funcionarios")
	for _, tc := range []struct {
		est    any
		status int
		code   string
	}{
		{inativa, 400, "validacao"}, {deB, 404, "nao_encontrado"}, {999, 404, "nao_encontrado"}, {-1, 400, "validacao"},
	} {
		r := e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, map[string]any{"estabelecimentoId": tc.est}))
		wantErr(t, r, tc.status, tc.code)
		if _, ok := r.fields(t)["estabelecimentoId"]; !ok {
			t.Errorf("estabelecimentoId %v: answer does not name the field: %s", tc.est, r.body)
		}
		wantErr(t, e.pub("PATCH", path("/funcionarios/%d", ana), a.token, map[string]any{"estabelecimentoId": tc.est}), tc.status, tc.code)
	}
	e.billing.setStatus(http.StatusInternalServerError)
	want(t, e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, map[string]any{"estabelecimentoId": filial})), 503)
	want(t, e.pub("PATCH", path("/funcionarios/%d", ana), a.token, map[string]any{"estabelecimentoId": filial, "nome": "Ana X"}), 503)
	e.billing.setStatus(0)
	wantErr(t, e.pub("PATCH", path("/funcionarios/%d", ana), a.token, map[string]any{"estabelecimentoId": nil}), 400, "validacao")
	if n := e.count("funcionarios"); n != before {
		t.Fatalf("%d employees after refused creations; want %d", n, before)
	}
	if got := e.estabelecimentoOf(a, ana); got != 0 {
		t.Fatalf("ana moved by a refused change: %d", got)
	}

	// Moves: to the branch, a no-op to the principal's id while there,
	// back, and a deactivated employee moved silently.
	patch := func(id int64, body map[string]any) {
		t.Helper()
		want(t, e.pub("PATCH", path("/funcionarios/%d", id), a.token, body), 200)
	}
	patch(ana, map[string]any{"estabelecimentoId": filial})
	patch(bia, map[string]any{"estabelecimentoId": principal}) // already there: nothing
	patch(caio, map[string]any{"estabelecimentoId": 0, "nome": "Caio Reis Filho"})
	patch(bia, map[string]any{"ativo": false})
	patch(bia, map[string]any{"estabelecimentoId": filial}) // inactive: not the REP's business
	patch(bia, map[string]any{"ativo": true})
	if got := e.ativos(a, filial); got != 2 { // ana and bia
		t.Fatalf("active in the branch: %d, want 2", got)
	}
	if got := e.ativos(b, filial); got != 0 {
		t.Fatalf("company b's count for a's branch: %d", got)
	}

	anterior := func(id int64) *int64 { return &id }
	f := func(id int64, nome string, est int64, ant *int64) timekeepingapi.Funcionario {
		cpf := ""
		for _, ev := range e.events(a.id) {
			if ev.Funcionario.ID == id {
				cpf = ev.Funcionario.CPF
			}
		}
		return timekeepingapi.Funcionario{ID: id, Nome: nome, CPF: cpf, EstabelecimentoID: est, EstabelecimentoAnteriorID: ant}
	}
	wantEvents := []repEvent{
		{1, timekeepingapi.FuncionarioIncluido, f(ana, "Ana Souza", 0, nil)},
		{2, timekeepingapi.FuncionarioIncluido, f(bia, "Bia Lima", 0, nil)},
		{3, timekeepingapi.FuncionarioIncluido, f(caio, "Caio Reis", filial, nil)},
		{4, timekeepingapi.FuncionarioTransferido, f(ana, "Ana Souza", filial, anterior(0))},
		{5, timekeepingapi.FuncionarioTransferido, f(caio, "Caio Reis Filho", 0, anterior(filial))},
		{6, timekeepingapi.FuncionarioExcluido, f(bia, "Bia Lima", 0, nil)},
		{7, timekeepingapi.FuncionarioIncluido, f(bia, "Bia Lima", filial, nil)},
	}
	if diff := cmp.Diff(wantEvents, e.events(a.id), cmp.AllowUnexported(repEvent{})); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
}
