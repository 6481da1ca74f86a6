package main

// The test harness: the REAL employee service (built once per test binary
// from this workspace and run as a process over its own fresh database),
// a fake auth (jwttest's JWKS, plus a stand-in for the revocation route
// employee calls on deactivation), and timekeeping itself in-process on
// real listeners over a fresh migrated database, with a settable clock.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/brdocs/brdocstest"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/clock/clocktest"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/pkg/svcclient"
	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/afastamento"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// employeeBin is the employee service binary built by TestMain.
var employeeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "timekeeping-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	employeeBin = filepath.Join(dir, "employee")
	if err := buildEmployee(employeeBin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildEmployee compiles the employee service from the workspace (this
// package sits two levels below its root).
func buildEmployee(out string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("go not in PATH: %w", err)
	}
	cmd := exec.Command(goBin, "build", "-o", out, "github.com/ponto/ponto/services/employee")
	cmd.Dir = filepath.Join("..", "..")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the employee service: %v\n%s", err, b)
	}
	return nil
}

// zone is the companies' time zone in every test.
var zone = mustZone("America/Sao_Paulo")

func mustZone(name string) *time.Location {
	z, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return z
}

// local is a São Paulo wall-clock time.
func local(y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, zone)
}

// env is one test's world: employee and timekeeping over fresh databases.
type env struct {
	t     *testing.T
	iss   *jwttest.Issuer
	emp   *employeeProc
	db    *pgxpool.Pool
	dbURL string
	clock *clocktest.Source
	// billing stands in for company-billing's internal company view.
	billing *billingStub
	// public is timekeeping's public base URL, internal its internal
	// listener's (the first server's).
	public, internal string
	// servers are the timekeeping servers started, the first one's
	// being public and internal.
	servers []*servertest.Running
	// tune, when set, changes the dependencies of the timekeeping servers
	// started after it (caches, a peer in between).
	tune func(*dependencies)
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, iss: jwttest.NewIssuer(t), clock: &clocktest.Source{}, billing: newBillingStub(t)}
	e.emp = startEmployee(t, e.iss, redistest.Prefix(t), "COMPANY_BILLING_INTERNAL_URL="+e.billing.srv.URL)
	migrations, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	e.db, e.dbURL = dbtest.NewWithURL(t, migrations)
	e.public = e.startTimekeeping(e.db)
	return e
}

// startTimekeeping serves timekeeping over db on fresh listeners and
// returns its public base URL. Several may run over one database, as
// replicas do.
func (e *env) startTimekeeping(db *pgxpool.Pool) string {
	t := e.t
	t.Helper()
	cfg := httpserver.Config{
		ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second, IdleTimeout: 10 * time.Second,
		RequestTimeout: 20 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
		BodyLimit: afastamento.MaxBodyBytes, // as main.go's default
	}
	srv := httpserver.New(name, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	// The clock-in's caches are off (zero TTLs) unless tune turns them on:
	// most tests change an employee or a place and punch right after.
	deps := dependencies{
		db:        db,
		employees: employee.New(e.emp.internal, svcclient.WithTimeout(3*time.Second), svcclient.WithTokens(e.iss.Tokens(t, "timekeeping"))),
		companies: companybillingapi.New(e.billing.srv.URL, svcclient.WithTimeout(3*time.Second), svcclient.WithTokens(e.iss.Tokens(t, "timekeeping"))),
		clock:     clock.New(e.clock.Now),
		rep:       testREP,
		ptrp: ptrp(Config{REPDesenvolvedor: testREP.Desenvolvedor, REPDesenvolvedorNome: "ponto",
			REPDesenvolvedorEmail: "nao-informado"}, build),

		verificacaoURL: testVerificacaoURL,

		// A company's zone is set when it registers: keep it for the test.
		zoneCacheTTL: time.Minute,
		defaultZone:  zone,
	}
	if e.tune != nil {
		e.tune(&deps)
	}
	mountRoutes(srv, e.iss.NewVerifier(t), deps)
	ls := servertest.Start(t, srv)
	e.servers = append(e.servers, ls)
	if e.internal == "" {
		e.internal = ls.Internal
	}
	return ls.Public
}

// replica opens a second pool on the test database and serves another
// timekeeping over it.
func (e *env) replica() string {
	e.t.Helper()
	pool, err := database.Open(context.Background(), database.Config{URL: e.dbURL, MaxConns: 10})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(pool.Close)
	return e.startTimekeeping(pool)
}

// freeAddr finds a port for a child process to listen on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l := servertest.Listen(t)
	defer l.Close()
	return l.Addr().String()
}

