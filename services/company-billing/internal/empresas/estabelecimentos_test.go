package empresas

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/services/company-billing/internalapi"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

// employeeStandIn implements employee's
// GET /internal/empresas/{empresaId}/estabelecimentos/{id}/ativos per
// docs/internal-api.md: the counts are set by the test, or every call
// fails with status.
type employeeStandIn struct {
	srv    *httptest.Server
	mu     sync.Mutex
	ativos map[string]int
	status int
	calls  []string
}

func newEmployeeStandIn(t *testing.T) *employeeStandIn {
	s := &employeeStandIn{ativos: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /internal/empresas/{empresaId}/estabelecimentos/{id}/ativos", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		key := r.PathValue("empresaId") + "/" + r.PathValue("id")
		s.calls = append(s.calls, key)
		w.Header().Set("Content-Type", "application/json")
		if s.status != 0 {
			w.WriteHeader(s.status)
			w.Write([]byte(`{"code":"erro_interno","message":"erro interno"}`))
			return
		}
		json.NewEncoder(w).Encode(map[string]int{"ativos": s.ativos[key]})
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *employeeStandIn) set(empresaID, id int64, n int, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ativos[strconv.FormatInt(empresaID, 10)+"/"+strconv.FormatInt(id, 10)] = n
	s.status = status
}

// estEvent is an outbox row of an establishment as the tests compare it.
type estEvent struct {
	Sequencia int64
	Tipo      string
	Payload   timekeepingapi.Payload
}

// allEvents returns every REP event of company id, in sequence.
func (e *env) allEvents(t *testing.T, id int64) []estEvent {
	t.Helper()
	rows, _ := e.db.Query(context.Background(), `SELECT sequencia, tipo, dados FROM outbox_eventos
		WHERE empresa_id = $1 ORDER BY sequencia`, id)
	evs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (estEvent, error) {
		var ev estEvent
		err := r.Scan(&ev.Sequencia, &ev.Tipo, &ev.Payload)
		return ev, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func (e *env) count(t *testing.T, table string) int {
	t.Helper()
	var n int
	if err := e.db.QueryRow(context.Background(), `SELECT count(*) FROM `+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// estAnswer is an answer decoded as an establishment.
func (e *env) est(t *testing.T, method, path string, empresaID int64, body any) (answer, internalapi.Estabelecimento) {
	t.Helper()
	a := do(t, method, e.public+"/empresas/me/estabelecimentos"+path, body, bearer(e.iss.Empresa(t, empresaID)))
	var v internalapi.Estabelecimento
	if a.status < 300 && method != http.MethodGet {
		if err := json.Unmarshal(a.raw, &v); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, a.raw)
		}
	}
	return a, v
}

func (e *env) list(t *testing.T, empresaID int64) []internalapi.Estabelecimento {
	t.Helper()
	a := servertest.Call(t, http.MethodGet, e.public+"/empresas/me/estabelecimentos", nil, bearer(e.iss.Empresa(t, empresaID)))
	var list []internalapi.Estabelecimento
	if err := json.Unmarshal(a.Body, &list); a.Status != http.StatusOK || err != nil {
		t.Fatalf("list: %d %s (%v)", a.Status, a.Body, err)
	}
	return list
}

// empresaREP is the REP identification of validRequest(n) without a
// responsible person.
func empresaREP(n int) timekeepingapi.Empresa {
	req := validRequest(n)
	return timekeepingapi.Empresa{CNPJ: req["cnpj"].(string), RazaoSocial: req["razaoSocial"].(string)}
}

func TestRegistrationMakesThePrincipalEstablishment(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	principal := internalapi.Estabelecimento{ID: e.list(t, id)[0].ID, EmpresaID: id, Principal: true, Tipo: "cnpj",
		Numero: "11222333000181", Nome: "Padaria Pão Quente", FusoHorario: "America/Sao_Paulo", Ativo: true}
	if diff := cmp.Diff([]internalapi.Estabelecimento{principal}, e.list(t, id)); diff != "" {
		t.Fatalf("list (-want +got):\n%s", diff)
	}
	rep := empresaREP(0)
	want := []estEvent{
		{1, timekeepingapi.EmpresaIncluida, timekeepingapi.Payload{Empresa: &rep}},
		{2, timekeepingapi.EstabelecimentoIncluido, timekeepingapi.Payload{Empresa: &rep,
			Estabelecimento: &timekeepingapi.Estabelecimento{ID: principal.ID, Principal: true, Tipo: "cnpj",
				Numero: "11222333000181", Nome: "Padaria Pão Quente", Ativo: true}}},
	}
	if diff := cmp.Diff(want, e.allEvents(t, id)); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	// The internal read employee makes: its own company only.
	got := do(t, http.MethodGet, e.internal+"/internal/empresas/"+strconv.FormatInt(id, 10)+"/estabelecimentos/"+
		strconv.FormatInt(principal.ID, 10), nil, e.asEmployee(t))
	if got.status != http.StatusOK || got.body["principal"] != true {
		t.Fatalf("internal read: %d %s", got.status, got.raw)
	}
	other := e.mustRegister(t, 1)
	if a := do(t, http.MethodGet, e.internal+"/internal/empresas/"+strconv.FormatInt(other, 10)+"/estabelecimentos/"+
		strconv.FormatInt(principal.ID, 10), nil, e.asEmployee(t)); a.status != http.StatusNotFound {
		t.Fatalf("another company's establishment internally: %d %s", a.status, a.raw)
	}
}

func TestCreateEstablishmentsOfEachType(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	principalID := e.list(t, id)[0].ID
	rep := empresaREP(0)
	manaus := "America/Manaus"
	cases := []struct {
		body map[string]any
		want internalapi.Estabelecimento
		// empresa is the type-2 block the event must carry.
		empresa timekeepingapi.Empresa
	}{
		{ // a branch, its CNPJ masked in the request
			map[string]any{"tipo": "cnpj", "numero": "11.222.333/0002-62", "nome": "Filial Centro", "endereco": "Rua A, 1"},
			internalapi.Estabelecimento{Tipo: "cnpj", Numero: "11222333000262", Nome: "Filial Centro", Endereco: "Rua A, 1",
				FusoHorario: "America/Sao_Paulo", Ativo: true},
			timekeepingapi.Empresa{CNPJ: "11.222.333/0002-62", RazaoSocial: rep.RazaoSocial, Local: "Rua A, 1"},
		},
		{
			map[string]any{"tipo": "caepf", "numero": "29311861000184", "nome": "Sítio", "endereco": "Estrada B, km 3",
				"fusoHorario": manaus},
			internalapi.Estabelecimento{Tipo: "caepf", Numero: "29311861000184", Nome: "Sítio", Endereco: "Estrada B, km 3",
				FusoHorario: manaus, Ativo: true},
			timekeepingapi.Empresa{CNPJ: rep.CNPJ, RazaoSocial: rep.RazaoSocial, Local: "Estrada B, km 3", CNO: "29311861000184"},
		},
		{
			map[string]any{"tipo": "cno", "numero": "115830024985", "nome": "Obra Norte", "endereco": "Av. C, 100"},
			internalapi.Estabelecimento{Tipo: "cno", Numero: "115830024985", Nome: "Obra Norte", Endereco: "Av. C, 100",
				FusoHorario: "America/Sao_Paulo", Ativo: true},
			timekeepingapi.Empresa{CNPJ: rep.CNPJ, RazaoSocial: rep.RazaoSocial, Local: "Av. C, 100", CNO: "115830024985"},
		},
	}
	created := []internalapi.Estabelecimento{e.list(t, id)[0]}
	for i, tc := range cases {
		a, got := e.est(t, http.MethodPost, "", id, tc.body)
		if a.status != http.StatusCreated {
			t.Fatalf("create %v: %d %s", tc.body, a.status, a.raw)
		}
		tc.want.ID, tc.want.EmpresaID = got.ID, id
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("create %d (-want +got):\n%s", i, diff)
		}
		created = append(created, tc.want)
		emp := tc.empresa
		wantEv := estEvent{int64(3 + i), timekeepingapi.EstabelecimentoIncluido, timekeepingapi.Payload{Empresa: &emp,
			Estabelecimento: &timekeepingapi.Estabelecimento{ID: got.ID, Tipo: tc.want.Tipo, Numero: tc.want.Numero,
				Nome: tc.want.Nome, Ativo: true}}}
		evs := e.allEvents(t, id)
		if diff := cmp.Diff(wantEv, evs[len(evs)-1]); diff != "" {
			t.Errorf("event of %d (-want +got):\n%s", i, diff)
		}
	}
	if diff := cmp.Diff(created, e.list(t, id)); diff != "" || created[0].ID != principalID {
		t.Fatalf("list, principal first (-want +got):\n%s", diff)
	}
	// Another company sees only its own.
	other := e.mustRegister(t, 1)
	if list := e.list(t, other); len(list) != 1 || list[0].EmpresaID != other || !list[0].Principal {
		t.Fatalf("other company's list: %+v", list)
	}
}

func TestEstablishmentRefusedWithNothingStored(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	branch := map[string]any{"tipo": "cnpj", "numero": "11222333000262", "nome": "Filial", "endereco": "Rua A, 1"}
	if a, _ := e.est(t, http.MethodPost, "", id, branch); a.status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.status, a.raw)
	}
	with := func(k string, v any) map[string]any {
		b := map[string]any{"tipo": "cnpj", "numero": "11222333000343", "nome": "Filial 3", "endereco": "Rua B, 2"}
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	long := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a'
		}
		return string(b)
	}
	for name, tc := range map[string]struct {
		body   any
		status int
		code   string
		field  string
	}{
		"wrong check digits":  {with("numero", "11222333000263"), 400, "validacao", "numero"},
		"another root":        {with("numero", "11444777000161"), 400, "validacao", "numero"},
		"unknown tipo":        {with("tipo", "cei"), 400, "validacao", "tipo"},
		"no tipo":             {with("tipo", nil), 400, "validacao", "tipo"},
		"no numero":           {with("numero", nil), 400, "validacao", "numero"},
		"numero too long":     {with("numero", long(21)), 400, "validacao", "numero"},
		"caepf too short":     {map[string]any{"tipo": "caepf", "numero": "2931186100018", "nome": "S", "endereco": "R"}, 400, "validacao", "numero"},
		"cno with letters":    {map[string]any{"tipo": "cno", "numero": "11583002498A", "nome": "O", "endereco": "R"}, 400, "validacao", "numero"},
		"no nome":             {with("nome", nil), 400, "validacao", "nome"},
		"nome too long":       {with("nome", long(121)), 400, "validacao", "nome"},
		"no endereco":         {with("endereco", nil), 400, "validacao", "endereco"},
		"endereco too long":   {with("endereco", long(101)), 400, "validacao", "endereco"},
		"unknown zone":        {with("fusoHorario", "Mars/Olympus"), 400, "validacao", "fusoHorario"},
		"duplicate branch":    {branch, 409, "estabelecimento_duplicado", ""},
		"duplicate principal": {with("numero", "11222333000181"), 409, "estabelecimento_duplicado", ""},
	} {
		t.Run(name, func(t *testing.T) {
			a, _ := e.est(t, http.MethodPost, "", id, tc.body)
			if a.status != tc.status || a.code() != tc.code {
				t.Fatalf("%d %s; want %d %s", a.status, a.raw, tc.status, tc.code)
			}
			if _, ok := a.fields()[tc.field]; tc.field != "" && !ok {
				t.Fatalf("answer does not name %s: %s", tc.field, a.raw)
			}
		})
	}
	if a, _ := e.est(t, http.MethodPost, "", id, `{"tipo":"cnpj","extra":1}`); a.status != http.StatusBadRequest {
		t.Fatalf("unknown field: %d %s", a.status, a.raw)
	}
	if n := e.count(t, "estabelecimentos"); n != 2 {
		t.Fatalf("%d establishments stored; want 2", n)
	}
	if n := len(e.allEvents(t, id)); n != 3 {
		t.Fatalf("%d events; want 3", n)
	}
}

