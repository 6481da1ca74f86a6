package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/mailtest"
)

func (h *harness) requestCode(email string) answer {
	h.t.Helper()
	return h.post("/auth/login/funcionario/codigo", map[string]string{"email": email})
}

func (h *harness) loginCode(email, code string) answer {
	h.t.Helper()
	return h.post("/auth/login/funcionario", map[string]string{"email": email, "codeVerify": code})
}

// codeByMail asks for a code and reads it from the e-mail that arrives.
func (h *harness) codeByMail(email string) (string, mailtest.Decoded) {
	h.t.Helper()
	h.requestCode(email).expect(h.t, http.StatusAccepted)
	m := h.smtp.Next(h.t)
	d := decodeMail(h.t, m.Data)
	return codeFrom(h.t, d.Body), d
}

// wrongCode is a well-formed code other than code.
func wrongCode(code string) string {
	return code[:5] + fmt.Sprint((int(code[5]-'0')+1)%10)
}

// codeKey is where the code of email lives (see codes.Store).
func (h *harness) codeKey(email string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(email)))
	return h.cfg.Auth.RedisPrefix + "code:" + hex.EncodeToString(sum[:])
}

// The whole employee flow: request → e-mail → login → the code refused the
// second time → a new code refused after 5 wrong tries.
func TestEmployeeCodeFlow(t *testing.T) {
	t.Parallel()
	h := start(t)

	// Request: 202, the e-mail arrives over SMTP with the code.
	a := h.requestCode(funcEmail).expect(t, http.StatusAccepted)
	if a.str("message") == "" {
		t.Errorf("202 without a message: %s", a.raw)
	}
	m := h.smtp.Next(t)
	if len(m.To) != 1 || m.To[0] != funcEmail || m.From != "nao-responda@ponto.test" {
		t.Errorf("envelope from %q to %v", m.From, m.To)
	}
	d := decodeMail(t, m.Data)
	if d.Subject != "Seu código de acesso ao ponto" {
		t.Errorf("subject %q", d.Subject)
	}
	for _, want := range []string{"Olá, Ana Souza!", "Seu código de acesso ao ponto é:", "Ele vale por 10 minutos", "só pode ser usado uma vez"} {
		if !strings.Contains(d.Body, want) {
			t.Errorf("e-mail body lacks %q:\n%s", want, d.Body)
		}
	}
	code := codeFrom(t, d.Body)

	// The employee service was told the code's hash (never the code).
	puts := h.employees.callsTo("PUT /internal/funcionarios/700/code-verify")
	if len(puts) != 1 {
		t.Fatalf("code-verify calls: %+v", h.employees.Calls())
	}
	hash, _ := puts[0].Body["codeVerify"].(string)
	if len(hash) != 64 || strings.Contains(hash, code) {
		t.Errorf("codeVerify %q is not a hash of the code", hash)
	}
	if got := h.rdb.HGet(context.Background(), h.codeKey(funcEmail), "h").Val(); got != hash {
		t.Errorf("Redis holds %q, the employee service %q", got, hash)
	}

	// Login with the code (e-mail case does not matter).
	a = h.loginCode(strings.ToUpper(funcEmail), code).expect(t, http.StatusOK)
	user, _ := a.body["user"].(map[string]any)
	if user["id"] != float64(funcID) || user["email"] != funcEmail || user["nome"] != "Ana Souza" ||
		user["empresaId"] != float64(empresaID) || user["cpfcnpj"] != "529.982.247-25" || user["ativo"] != true {
		t.Errorf("user %v", user)
	}
	if _, ok := user["password"]; ok {
		t.Error("user carries a password")
	}
	if v, ok := user["codeVerify"]; !ok || v != nil {
		t.Errorf("user.codeVerify = %v, want null: the login-code hash stays internal", v)
	}
	c := h.verify(h.verifier(), a.str("token"))
	if c.Role != jwtauth.RoleFuncionario || c.EmpresaID != empresaID || c.FuncionarioID != funcID || c.Subject != "funcionario:700" {
		t.Errorf("claims %+v", c)
	}
	r := h.refresh(a.str("refreshToken")).expect(t, http.StatusOK)
	if h.verify(h.verifier(), r.str("accessToken")).FuncionarioID != funcID {
		t.Error("refreshed token lost funcionarioId")
	}

	// The same code a second time: refused.
	first := h.loginCode(funcEmail, code).expectError(t, http.StatusUnauthorized, "codigo_invalido")

	// A new code dies after 5 wrong tries, even the right one after that.
	code2, _ := h.codeByMail(funcEmail)
	for i := range 5 {
		a := h.loginCode(funcEmail, wrongCode(code2)).expect(t, http.StatusUnauthorized)
		if string(a.raw) != string(first.raw) {
			t.Errorf("wrong try %d answered %s, want the same 401 as a used code: %s", i+1, a.raw, first.raw)
		}
	}
	if a := h.loginCode(funcEmail, code2); a.status != http.StatusUnauthorized || string(a.raw) != string(first.raw) {
		t.Fatalf("right code after 5 wrong tries: %d %s", a.status, a.raw)
	}
	if n := h.rdb.Exists(context.Background(), h.codeKey(funcEmail)).Val(); n != 0 {
		t.Error("the exhausted code is still in Redis")
	}
}

