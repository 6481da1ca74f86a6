package empresas

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ponto/ponto/pkg/ratelimit"
)

func TestMeShowsOnlyTheCallersCompany(t *testing.T) {
	e := newEnv(t)
	a := e.mustRegister(t, 0)
	b := e.mustRegister(t, 1)

	for _, id := range []int64{a, b} {
		ans := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id)))
		wantOutcome(t, "GET /empresas/me", ans, outcome{Status: http.StatusOK})
		got := decodeAs[wireEmpresa](t, ans)
		req := validRequest(int(id - 1))
		// No password: the hash never leaves the service again.
		want := wireEmpresa{ID: id, CNPJ: req["cnpj"].(string), DataAbertura: req["dataAbertura"].(string),
			Email: req["email"].(string), InvoiceID: got.InvoiceID, NomeDoPlano: "basic", PrecoID: "price_1basic",
			RazaoSocial: req["razaoSocial"].(string), Role: "empresa_plan_basic", BillingCustomerID: got.BillingCustomerID,
			FusoHorario: "America/Sao_Paulo", Nome: "Padaria Pão Quente"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("company %d's /empresas/me (-want +got):\n%s", id, diff)
		}
	}
	wantOutcome(t, "unknown company", do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, 999))),
		outcome{http.StatusNotFound, "nao_encontrado"})
}

func TestRoutesRefuseWrongCallers(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	ids := strconv.FormatInt(id, 10)
	empresa := bearer(e.iss.Empresa(t, id))
	funcionario := bearer(e.iss.Funcionario(t, id, 7))
	admin := bearer(e.iss.Admin(t))
	for _, c := range []struct {
		method, path string
		header       map[string]string
		status       int
	}{
		{http.MethodGet, "/empresas/me", nil, http.StatusUnauthorized},
		{http.MethodGet, "/empresas/me", map[string]string{"Authorization": "Bearer abc.def.ghi"}, http.StatusUnauthorized},
		{http.MethodGet, "/empresas/me", funcionario, http.StatusForbidden},
		{http.MethodGet, "/empresas/me", admin, http.StatusForbidden},
		{http.MethodPatch, "/empresas/me", nil, http.StatusUnauthorized},
		{http.MethodPatch, "/empresas/me", funcionario, http.StatusForbidden},
		{http.MethodPatch, "/empresas/me", admin, http.StatusForbidden},
		{http.MethodGet, "/admin/empresas", nil, http.StatusUnauthorized},
		{http.MethodGet, "/admin/empresas", empresa, http.StatusForbidden},
		{http.MethodGet, "/admin/empresas", funcionario, http.StatusForbidden},
		{http.MethodPut, "/admin/empresas/" + ids + "/bloquear", nil, http.StatusUnauthorized},
		{http.MethodPut, "/admin/empresas/" + ids + "/bloquear", empresa, http.StatusForbidden},
		{http.MethodPut, "/admin/empresas/" + ids + "/bloquear", funcionario, http.StatusForbidden},
		{http.MethodPut, "/admin/empresas/" + ids + "/desbloquear", empresa, http.StatusForbidden},
		// The internal API is not on the public listener.
		{http.MethodGet, "/internal/empresas/" + ids, nil, http.StatusNotFound},
	} {
		if a := do(t, c.method, e.public+c.path, nil, c.header); a.status != c.status {
			t.Errorf("%s %s: %d, want %d (%s)", c.method, c.path, a.status, c.status, a.raw)
		}
	}
	if calls := e.auth.Calls(); len(calls) != 0 {
		t.Errorf("refused calls reached auth: %v", calls)
	}
	if a := do(t, http.MethodGet, e.public+"/empresas/me", nil, empresa); a.status != http.StatusOK {
		t.Errorf("company still blocked? %d", a.status)
	}
}