func TestChangeAndDeactivateEstablishments(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	other := e.mustRegister(t, 1)
	principal := e.list(t, id)[0]
	_, branch := e.est(t, http.MethodPost, "", id,
		map[string]any{"tipo": "cnpj", "numero": "11222333000262", "nome": "Filial", "endereco": "Rua A, 1"})
	path := "/" + strconv.FormatInt(branch.ID, 10)
	patch := func(p string, body any, status int, code string) internalapi.Estabelecimento {
		t.Helper()
		a, v := e.est(t, http.MethodPatch, p, id, body)
		if a.status != status || (code != "" && a.code() != code) {
			t.Fatalf("PATCH %s %v: %d %s; want %d %s", p, body, a.status, a.raw, status, code)
		}
		return v
	}
	before := len(e.allEvents(t, id))

	// A new name is the REP's business, a new zone alone is not.
	if got := patch(path, map[string]any{"nome": "Filial Centro"}, 200, ""); got.Nome != "Filial Centro" {
		t.Fatalf("renamed: %+v", got)
	}
	patch(path, map[string]any{"fusoHorario": "America/Manaus"}, 200, "")
	// Refused: nothing changes.
	patch(path, map[string]any{}, 400, "validacao")
	patch(path, map[string]any{"nome": ""}, 400, "validacao")
	patch(path, map[string]any{"numero": "11222333000343"}, 400, "")
	patch("/"+strconv.FormatInt(principal.ID, 10), map[string]any{"ativo": false}, 409, "estabelecimento_principal")
	e.employee.set(id, branch.ID, 2, 0)
	patch(path, map[string]any{"ativo": false, "nome": "Fechada"}, 409, "estabelecimento_com_funcionarios")
	e.employee.set(id, branch.ID, 0, http.StatusInternalServerError)
	patch(path, map[string]any{"ativo": false}, 503, "")
	// Another company's establishment does not exist for the caller.
	if a, _ := e.est(t, http.MethodPatch, path, other, map[string]any{"nome": "Intrusa"}); a.status != http.StatusNotFound {
		t.Fatalf("other company: %d %s", a.status, a.raw)
	}
	if got := e.list(t, id)[1]; got.Nome != "Filial Centro" || !got.Ativo || got.FusoHorario != "America/Manaus" {
		t.Fatalf("after refused changes: %+v", got)
	}
	// With no active employee left, it is deactivated.
	e.employee.set(id, branch.ID, 0, 0)
	if got := patch(path, map[string]any{"ativo": false}, 200, ""); got.Ativo {
		t.Fatalf("deactivated: %+v", got)
	}
	rep := empresaREP(0)
	emp := timekeepingapi.Empresa{CNPJ: "11.222.333/0002-62", RazaoSocial: rep.RazaoSocial, Local: "Rua A, 1"}
	est := func(nome string, ativo bool) *timekeepingapi.Estabelecimento {
		return &timekeepingapi.Estabelecimento{ID: branch.ID, Tipo: "cnpj", Numero: "11222333000262", Nome: nome, Ativo: ativo}
	}
	want := []estEvent{
		{int64(before + 1), timekeepingapi.EstabelecimentoAlterado, timekeepingapi.Payload{Empresa: &emp, Estabelecimento: est("Filial Centro", true)}},
		{int64(before + 2), timekeepingapi.EstabelecimentoAlterado, timekeepingapi.Payload{Empresa: &emp, Estabelecimento: est("Filial Centro", false)}},
	}
	if diff := cmp.Diff(want, e.allEvents(t, id)[before:]); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	if n := len(e.allEvents(t, other)); n != 2 {
		t.Fatalf("other company has %d events; want its 2", n)
	}
}