// employeeProc is a running employee service.
type employeeProc struct {
	public, internal string // base URLs
	cmd              *exec.Cmd
	exited           chan struct{} // closed when the process has ended
	logs             *logtest.Buffer
	revocations      *authStub
	stopOnce         sync.Once
}

// startEmployee runs the employee binary on free ports over a fresh,
// migrated database, verifying tokens of iss, with its Redis keys and
// channels under prefix (it publishes its changes there every 100 ms). It
// stops at cleanup.
func startEmployee(t *testing.T, iss *jwttest.Issuer, prefix string, extraEnv ...string) *employeeProc {
	t.Helper()
	dbURL := dbtest.CreateDatabase(t)
	revocations := newAuthStub(t, iss)
	env := append(os.Environ(),
		"DB_MIGRATE_URL="+dbURL, "DB_URL="+dbtest.ServiceURL(t, dbURL),
		"JWT_JWKS_URL="+iss.JWKSURL(), "JWT_ISSUER="+jwttest.IssuerID, "JWT_AUDIENCE="+jwttest.Audience,
		"AUTH_INTERNAL_URL="+revocations.srv.URL,
		"REDIS_ADDR="+redistest.Addr(), "REDIS_KEY_PREFIX="+prefix, "EMPLOYEE_CHANGES_INTERVAL=100ms",
		"LOG_LEVEL=warn",
		// Its relay's tokens come from the auth stand-in.
		"SERVICE_SECRET=timekeeping-tests-employee-secret-0000",
	)
	env = append(env, extraEnv...)
	migrate := exec.Command(employeeBin, "migrate")
	migrate.Env = env
	if out, err := migrate.CombinedOutput(); err != nil {
		t.Fatalf("employee migrate: %v\n%s", err, out)
	}
	// A port found free may be taken before the child binds it: try again
	// on other ports.
	var last string
	for range 3 {
		p := &employeeProc{logs: &logtest.Buffer{}, revocations: revocations, exited: make(chan struct{})}
		pub, internal := freeAddr(t), freeAddr(t)
		p.public, p.internal = "http://"+pub, "http://"+internal
		p.cmd = exec.Command(employeeBin)
		p.cmd.Env = append(env, "HTTP_PUBLIC_ADDR="+pub, "HTTP_INTERNAL_ADDR="+internal)
		p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
		if err := p.cmd.Start(); err != nil {
			t.Fatalf("employee start: %v", err)
		}
		go func() { _ = p.cmd.Wait(); close(p.exited) }()
		t.Cleanup(func() {
			p.stop()
			if t.Failed() {
				t.Logf("employee service log:\n%s", p.logs.String())
			}
		})
		if p.waitReady() {
			return p
		}
		last = p.logs.String()
	}
	t.Fatalf("employee service did not start:\n%s", last)
	return nil
}

// waitReady polls /readyz until it answers 200; false when the process
// ended or took too long.
func (p *employeeProc) waitReady() bool {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-p.exited:
			return false
		default:
		}
		resp, err := http.Get(p.internal + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.stop()
	return false
}

// stop ends the process (SIGTERM, then SIGKILL) and waits for it.
func (p *employeeProc) stop() {
	p.stopOnce.Do(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})
}

// authStub stands in for auth's POST /internal/tokens/revogar, which the
// employee service calls when an employee is deactivated.
type authStub struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls []map[string]any
}

func newAuthStub(t *testing.T, iss *jwttest.Issuer) *authStub {
	a := &authStub{}
	mux := http.NewServeMux()
	// The employee service's relay trades its secret for a token here.
	mux.HandleFunc("POST "+svcclient.TokenPath, func(w http.ResponseWriter, r *http.Request) {
		var in svcclient.TokenRequest
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Servico != "employee" {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(svcclient.TokenAnswer{Token: iss.Service(t, in.Servico),
			ExpiraEm: time.Now().Add(jwtauth.ServiceTokenTTL).UTC().Format(time.RFC3339)})
	})
	mux.HandleFunc("POST /internal/tokens/revogar", func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		a.mu.Lock()
		a.calls = append(a.calls, body)
		a.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

func (a *authStub) Calls() []map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]map[string]any(nil), a.calls...)
}

