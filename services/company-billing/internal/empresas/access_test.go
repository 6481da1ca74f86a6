package empresas

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ponto/ponto/pkg/ratelimit"
)

func TestMeShowsOnlyTheCallersCompany(t *testing.T) {
	e := newEnv(t)
	a := e.mustRegister(t, 0)
	b := e.mustRegister(t, 1)

	for _, id := range []int64{a, b} {
		ans := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id)))
		if ans.status != http.StatusOK {
			t.Fatalf("company %d: %d %s", id, ans.status, ans.raw)
		}
		if got, _ := ans.body["id"].(json.Number).Int64(); got != id {
			t.Errorf("company %d's token sees company %d", id, got)
		}
		if ans.body["cnpj"] != validRequest(int(id - 1))["cnpj"] || ans.body["nome"] != "Padaria Pão Quente" {
			t.Errorf("company %d: %s", id, ans.raw)
		}
		if _, ok := ans.body["password"]; ok {
			t.Errorf("GET /empresas/me shows the password hash")
		}
	}
	if ans := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, 999))); ans.status != http.StatusNotFound {
		t.Errorf("unknown company: %d", ans.status)
	}
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

	list := func(query string) (got []int64, total int64, a answer) {
		a = do(t, http.MethodGet, e.public+"/admin/empresas"+query, nil, admin)
		if a.status != http.StatusOK {
			return nil, 0, a
		}
		for _, it := range a.body["itens"].([]any) {
			id, _ := it.(map[string]any)["id"].(json.Number).Int64()
			got = append(got, id)
		}
		total, _ = a.body["total"].(json.Number).Int64()
		return got, total, a
	}
	for _, c := range []struct {
		query string
		want  []int64
		total int64
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
	item := a.body["itens"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "email", "nome", "razaoSocial", "cnpj", "role", "nomeDoPlano", "assinaturaStatus", "bloqueada", "billingCustomerId", "criadaEm"} {
		if _, ok := item[k]; !ok {
			t.Errorf("admin item lacks %s", k)
		}
	}
	if _, ok := item["password"]; ok {
		t.Error("admin listing shows the password hash")
	}
	if a.body["pagina"] != json.Number("1") || a.body["tamanho"] != json.Number("1") {
		t.Errorf("envelope %s", a.raw)
	}
	for _, q := range []string{"?tamanho=0", "?tamanho=101", "?pagina=0", "?pagina=abc", "?status=ativo", "?bloqueada=sim"} {
		if _, _, a := list(q); a.status != http.StatusBadRequest {
			t.Errorf("%q: %d, want 400", q, a.status)
		}
	}
}

func TestBloquearRevokesTokensAndRefusesTheCompany(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	other := e.mustRegister(t, 1)
	admin := bearer(e.iss.Admin(t))
	base := e.public + "/admin/empresas/" + strconv.FormatInt(id, 10)

	a := do(t, http.MethodPut, base+"/bloquear", nil, admin)
	if a.status != http.StatusOK || a.body["bloqueada"] != true {
		t.Fatalf("bloquear: %d %s", a.status, a.raw)
	}
	calls := e.auth.Calls()
	if len(calls) != 1 || calls[0]["empresaId"] != float64(id) || len(calls[0]) != 1 {
		t.Fatalf("auth got %v, want one {\"empresaId\": %d}", calls, id)
	}
	me := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id)))
	if me.status != http.StatusForbidden || me.code() != "empresa_bloqueada" {
		t.Errorf("blocked company's /empresas/me: %d %s", me.status, me.raw)
	}
	login := do(t, http.MethodPost, e.internal+"/internal/empresas/login",
		map[string]any{"email": validRequest(0)["email"], "password": "segredo123"}, e.asAuth(t))
	if login.status != http.StatusForbidden || login.code() != "empresa_bloqueada" {
		t.Errorf("blocked company's login: %d %s", login.status, login.raw)
	}
	if a := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, other))); a.status != http.StatusOK {
		t.Errorf("another company was blocked too: %d", a.status)
	}

	if a := do(t, http.MethodPut, base+"/desbloquear", nil, admin); a.status != http.StatusOK || a.body["bloqueada"] != false {
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
	if a.status != http.StatusOK {
		t.Fatalf("login: %d %s", a.status, a.raw)
	}
	want := []string{"assinaturaStatus", "bloqueada", "cnpj", "email", "fusoHorario", "id", "nome", "nomeDoPlano", "razaoSocial", "responsavel", "role"}
	if got := sortedKeys(a.body); !slices.Equal(got, want) {
		t.Errorf("company view keys %v, want %v", got, want)
	}
	if got, _ := a.body["id"].(json.Number).Int64(); got != id || a.body["role"] != "empresa_plan_basic" {
		t.Errorf("company view %s", a.raw)
	}
	if a := login(map[string]any{"email": "CONTATOA@Empresa.com.br", "password": "segredo123"}); a.status != http.StatusOK {
		t.Errorf("e-mail in another case: %d", a.status)
	}

	wrong := login(map[string]any{"email": email, "password": "outrasenha1"})
	unknown := login(map[string]any{"email": "ninguem@empresa.com.br", "password": "segredo123"})
	if wrong.status != http.StatusUnauthorized || wrong.code() != "credenciais_invalidas" {
		t.Errorf("wrong password: %d %s", wrong.status, wrong.raw)
	}
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
	if a.status != http.StatusOK || a.body["cnpj"] != testCNPJs[0] || a.body["bloqueada"] != false {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	if _, ok := a.body["password"]; ok {
		t.Error("internal view shows the password hash")
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