// A change of the company's identification reaches every active
// establishment but the principal (whose event is empresa.alterada), in
// order, with the new responsible person.
func TestCompanyChangeReachesItsEstablishments(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	_, a := e.est(t, http.MethodPost, "", id, map[string]any{"tipo": "cno", "numero": "115830024985", "nome": "Obra", "endereco": "Av. C"})
	_, b := e.est(t, http.MethodPost, "", id, map[string]any{"tipo": "cnpj", "numero": "11222333000262", "nome": "Filial", "endereco": "Rua A"})
	_, c := e.est(t, http.MethodPost, "", id, map[string]any{"tipo": "caepf", "numero": "29311861000184", "nome": "Sítio", "endereco": "Estrada"})
	if r, _ := e.est(t, http.MethodPatch, "/"+strconv.FormatInt(c.ID, 10), id, map[string]any{"ativo": false}); r.status != 200 {
		t.Fatalf("deactivate: %d %s", r.status, r.raw)
	}
	before := len(e.allEvents(t, id))
	if r := e.patchMe(t, id, map[string]any{"responsavel": map[string]any{"nome": "Ana Souza", "cpf": "529.982.247-25"}}); r.status != 200 {
		t.Fatalf("PATCH me: %d %s", r.status, r.raw)
	}
	rep := empresaREP(0)
	rep.Responsavel = &timekeepingapi.Responsavel{Nome: "Ana Souza", CPF: "529.982.247-25"}
	obra, filial := rep, rep
	obra.Local, obra.CNO = "Av. C", "115830024985"
	filial.Local, filial.CNPJ = "Rua A", "11.222.333/0002-62"
	want := []estEvent{
		{int64(before + 1), timekeepingapi.EmpresaAlterada, timekeepingapi.Payload{Empresa: &rep}},
		{int64(before + 2), timekeepingapi.EstabelecimentoAlterado, timekeepingapi.Payload{Empresa: &obra,
			Estabelecimento: &timekeepingapi.Estabelecimento{ID: a.ID, Tipo: "cno", Numero: "115830024985", Nome: "Obra", Ativo: true}}},
		{int64(before + 3), timekeepingapi.EstabelecimentoAlterado, timekeepingapi.Payload{Empresa: &filial,
			Estabelecimento: &timekeepingapi.Estabelecimento{ID: b.ID, Tipo: "cnpj", Numero: "11222333000262", Nome: "Filial", Ativo: true}}},
	}
	if diff := cmp.Diff(want, e.allEvents(t, id)[before:]); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
}