func TestAdminListPaginatesAndFilters(t *testing.T) {
	e := newEnv(t)
	var ids []int64
	for n := range 3 {
		ids = append(ids, e.mustRegister(t, n))
	}
	admin := bearer(e.iss.Admin(t))
	if _, err := e.db.Exec(t.Context(), `UPDATE empresas SET assinatura_status = 'trialing' WHERE id <> $1`, ids[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Exec(t.Context(), `UPDATE empresas SET bloqueada = true WHERE id = $1`, ids[2]); err != nil {
		t.Fatal(err)
	}

	list := func(query string) (got []int64, total int, a answer) {
		a = do(t, http.MethodGet, e.public+"/admin/empresas"+query, nil, admin)
		if a.status != http.StatusOK {
			return nil, 0, a
		}
		p := decodeAs[wirePage[wireCompany]](t, a)
		for _, it := range p.Itens {
			got = append(got, it.ID)
		}
		return got, p.Total, a
	}
	for _, c := range []struct {
		query string
		want  []int64
		total int
	}{
		{"", ids, 3},
		{"?tamanho=2", ids[:2], 3},
		{"?tamanho=2&pagina=2", ids[2:], 3},
		{"?tamanho=2&pagina=3", nil, 3},
		{"?status=trialing", []int64{ids[0], ids[2]}, 2},
		{"?bloqueada=true", ids[2:], 1},
		{"?bloqueada=false&status=trialing", ids[:1], 1},
	} {
		got, total, a := list(c.query)
		if a.status != http.StatusOK || !slices.Equal(got, c.want) || total != c.total {
			t.Errorf("%q: ids %v total %d (status %d), want %v total %d", c.query, got, total, a.status, c.want, c.total)
		}
	}
	_, _, a := list("?tamanho=1")
	// The company view and what support needs; no password hash (an
	// unknown field fails decodeAs).
	p := decodeAs[wirePage[wireCompany]](t, a)
	trialing, req := "trialing", validRequest(0)
	item := p.Itens[0]
	want := wirePage[wireCompany]{Pagina: 1, Tamanho: 1, Total: 3, Itens: []wireCompany{{
		ID: ids[0], Email: req["email"].(string), Nome: req["nome"].(string), RazaoSocial: req["razaoSocial"].(string),
		CNPJ: req["cnpj"].(string), Role: "empresa_plan_basic", NomeDoPlano: "basic", AssinaturaStatus: &trialing,
		FusoHorario: "America/Sao_Paulo", BillingCustomerID: item.BillingCustomerID, SubscriptionID: item.SubscriptionID,
		PrecoID: "price_1basic", CriadaEm: item.CriadaEm,
	}}}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("admin listing (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(item.BillingCustomerID, "cus_") || !strings.HasPrefix(item.SubscriptionID, "sub_") || item.CriadaEm == "" {
		t.Errorf("admin item's Stripe ids %q, %q, criadaEm %q", item.BillingCustomerID, item.SubscriptionID, item.CriadaEm)
	}
	for _, q := range []string{"?tamanho=0", "?tamanho=101", "?pagina=0", "?pagina=abc", "?status=ativo", "?bloqueada=sim"} {
		_, _, a := list(q)
		wantOutcome(t, q, a, outcome{http.StatusBadRequest, "validacao"})
	}
}

func TestBloquearRevokesTokensAndRefusesTheCompany(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	other := e.mustRegister(t, 1)
	admin := bearer(e.iss.Admin(t))
	base := e.public + "/admin/empresas/" + strconv.FormatInt(id, 10)

	a := do(t, http.MethodPut, base+"/bloquear", nil, admin)
	wantOutcome(t, "bloquear", a, outcome{Status: http.StatusOK})
	if !decodeAs[wireCompany](t, a).Bloqueada {
		t.Fatalf("bloquear answered %s", a.raw)
	}
	calls := e.auth.Calls()
	if len(calls) != 1 || calls[0]["empresaId"] != float64(id) || len(calls[0]) != 1 {
		t.Fatalf("auth got %v, want one {\"empresaId\": %d}", calls, id)
	}
	wantOutcome(t, "blocked company's /empresas/me", do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id))),
		outcome{http.StatusForbidden, "empresa_bloqueada"})
	wantOutcome(t, "blocked company's login", do(t, http.MethodPost, e.internal+"/internal/empresas/login",
		map[string]any{"email": validRequest(0)["email"], "password": "segredo123"}, e.asAuth(t)), outcome{http.StatusForbidden, "empresa_bloqueada"})
	if a := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, other))); a.status != http.StatusOK {
		t.Errorf("another company was blocked too: %d", a.status)
	}

	if a := do(t, http.MethodPut, base+"/desbloquear", nil, admin); a.status != http.StatusOK || decodeAs[wireCompany](t, a).Bloqueada {
		t.Fatalf("desbloquear: %d %s", a.status, a.raw)
	}
	if a := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id))); a.status != http.StatusOK {
		t.Errorf("unblocked company: %d", a.status)
	}

	for _, path := range []string{"/admin/empresas/999/bloquear", "/admin/empresas/999/desbloquear"} {
		if a := do(t, http.MethodPut, e.public+path, nil, admin); a.status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, a.status)
		}
	}
	if a := do(t, http.MethodPut, e.public+"/admin/empresas/abc/bloquear", nil, admin); a.status != http.StatusBadRequest {
		t.Errorf("non-numeric id: %d, want 400", a.status)
	}
	if n := len(e.auth.Calls()); n != 1 {
		t.Errorf("auth called %d times, want 1", n)
	}
}