// Wrong tries below the limit only cost tries: the right code still works.
func TestEmployeeCodeSurvivesFewWrongTries(t *testing.T) {
	t.Parallel()
	h := start(t)
	code, _ := h.codeByMail(funcEmail)
	for range 4 {
		h.loginCode(funcEmail, wrongCode(code)).expect(t, http.StatusUnauthorized)
	}
	if tries := h.rdb.HGet(context.Background(), h.codeKey(funcEmail), "tries").Val(); tries != "1" {
		t.Errorf("tries left %q, want 1", tries)
	}
	h.loginCode(funcEmail, code).expect(t, http.StatusOK)
}

// A new code replaces the previous one.
func TestEmployeeNewCodeReplacesOld(t *testing.T) {
	t.Parallel()
	h := start(t)
	old, _ := h.codeByMail(funcEmail)
	code, _ := h.codeByMail(funcEmail)
	if old != code {
		h.loginCode(funcEmail, old).expect(t, http.StatusUnauthorized)
	}
	h.loginCode(funcEmail, code).expect(t, http.StatusOK)
}

// A code of one employee does not open another's account.
func TestEmployeeCodeBoundToEmail(t *testing.T) {
	t.Parallel()
	h := start(t)
	code, _ := h.codeByMail(funcEmail)
	h.loginCode(func2, code).expectError(t, http.StatusUnauthorized, "codigo_invalido")
	h.loginCode(funcEmail, code).expect(t, http.StatusOK)
}

func TestEmployeeCodeExpires(t *testing.T) {
	t.Parallel()
	h := start(t, func(c *Config) { c.Auth.CodeTTL = 3 * time.Second })
	code, d := h.codeByMail(funcEmail)
	if !strings.Contains(d.Body, "Ele vale por 3 segundos") {
		t.Errorf("body does not state the validity:\n%s", d.Body)
	}
	ttl := h.rdb.PTTL(context.Background(), h.codeKey(funcEmail)).Val()
	if ttl <= 0 {
		t.Fatalf("the code is not live in Redis (PTTL %v)", ttl)
	}
	time.Sleep(ttl + 100*time.Millisecond)
	h.loginCode(funcEmail, code).expectError(t, http.StatusUnauthorized, "codigo_invalido")
}

// Two logins racing with the same code: exactly one succeeds.
func TestEmployeeCodeUsableOnceUnderConcurrency(t *testing.T) {
	t.Parallel()
	h := start(t)
	code, _ := h.codeByMail(funcEmail)
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	ready := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-ready
			statuses[i] = h.loginCode(funcEmail, code).status
		})
	}
	close(ready)
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		switch s {
		case http.StatusOK:
			ok++
		case http.StatusUnauthorized:
		default:
			t.Errorf("status %d", s)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of %d concurrent logins with one code succeeded: %v", ok, n, statuses)
	}
	if n := h.keysMatching("rt:sub:funcionario:700"); n != 1 {
		t.Errorf("%d subject indexes", n)
	}
}

// Unknown, inactive and blocked-company employees get the same 202 and no
// e-mail; nothing is stored for them.
func TestEmployeeCodeNoEnumeration(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.employees.set(func2ID, "ativo", false)
	h.billing.block(outraEmpresaEmail, true)

	ref := h.requestCode(funcEmail).expect(t, http.StatusAccepted)
	h.smtp.Next(t)
	for _, email := range []string{"ninguem@padaria.com.br", func2, outraFunc} {
		a := h.requestCode(email).expect(t, http.StatusAccepted)
		if string(a.raw) != string(ref.raw) {
			t.Errorf("%s: %s, want the same answer as for an active employee: %s", email, a.raw, ref.raw)
		}
	}
	h.deps.login.Drain(5 * time.Second)
	h.smtp.None(t)
	for _, email := range []string{"ninguem@padaria.com.br", func2, outraFunc} {
		if len(h.employees.callsTo("GET /internal/funcionarios/vinculos?email="+strings.ReplaceAll(email, "@", "%40"))) != 1 {
			t.Errorf("%s was not looked up: %+v", email, h.employees.Calls())
		}
		if h.rdb.Exists(context.Background(), h.codeKey(email)).Val() != 0 {
			t.Errorf("a code was stored for %s", email)
		}
	}
	if n := len(h.employees.callsTo("PUT ")); n != 1 {
		t.Errorf("%d code-verify calls, want only the active employee's", n)
	}
	h.waitLog("no employee with this e-mail")
	h.waitLog("employee inactive or company blocked")
}