// A blocked company changes none of its establishments: 403, nothing
// stored, no event.
func TestBlockedCompanyTouchesNoEstablishment(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	_, branch := e.est(t, http.MethodPost, "", id, map[string]any{"tipo": "cno", "numero": "115830024985", "nome": "Obra", "endereco": "Av. C"})
	if s := do(t, http.MethodPut, e.public+"/admin/empresas/"+strconv.FormatInt(id, 10)+"/bloquear", nil, bearer(e.iss.Admin(t))).status; s != http.StatusOK {
		t.Fatalf("block: %d", s)
	}
	before := len(e.allEvents(t, id))
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, "", nil},
		{http.MethodPost, "", map[string]any{"tipo": "cno", "numero": "115830024993", "nome": "Outra", "endereco": "Rua D"}},
		{http.MethodPatch, "/" + strconv.FormatInt(branch.ID, 10), map[string]any{"nome": "Renomeada"}},
	} {
		if a, _ := e.est(t, tc.method, tc.path, id, tc.body); a.status != http.StatusForbidden || a.code() != "empresa_bloqueada" {
			t.Errorf("%s %s: %d %s; want 403 empresa_bloqueada", tc.method, tc.path, a.status, a.raw)
		}
	}
	if n := e.count(t, "estabelecimentos"); n != 2 {
		t.Fatalf("%d establishments; want 2", n)
	}
	if n := len(e.allEvents(t, id)); n != before {
		t.Fatalf("%d events after refused changes; want %d", n, before)
	}
}