func TestBloquearWithAuthDownChangesNothing(t *testing.T) {
	e := newEnv(t, withAuthFailing(http.StatusInternalServerError))
	id := e.mustRegister(t, 0)
	a := do(t, http.MethodPut, e.public+"/admin/empresas/"+strconv.FormatInt(id, 10)+"/bloquear", nil, bearer(e.iss.Admin(t)))
	if a.status != http.StatusServiceUnavailable {
		t.Fatalf("status %d: %s", a.status, a.raw)
	}
	if n := len(e.auth.Calls()); n != 1 {
		t.Errorf("auth called %d times, want 1", n)
	}
	var blocked bool
	if err := e.db.QueryRow(t.Context(), `SELECT bloqueada FROM empresas WHERE id = $1`, id).Scan(&blocked); err != nil {
		t.Fatal(err)
	}
	if blocked {
		t.Error("company left blocked although its tokens were not revoked")
	}
	if a := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id))); a.status != http.StatusOK {
		t.Errorf("/empresas/me after the failed block: %d", a.status)
	}
}

func TestInternalLogin(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	email := validRequest(0)["email"].(string)
	login := func(body any) answer {
		return do(t, http.MethodPost, e.internal+"/internal/empresas/login", body, e.asAuth(t))
	}

	a := login(map[string]any{"email": email, "password": "segredo123"})
	wantOutcome(t, "login", a, outcome{Status: http.StatusOK})
	req := validRequest(0)
	want := wireCompany{ID: id, Email: email, Nome: req["nome"].(string), RazaoSocial: req["razaoSocial"].(string),
		CNPJ: req["cnpj"].(string), Role: "empresa_plan_basic", NomeDoPlano: "basic", FusoHorario: "America/Sao_Paulo"}
	if diff := cmp.Diff(want, decodeAs[wireCompany](t, a)); diff != "" {
		t.Errorf("company view (-want +got):\n%s", diff)
	}
	// Every field of the view is there, null or not.
	keys := []string{"assinaturaStatus", "bloqueada", "cnpj", "email", "fusoHorario", "id", "nome", "nomeDoPlano", "razaoSocial", "responsavel", "role"}
	if diff := cmp.Diff(keys, sortedKeys(a.body)); diff != "" {
		t.Errorf("company view keys (-want +got):\n%s", diff)
	}
	if a := login(map[string]any{"email": "CONTATOA@Empresa.com.br", "password": "segredo123"}); a.status != http.StatusOK {
		t.Errorf("e-mail in another case: %d", a.status)
	}

	wrong := login(map[string]any{"email": email, "password": "outrasenha1"})
	unknown := login(map[string]any{"email": "ninguem@empresa.com.br", "password": "segredo123"})
	wantOutcome(t, "wrong password", wrong, outcome{http.StatusUnauthorized, "credenciais_invalidas"})
	if unknown.status != wrong.status || string(unknown.raw) != string(wrong.raw) {
		t.Errorf("unknown e-mail answers %d %s, wrong password %d %s", unknown.status, unknown.raw, wrong.status, wrong.raw)
	}
	for _, body := range []any{map[string]any{"email": email}, map[string]any{"email": email, "password": "x", "extra": 1}} {
		if a := login(body); a.status != http.StatusBadRequest {
			t.Errorf("%v: %d, want 400", body, a.status)
		}
	}
}