// testREP identifies the REP-P in every test (REP_INPI, REP_DESENVOLVEDOR).
var testREP = core.REP{INPI: "12345678901234567", Desenvolvedor: "11.222.333/0001-81"}

// billingStub stands in for company-billing's GET /internal/empresas/{id}
// (docs/internal-api.md): every company id answers a company view named
// after it, except those marked missing; calls are recorded. It answers
// the employee service's establishment checks too.
type billingStub struct {
	srv     *httptest.Server
	mu      sync.Mutex
	calls   []string
	missing map[string]bool
	// zones are the companies' fusoHorario (America/Sao_Paulo unless set).
	zones map[string]string
}

func newBillingStub(t *testing.T) *billingStub {
	b := &billingStub{missing: map[string]bool{}, zones: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /internal/empresas/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		b.mu.Lock()
		b.calls = append(b.calls, id)
		missing, zone := b.missing[id], b.zones[id]
		b.mu.Unlock()
		if zone == "" {
			zone = "America/Sao_Paulo"
		}
		w.Header().Set("Content-Type", "application/json")
		if missing {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"empresa não encontrada","code":"nao_encontrado"}`))
			return
		}
		n, _ := strconv.Atoi(id)
		_ = json.NewEncoder(w).Encode(map[string]any{"id": n, "email": "rh@empresa" + id + ".com.br",
			"nome": "Padaria Pão Quente " + id, "razaoSocial": "Panificação São João " + id + " Ltda",
			"cnpj": companyCNPJ(n), "role": "empresa_plan_basic", "nomeDoPlano": "basic",
			"assinaturaStatus": "active", "bloqueada": false, "fusoHorario": zone})
	})
	// Every establishment id of a company is an active branch of it (the
	// employee service checks an employee's).
	mux.HandleFunc("GET /internal/empresas/{id}/estabelecimentos/{estab}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("id"))
		estab, _ := strconv.Atoi(r.PathValue("estab"))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": estab, "empresaId": n, "principal": false, "tipo": "cnpj",
			"numero": branchCNPJ(n, 2), "nome": "Filial", "ativo": true, "fusoHorario": "America/Sao_Paulo"})
	})
	b.srv = httptest.NewServer(mux)
	t.Cleanup(b.srv.Close)
	return b
}

func (b *billingStub) Calls() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.calls...)
}

// companyCNPJ is a valid, masked CNPJ built from n.
func companyCNPJ(n int) string {
	d := fmt.Sprintf("%08d0001", 11222000+n)
	for _, w := range [][]int{{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}, {6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}} {
		sum := 0
		for i, x := range w {
			sum += int(d[i]-'0') * x
		}
		r := sum % 11
		if r < 2 {
			r = 0
		} else {
			r = 11 - r
		}
		d += strconv.Itoa(r)
	}
	return d[0:2] + "." + d[2:5] + "." + d[5:8] + "/" + d[8:12] + "-" + d[12:14]
}

// ---------------------------------------------------------------------------
// HTTP

// response is an answer read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

func (r response) into(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %T: %v: %s", v, err, r.body)
	}
}

func (r response) fields(t *testing.T) map[string]any {
	t.Helper()
	f, _ := r.obj(t)["fields"].(map[string]any)
	return f
}

// call sends method to base+path with token (may be ""), body (nil, a
// string sent raw, or a value sent as JSON) and extra headers (name,
// value pairs).
func call(t *testing.T, base, method, path, token string, body any, headers ...string) response {
	t.Helper()
	header := servertest.Bearer(token)
	for i := 0; i+1 < len(headers); i += 2 {
		header[headers[i]] = headers[i+1]
	}
	a := servertest.Call(t, method, base+path, body, header)
	return response{status: a.Status, header: a.Header, body: a.Body}
}

// pub calls timekeeping's public API.
func (e *env) pub(method, path, token string, body any, headers ...string) response {
	e.t.Helper()
	return call(e.t, e.public, method, path, token, body, headers...)
}

func want(t *testing.T, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
}

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

// ---------------------------------------------------------------------------
// Companies, schedules, departments and employees, made through the
// employee service's public API.

type company struct {
	id    int64
	token string
}

func (e *env) company(id int64) company { return company{id: id, token: e.iss.Empresa(e.t, id)} }

// worker is an employee of the test with his token.
type worker struct {
	id, empresaID int64
	escalaID      int64
	cpf           string
	token         string
}

// horario is one schedule entry.
func horario(entrada string, saidaAlmoco, retornoAlmoco, saida int) map[string]any {
	return map[string]any{"entrada": entrada, "saidaAlmoco": saidaAlmoco, "retornoAlmoco": retornoAlmoco, "saida": saida}
}

// standard is Monday to Friday 08:00-17:00 with lunch 12:00-13:00: 480
// minutes a day.
func standard() []map[string]any {
	d := horario("08:00", 240, 300, 540)
	return []map[string]any{d, d, d, d, d}
}

func (e *env) escala(c company, nome string, horarios []map[string]any) int64 {
	e.t.Helper()
	r := call(e.t, e.emp.public, "POST", "/escalatrabalhos", c.token, map[string]any{"empresaId": c.id, "nome": nome, "horarios": horarios})
	want(e.t, r, 200)
	return int64(r.obj(e.t)["id"].(float64))
}

func (e *env) departamento(c company, nome string) int64 {
	e.t.Helper()
	r := call(e.t, e.emp.public, "POST", "/departamentos", c.token, map[string]any{"nome": nome, "segmentos": []string{}})
	want(e.t, r, 200)
	return int64(r.obj(e.t)["id"].(float64))
}

// seq makes distinct CPFs and e-mails within a test run.
var seq atomic.Int64

func next() int { return int(seq.Add(1)) }

// funcionario creates an employee of c on schedule escalaID with the
// extra fields (e.g. nome, departamentoId) and returns him with a token.
func (e *env) funcionario(c company, escalaID int64, extra map[string]any) worker {
	e.t.Helper()
	n := next()
	body := map[string]any{
		"cargo": "Analista", "cpf": brdocstest.CPF(n), "dataNascimento": "15/08/1990",
		"email": fmt.Sprintf("pessoa%d@empresa.com.br", n), "empresaId": c.id, "escalaTrabalhoId": escalaID,
		"nome": fmt.Sprintf("Pessoa %d da Silva", n), "password": "senhaForte123", "telefone": "11987654321",
	}
	for k, v := range extra {
		body[k] = v
	}
	r := call(e.t, e.emp.public, "POST", "/funcionarios", c.token, body)
	want(e.t, r, 200)
	id := int64(r.obj(e.t)["id"].(float64))
	return worker{id: id, empresaID: c.id, escalaID: escalaID, cpf: body["cpf"].(string), token: e.iss.Funcionario(e.t, c.id, id)}
}

// newShop is the world most clock-in tests start from: company 1 with a
// "Comercial" schedule (standard()) and one employee on it, made with the
// extra fields. Colleagues join with e.funcionario(c, w.escalaID, ...).
func newShop(t *testing.T, extra map[string]any) (*env, company, worker) {
	t.Helper()
	e := newEnv(t)
	c := e.company(1)
	return e, c, e.funcionario(c, e.escala(c, "Comercial", standard()), extra)
}

// outsider is company 2 and an employee of it, for cross-tenant checks.
func (e *env) outsider() (company, worker) {
	e.t.Helper()
	other := e.company(2)
	return other, e.funcionario(other, e.escala(other, "Outra", standard()), nil)
}

// punch clocks w in at instant at (the server clock is set to it).
func (e *env) punch(w worker, at time.Time) map[string]any {
	e.t.Helper()
	e.clock.Set(at)
	r := e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "-23.5505, -46.6333", "funcionarioId": w.id})
	want(e.t, r, 200)
	return r.obj(e.t)
}

func id(m map[string]any) int64 { return int64(m["id"].(float64)) }

func path(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
