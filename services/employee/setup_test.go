package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/brdocs/brdocstest"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/services/employee/internal/clients/auth"
	"github.com/ponto/ponto/services/employee/internal/clients/companybilling"
)

// env is the whole service on real listeners over a fresh database, with
// a fake auth (JWKS and the revocation route) beside it.
type env struct {
	t        *testing.T
	db       *pgxpool.Pool
	iss      *jwttest.Issuer
	auth     *authStub
	billing  *companyStub
	public   string
	internal string
	running  *servertest.Running
}

func newEnv(t *testing.T) *env {
	t.Helper()
	migrations, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: dbtest.New(t, migrations), iss: jwttest.NewIssuer(t), auth: newAuthStub(t), billing: newCompanyStub(t)}

	// Generous deadlines: a bcrypt hash under the race detector on a busy
	// two-core machine can take seconds, and a request cut short here is a
	// 503 that says nothing about the code.
	cfg := httpserver.Config{
		ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 30 * time.Second,
		RequestTimeout: 60 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
		BodyLimit: 1 << 20,
	}
	srv := httpserver.New(name, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	// Short timeout and no retries: the "auth down" cases must fail fast.
	revoker := auth.New(e.auth.URL(), svcclient.WithTimeout(2*time.Second))
	ests := companybilling.New(e.billing.URL(), svcclient.WithTimeout(2*time.Second), svcclient.WithRetries(0))
	mountRoutes(srv, e.iss.NewVerifier(t), e.db, revoker, clock.New(time.Now), ests)

	r := servertest.Start(t, srv)
	e.public, e.internal, e.running = r.Public, r.Internal, r
	return e
}

// authStub stands in for auth's POST /internal/tokens/revogar, recording
// each body. status is what it answers; down closes it altogether.
type authStub struct {
	srv *httptest.Server

	mu     sync.Mutex
	calls  []map[string]any
	status int
}

func newAuthStub(t *testing.T) *authStub {
	a := &authStub{status: http.StatusNoContent}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /internal/tokens/revogar", func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		a.mu.Lock()
		a.calls = append(a.calls, body)
		status := a.status
		a.mu.Unlock()
		if status >= 400 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"message":"falhou","code":"erro_interno"}`))
			return
		}
		w.WriteHeader(status)
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

func (a *authStub) URL() string { return a.srv.URL }

func (a *authStub) setStatus(s int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.status = s
}

func (a *authStub) Calls() []map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]map[string]any(nil), a.calls...)
}

// response is an answer read whole.
type response struct {
	status int
	body   []byte
}

// obj decodes the body as a JSON object.
func (r response) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

// into decodes the body into v.
func (r response) into(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %T: %v: %s", v, err, r.body)
	}
}

// fields returns the field names of a validation or reference error.
func (r response) fields(t *testing.T) map[string]any {
	t.Helper()
	f, _ := r.obj(t)["fields"].(map[string]any)
	return f
}

// call sends method to base+path with token (may be "") and body (nil,
// a string sent raw, or a value sent as JSON).
func (e *env) call(base, method, path, token string, body any) response {
	e.t.Helper()
	a := servertest.Call(e.t, method, base+path, body, servertest.Bearer(token))
	return response{status: a.Status, body: a.Body}
}

func (e *env) pub(method, path, token string, body any) response {
	e.t.Helper()
	return e.call(e.public, method, path, token, body)
}

// in calls the internal API as the service that calls path does
// (docs/internal-api.md), with its service token.
func (e *env) in(method, path string, body any) response {
	e.t.Helper()
	return e.call(e.internal, method, path, e.iss.Service(e.t, callerOf(method, path)), body)
}

// callerOf is a service allowed to call the internal route of path.
func callerOf(method, path string) string {
	route, _, _ := strings.Cut(path, "?")
	switch {
	case strings.HasSuffix(route, "/foto"):
		return "media"
	case strings.HasSuffix(route, "/code-verify"), strings.HasSuffix(route, "/vinculos"), strings.HasSuffix(route, "/por-email"):
		return "auth"
	case strings.HasSuffix(route, "/ativos"):
		return "company-billing"
	}
	return "timekeeping"
}

// want fails unless r has status.
func want(t *testing.T, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
}

// wantErr fails unless r is an error answer with status and code.
func wantErr(t *testing.T, r response, status int, code string) {
	t.Helper()
	want(t, r, status)
	if got := r.obj(t)["code"]; got != code {
		t.Fatalf("code %v, want %s: %s", got, code, r.body)
	}
}

// count returns how many rows table holds.
func (e *env) count(table string) int {
	e.t.Helper()
	var n int
	if err := e.db.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// company is a company account of the test: its id and token.
type company struct {
	id    int64
	token string
}

func (e *env) company(id int64) company {
	return company{id: id, token: e.iss.Empresa(e.t, id)}
}

// standardHorarios is Monday to Friday, 08:00 to 17:00 with an hour for
// lunch from 12:00: 480 minutes of work a day.
func standardHorarios() []map[string]any {
	day := map[string]any{"entrada": "08:00", "saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 540}
	return []map[string]any{day, day, day, day, day}
}

// escala creates a schedule for c and returns its id.
func (e *env) escala(c company, nome string) int64 {
	e.t.Helper()
	r := e.pub("POST", "/escalatrabalhos", c.token, map[string]any{"empresaId": c.id, "nome": nome, "horarios": standardHorarios()})
	want(e.t, r, 200)
	return int64(r.obj(e.t)["id"].(float64))
}

// departamento creates a department with segments for c.
func (e *env) departamento(c company, nome string, segmentos ...string) int64 {
	e.t.Helper()
	if segmentos == nil {
		segmentos = []string{}
	}
	r := e.pub("POST", "/departamentos", c.token, map[string]any{"nome": nome, "segmentos": segmentos})
	want(e.t, r, 200)
	return int64(r.obj(e.t)["id"].(float64))
}

// seq makes distinct CPFs and e-mails within a test run.
var seq atomic.Int64

func next() int { return int(seq.Add(1)) }

// funcionarioBody is a valid creation body for company c on schedule
// escalaID, changed by the overrides (a nil value deletes the key).
func funcionarioBody(c company, escalaID int64, overrides map[string]any) map[string]any {
	n := next()
	b := map[string]any{
		"cargo":            "Analista",
		"cpf":              brdocstest.CPF(n),
		"dataNascimento":   "15/08/1990",
		"email":            fmt.Sprintf("pessoa%d@empresa.com.br", n),
		"empresaId":        c.id,
		"escalaTrabalhoId": escalaID,
		"nome":             fmt.Sprintf("Pessoa %d da Silva", n),
		"password":         "senhaForte123",
		"telefone":         "11987654321",
	}
	for k, v := range overrides {
		if v == nil {
			delete(b, k)
			continue
		}
		b[k] = v
	}
	return b
}

// funcionario creates an employee and returns his id.
func (e *env) funcionario(c company, escalaID int64, overrides map[string]any) int64 {
	e.t.Helper()
	r := e.pub("POST", "/funcionarios", c.token, funcionarioBody(c, escalaID, overrides))
	want(e.t, r, 200)
	return int64(r.obj(e.t)["id"].(float64))
}

func path(format string, args ...any) string { return fmt.Sprintf(format, args...) }