func TestInternalGetEmpresa(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	a := do(t, http.MethodGet, e.internal+"/internal/empresas/"+strconv.FormatInt(id, 10), nil, e.asAuth(t))
	wantOutcome(t, "internal view", a, outcome{Status: http.StatusOK})
	// No password hash: an unknown field fails decodeAs.
	req := validRequest(0)
	want := wireCompany{ID: id, Email: req["email"].(string), Nome: req["nome"].(string), RazaoSocial: req["razaoSocial"].(string),
		CNPJ: testCNPJs[0], Role: "empresa_plan_basic", NomeDoPlano: "basic", FusoHorario: "America/Sao_Paulo"}
	if diff := cmp.Diff(want, decodeAs[wireCompany](t, a)); diff != "" {
		t.Errorf("internal view (-want +got):\n%s", diff)
	}
	if a := do(t, http.MethodGet, e.internal+"/internal/empresas/999", nil, e.asAuth(t)); a.status != http.StatusNotFound {
		t.Errorf("unknown: %d", a.status)
	}
}

// Each internal route lets in its callers' service tokens only: no
// token, a user's token, or another service's is refused, and a refused
// login checks no password.
func TestInternalRoutesNeedTheirCallers(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	login := map[string]any{"email": validRequest(0)["email"], "password": "segredo123"}
	get := e.internal + "/internal/empresas/" + strconv.FormatInt(id, 10)
	for _, tc := range []struct {
		name, method, url string
		body              any
		header            map[string]string
		status            int
	}{
		{"login without a token", http.MethodPost, e.internal + "/internal/empresas/login", login, nil, http.StatusUnauthorized},
		{"login with a company's token", http.MethodPost, e.internal + "/internal/empresas/login", login, bearer(e.iss.Empresa(t, id)), http.StatusUnauthorized},
		{"login by timekeeping", http.MethodPost, e.internal + "/internal/empresas/login", login, bearer(e.iss.Service(t, "timekeeping")), http.StatusForbidden},
		{"get without a token", http.MethodGet, get, nil, nil, http.StatusUnauthorized},
		{"get by employee", http.MethodGet, get, nil, bearer(e.iss.Service(t, "employee")), http.StatusForbidden},
		{"get by timekeeping", http.MethodGet, get, nil, bearer(e.iss.Service(t, "timekeeping")), http.StatusOK},
		{"login by auth", http.MethodPost, e.internal + "/internal/empresas/login", login, e.asAuth(t), http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if a := do(t, tc.method, tc.url, tc.body, tc.header); a.status != tc.status {
				t.Errorf("%d %s, want %d", a.status, a.raw, tc.status)
			}
		})
	}
}

// The internal login has its own budget per e-mail, whoever calls it:
// wrong passwords run it out, then even the right one is a 429, while
// another e-mail still logs in.
func TestInternalLoginLimitedPerEmail(t *testing.T) {
	e := newEnv(t, withLoginLimit(ratelimit.PerMinute(3)))
	e.mustRegister(t, 0)
	e.mustRegister(t, 1)
	login := func(email, password string) answer {
		return do(t, http.MethodPost, e.internal+"/internal/empresas/login", map[string]any{"email": email, "password": password}, e.asAuth(t))
	}
	email := validRequest(0)["email"].(string)
	var got []int
	for _, pw := range []string{"errada-1", "errada-2", "errada-3", "segredo123"} {
		got = append(got, login(email, pw).status)
	}
	if want := []int{401, 401, 401, 429}; !slices.Equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if a := login(strings.ToUpper(email), "segredo123"); a.status != http.StatusTooManyRequests {
		t.Errorf("the same e-mail in capitals: %d, want 429", a.status)
	}
	if a := login(validRequest(1)["email"].(string), "segredo123"); a.status != http.StatusOK {
		t.Errorf("another e-mail: %d %s", a.status, a.raw)
	}
}