// An employee deactivated (or whose company got blocked) between the code
// and the login cannot use the code.
func TestEmployeeDeactivatedAfterCode(t *testing.T) {
	t.Parallel()
	h := start(t)
	code, _ := h.codeByMail(funcEmail)
	h.employees.set(funcID, "ativo", false)
	h.loginCode(funcEmail, code).expectError(t, http.StatusUnauthorized, "codigo_invalido")

	h.employees.set(funcID, "ativo", true)
	code, _ = h.codeByMail(funcEmail)
	h.billing.block(empresaEmail, true)
	h.loginCode(funcEmail, code).expectError(t, http.StatusUnauthorized, "codigo_invalido")
}

// With the employee service down the request still answers 202 and the
// failure is logged; a login then fails with 503 without burning the code.
func TestEmployeeServiceDown(t *testing.T) {
	t.Parallel()
	h := start(t)
	code, _ := h.codeByMail(funcEmail)

	h.employees.setDown(true)
	h.requestCode(func2).expect(t, http.StatusAccepted)
	h.waitLog("login code: employee lookup failed")
	h.loginCode(funcEmail, code).expectError(t, http.StatusServiceUnavailable, "dependencia_indisponivel")

	h.employees.setDown(false)
	h.loginCode(funcEmail, code).expect(t, http.StatusOK)
}

// Without SMTP the code goes to the log (local development) and works.
func TestEmployeeCodeLogSink(t *testing.T) {
	t.Parallel()
	h := start(t, func(c *Config) { c.Auth.SMTP.Addr = ""; c.Auth.CodeSecret = "" })
	h.requestCode(funcEmail).expect(t, http.StatusAccepted)
	line := h.waitLog("e-mail written to the log")
	if line["level"] != "WARN" || line["to"] != funcEmail {
		t.Errorf("log line %v", line)
	}
	body, _ := line["body"].(string)
	h.loginCode(funcEmail, codeFrom(t, body)).expect(t, http.StatusOK)
	h.smtp.None(t)
}

func TestEmployeeLoginValidation(t *testing.T) {
	t.Parallel()
	h := start(t)
	for _, tc := range []struct{ body, field string }{
		{`{"email":"ana@padaria.com.br"}`, "codeVerify"},
		{`{"email":"ana@padaria.com.br","codeVerify":"12345"}`, "codeVerify"},
		{`{"email":"ana@padaria.com.br","codeVerify":"12a456"}`, "codeVerify"},
		{`{"email":"ana@padaria.com.br","codeVerify":123456}`, "codeVerify"},
		{`{"codeVerify":"123456"}`, "email"},
	} {
		a := h.post("/auth/login/funcionario", tc.body).expectError(t, http.StatusBadRequest, "validacao")
		if f, _ := a.body["fields"].(map[string]any); f[tc.field] == nil {
			t.Errorf("%s: answer %s does not name %s", tc.body, a.raw, tc.field)
		}
	}
	h.post("/auth/login/funcionario/codigo", `{"email":"x"}`).expectError(t, http.StatusBadRequest, "validacao")
	h.post("/auth/login/funcionario/codigo", `{}`).expectError(t, http.StatusBadRequest, "validacao")
	if n := len(h.employees.Calls()); n != 0 {
		t.Errorf("invalid input reached the employee service %d times", n)
	}
}

// One person employed by two companies under one e-mail: one code, and a
// login that asks which employer (by name) once the code is proven; with
// empresaId it logs into that one. A wrong code learns nothing.
func TestEmployeeWithTwoEmployers(t *testing.T) {
	t.Parallel()
	h := start(t)
	const otherJob = 990
	h.employees.add(otherJob, outraEmpresaID, strings.ToUpper(funcEmail), "Ana Souza")

	code, _ := h.codeByMail(funcEmail)
	wrong := "000000"
	if wrong == code {
		wrong = "111111"
	}
	if a := h.loginCode(funcEmail, wrong); a.status != http.StatusUnauthorized || strings.Contains(string(a.raw), "Padaria") {
		t.Fatalf("a wrong code: %d %s", a.status, a.raw)
	}
	a := h.loginCode(funcEmail, code).expectError(t, http.StatusConflict, "empresa_ambigua")
	empresas, _ := a.body["empresas"].([]any)
	if len(empresas) != 2 {
		t.Fatalf("employers: %s", a.raw)
	}
	for i, id := range []int64{empresaID, outraEmpresaID} {
		e := empresas[i].(map[string]any)
		if e["id"] != float64(id) || e["nome"] != "Padaria "+strconv.FormatInt(id, 10) || len(e) != 2 {
			t.Errorf("employer %d: %v (want id and name only)", i, e)
		}
	}
	// The 409 did not use the code up.
	b := h.post("/auth/login/funcionario", map[string]any{"email": funcEmail, "codeVerify": code, "empresaId": outraEmpresaID}).
		expect(t, http.StatusOK)
	if u, _ := b.body["user"].(map[string]any); u["id"] != float64(otherJob) || u["empresaId"] != float64(outraEmpresaID) {
		t.Errorf("logged in as %v", b.body["user"])
	}
	// Used up now.
	h.post("/auth/login/funcionario", map[string]any{"email": funcEmail, "codeVerify": code, "empresaId": empresaID}).
		expect(t, http.StatusUnauthorized)
}
