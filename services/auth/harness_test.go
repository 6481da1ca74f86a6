package main

// The harness runs the whole service as main wires it (newDependencies,
// newServer) on loopback listeners, against the real Redis (every key under
// redistest.Prefix), a real SMTP server (pkg/mailtest) and
// httptest stand-ins for company-billing and employee that implement their
// routes of docs/internal-api.md and record every call.

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/config"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/logging/logtest"
	internalmail "github.com/ponto/ponto/pkg/mail"
	"github.com/ponto/ponto/pkg/mailtest"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/services/auth/internal/keys"
)

// Accounts every harness knows.
const (
	adminEmail    = "ops@ponto.dev"
	adminPassword = "admin-senha-123"

	empresaEmail    = "rh@padaria.com.br"
	empresaPassword = "empresa-senha-1"
	empresaID       = 10

	outraEmpresaEmail = "rh@outra.com.br"
	outraEmpresaID    = 11

	funcEmail = "ana@padaria.com.br"
	funcID    = 700
	func2     = "bruno@padaria.com.br"
	func2ID   = 701
	outraFunc = "carla@outra.com.br"
	outraFID  = 702
)

// adminHash is computed once: bcrypt takes a while under -race.
var adminHash = sync.OnceValue(func() string {
	h, err := password.Hash(adminPassword)
	if err != nil {
		panic(err)
	}
	return h
})

type harness struct {
	t         *testing.T
	cfg       Config
	rdb       *redis.Client
	deps      *dependencies
	public    string
	internal  string
	billing   *billingStub
	employees *employeeStub
	smtp      *mailtest.Inbox
	logs      *logtest.Buffer
	running   *servertest.Running
}

// start runs the service; mutate adjusts the test configuration first.
func start(t *testing.T, mutate ...func(*Config)) *harness {
	t.Helper()
	h := &harness{t: t, rdb: redistest.New(t), logs: &logtest.Buffer{}}
	h.billing = newBillingStub(t)
	h.employees = newEmployeeStub(t)
	h.smtp = mailtest.NewInbox(t, mailtest.Config{})

	keysDir := t.TempDir()
	if _, _, err := keys.Generate(keysDir, time.Now()); err != nil {
		t.Fatal(err)
	}
	h.cfg = testConfig(t, keysDir, h.billing.srv.URL, h.employees.srv.URL, h.smtp.Addr)
	for _, m := range mutate {
		m(&h.cfg)
	}
	if err := config.Validate(&h.cfg); err != nil {
		t.Fatalf("test configuration invalid: %v", err)
	}

	log := slog.New(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	deps, err := newDependencies(t.Context(), h.cfg, log, h.rdb, clock.New(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	h.deps = deps
	srv, err := newServer(h.cfg, log, h.rdb, deps)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go deps.keyring.Watch(ctx, h.cfg.Auth.KeysReloadInterval, log)
	// Registered before the server's own cleanup, so it runs once the
	// server has stopped.
	t.Cleanup(func() {
		cancel()
		deps.login.Drain(5 * time.Second)
	})
	r := servertest.Start(t, srv)
	h.public, h.internal, h.running = r.Public, r.Internal, r
	return h
}

func testConfig(t *testing.T, keysDir, billingURL, employeeURL, smtpAddr string) Config {
	var cfg Config
	cfg.HTTP = httpserver.Config{
		PublicAddr: "127.0.0.1:0", InternalAddr: "127.0.0.1:1",
		ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 30 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
		BodyLimit: 1 << 20,
	}
	cfg.Log.Level = "debug"
	cfg.Redis.KeyPrefix = redistest.Prefix(t) + "shared:"
	cfg.Rate.PerIP, cfg.Rate.PerToken = "100000/min", "100000/min"
	cfg.JWT.Issuer, cfg.JWT.Audience = "ponto-auth", "ponto-api"
	cfg.Peers.CompanyBillingURL, cfg.Peers.EmployeeURL = svcclient.URL(billingURL), svcclient.URL(employeeURL)
	cfg.Auth = AuthConfig{
		KeysDir:            keysDir,
		KeysReloadInterval: 50 * time.Millisecond,
		RedisPrefix:        redistest.Prefix(t),
		AccessTokenTTL:     15 * time.Minute,
		RefreshTokenTTL:    30 * 24 * time.Hour,
		MaxSessions:        50,
		Admins:             adminEmail + ":" + adminHash(),
		CodeSecret:         "test-code-secret-of-at-least-32-bytes!!",
		CodeTTL:            10 * time.Minute,
		CodeMaxTries:       5,
		ServiceSecrets: "employee=" + serviceSecret("employee") + ",company-billing=" + serviceSecret("company-billing") +
			",timekeeping=" + serviceSecret("timekeeping"),
		// Generous: rate-limit tests lower them.
		RatePerIP:        1000,
		RatePerEmail:     1000,
		RateCodesPerHour: 1000,
		SMTP: internalmail.SMTPConfig{
			// Plain SMTP on loopback; TLS and SMTP AUTH are tested in
			// internal/mail.
			Addr: smtpAddr, From: "ponto <nao-responda@ponto.test>", TLS: internalmail.TLSNone,
			Timeout: 5 * time.Second,
		},
	}
	return cfg
}

// ---------------------------------------------------------------------------
// HTTP helpers

type answer struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (a answer) str(field string) string {
	s, _ := a.body[field].(string)
	return s
}

// do sends body (a string is sent as is, anything else as JSON).
func (h *harness) do(method, url string, body any) answer {
	h.t.Helper()
	return h.decode(method, url, servertest.Call(h.t, method, url, body, nil))
}

// send makes one request and reads its answer.
func (h *harness) send(req *http.Request) answer {
	h.t.Helper()
	return h.decode(req.Method, req.URL.String(), servertest.Do(h.t, req))
}

// decode reads a JSON answer's body.
func (h *harness) decode(method, url string, res servertest.Answer) answer {
	h.t.Helper()
	a := answer{status: res.Status, header: res.Header, raw: res.Body}
	if len(res.Body) > 0 && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(res.Body, &a.body); err != nil {
			h.t.Fatalf("%s %s: answer is not a JSON object: %s", method, url, res.Body)
		}
	}
	return a
}

func (h *harness) post(path string, body any) answer {
	h.t.Helper()
	return h.do(http.MethodPost, h.public+path, body)
}

// postInternal calls the internal API as the employee service does, with
// its service token.
func (h *harness) postInternal(path string, body any) answer {
	h.t.Helper()
	return h.postInternalAs(h.serviceToken("employee"), path, body)
}

// postInternalAs calls the internal API with token ("" sends none).
func (h *harness) postInternalAs(token, path string, body any) answer {
	h.t.Helper()
	header := map[string]string{}
	if token != "" {
		header["Authorization"] = "Bearer " + token
	}
	return h.decode(http.MethodPost, h.internal+path, servertest.Call(h.t, http.MethodPost, h.internal+path, body, header))
}

// serviceToken trades service's test secret for its token.
func (h *harness) serviceToken(service string) string {
	h.t.Helper()
	a := h.postInternalAs("", "/internal/servicos/token", map[string]string{"servico": service, "segredo": serviceSecret(service)})
	a.expect(h.t, http.StatusOK)
	return a.str("token")
}

// serviceSecret is the test secret of a service.
func serviceSecret(service string) string { return service + "-test-secret-of-at-least-32-bytes" }

// expect fails unless the answer has the status.
func (a answer) expect(t *testing.T, status int) answer {
	t.Helper()
	if a.status != status {
		t.Fatalf("status %d, want %d; body %s", a.status, status, a.raw)
	}
	return a
}

// expectError checks an error answer: status and {"message","code"}.
func (a answer) expectError(t *testing.T, status int, code string) answer {
	t.Helper()
	a.expect(t, status)
	if a.str("code") != code || a.str("message") == "" {
		t.Fatalf("error answer %s, want code %q and a message", a.raw, code)
	}
	return a
}

func (h *harness) loginEmpresa(email, pw string) answer {
	h.t.Helper()
	return h.post("/auth/login", map[string]string{"email": email, "password": pw})
}

func (h *harness) refresh(token string) answer {
	h.t.Helper()
	return h.post("/auth/refresh-token", map[string]string{"refreshToken": token})
}

// verifier checks tokens with pkg/jwtauth against the running JWKS route,
// exactly as the other services do.
func (h *harness) verifier() *jwtauth.Verifier {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h.t.Cleanup(cancel)
	v, err := jwtauth.NewVerifier(ctx, jwtauth.Config{
		JWKSURL: h.public + keys.JWKSPath, Issuer: h.cfg.JWT.Issuer, Audience: h.cfg.JWT.Audience,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

func (h *harness) verify(v *jwtauth.Verifier, token string) *jwtauth.Claims {
	h.t.Helper()
	c, err := v.Verify(context.Background(), token)
	if err != nil {
		h.t.Fatalf("token does not verify: %v", err)
	}
	return c
}

// ---------------------------------------------------------------------------
// Redis helpers

// dump returns every key under the test's prefix with its values
// flattened: a string's value, a hash's fields and values, a sorted set's
// members and scores.
func (h *harness) dump() map[string][]string {
	h.t.Helper()
	ctx := context.Background()
	out := map[string][]string{}
	iter := h.rdb.Scan(ctx, 0, h.cfg.Auth.RedisPrefix+"*", 100).Iterator()
	for iter.Next(ctx) {
		k := iter.Val()
		typ, err := h.rdb.Type(ctx, k).Result()
		if err != nil {
			h.t.Fatal(err)
		}
		var vals []string
		switch typ {
		case "string":
			vals = []string{h.rdb.Get(ctx, k).Val()}
		case "hash":
			for f, v := range h.rdb.HGetAll(ctx, k).Val() {
				vals = append(vals, f, v)
			}
		case "zset":
			for _, z := range h.rdb.ZRangeWithScores(ctx, k, 0, -1).Val() {
				vals = append(vals, fmt.Sprint(z.Member), strconv.FormatFloat(z.Score, 'f', -1, 64))
			}
		case "none":
			continue // expired between SCAN and TYPE
		default:
			h.t.Fatalf("unexpected Redis type %s of %s", typ, k)
		}
		out[k] = vals
	}
	if err := iter.Err(); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// keysMatching counts the test's keys containing part.
func (h *harness) keysMatching(part string) int {
	n := 0
	for k := range h.dump() {
		if strings.Contains(k, part) {
			n++
		}
	}
	return n
}

// ---------------------------------------------------------------------------
// Logs

// waitLog waits for a log line containing msg and returns it decoded.
func (h *harness) waitLog(msg string) map[string]any {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for line := range strings.SplitSeq(h.logs.String(), "\n") {
			if strings.Contains(line, msg) {
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					h.t.Fatalf("log line is not JSON: %s", line)
				}
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.t.Fatalf("no log line %q in:\n%s", msg, h.logs.String())
	return nil
}

// ---------------------------------------------------------------------------
// company-billing stand-in

type call struct {
	Method, Path string
	Body         map[string]any
	// Authorization is the header the call carried (auth's service token).
	Authorization string `json:"-"`
}

type recorder struct {
	mu    sync.Mutex
	calls []call
	down  bool
}

func (r *recorder) record(req *http.Request) call {
	c := call{Method: req.Method, Path: req.URL.RequestURI(), Authorization: req.Header.Get("Authorization")}
	if req.Body != nil {
		_ = json.NewDecoder(req.Body).Decode(&c.Body)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
	return c
}

func (r *recorder) Calls() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]call(nil), r.calls...)
}

// callsTo counts the recorded calls whose "METHOD path" starts with prefix.
func (r *recorder) callsTo(prefix string) []call {
	var out []call
	for _, c := range r.Calls() {
		if strings.HasPrefix(c.Method+" "+c.Path, prefix) {
			out = append(out, c)
		}
	}
	return out
}

func (r *recorder) setDown(down bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.down = down
}

func (r *recorder) isDown() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.down
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeErr(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]string{"code": code, "message": msg})
}

type empresa struct {
	password string
	view     map[string]any
}

type billingStub struct {
	recorder
	srv      *httptest.Server
	empresas map[string]*empresa // by e-mail
}

func newBillingStub(t *testing.T) *billingStub {
	b := &billingStub{empresas: map[string]*empresa{}}
	b.add(empresaID, empresaEmail, empresaPassword)
	b.add(outraEmpresaID, outraEmpresaEmail, "outra-senha-123")
	mux := http.NewServeMux()
	mux.HandleFunc("POST /internal/empresas/login", func(w http.ResponseWriter, r *http.Request) {
		c := b.record(r)
		if b.isDown() {
			writeErr(w, 503, "indisponivel", "fora do ar")
			return
		}
		email, _ := c.Body["email"].(string)
		pw, _ := c.Body["password"].(string)
		e := b.get(email)
		switch {
		case e == nil || e.password != pw:
			writeErr(w, 401, "credenciais_invalidas", "credenciais inválidas")
		case e.view["bloqueada"] == true:
			writeErr(w, 403, "empresa_bloqueada", "empresa bloqueada")
		default:
			writeJSON(w, 200, e.view)
		}
	})
	mux.HandleFunc("GET /internal/empresas/{id}", func(w http.ResponseWriter, r *http.Request) {
		b.record(r)
		if b.isDown() {
			writeErr(w, 503, "indisponivel", "fora do ar")
			return
		}
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, e := range b.empresas {
			if e.view["id"] == id {
				writeJSON(w, 200, e.view)
				return
			}
		}
		writeErr(w, 404, "nao_encontrado", "empresa não encontrada")
	})
	b.srv = httptest.NewServer(mux)
	t.Cleanup(b.srv.Close)
	return b
}

func (b *billingStub) add(id int64, email, pw string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.empresas[email] = &empresa{password: pw, view: map[string]any{
		"id": id, "email": email, "nome": "Padaria " + strconv.FormatInt(id, 10),
		"razaoSocial": "Padaria Pão Quente LTDA", "cnpj": "12.345.678/0001-95",
		"role": "empresa_plan_basic", "nomeDoPlano": "basic", "assinaturaStatus": "trialing", "bloqueada": false,
	}}
}

func (b *billingStub) get(email string) *empresa {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.empresas[email]
}

func (b *billingStub) block(email string, blocked bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.empresas[email].view["bloqueada"] = blocked
}

// ---------------------------------------------------------------------------
// employee stand-in

type employeeStub struct {
	recorder
	srv   *httptest.Server
	views map[int64]map[string]any
}

func newEmployeeStub(t *testing.T) *employeeStub {
	s := &employeeStub{views: map[int64]map[string]any{}}
	s.add(funcID, empresaID, funcEmail, "Ana Souza")
	s.add(func2ID, empresaID, func2, "Bruno Lima")
	s.add(outraFID, outraEmpresaID, outraFunc, "Carla Dias")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /internal/funcionarios/vinculos", func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		if s.isDown() {
			writeErr(w, 503, "indisponivel", "fora do ar")
			return
		}
		email := r.URL.Query().Get("email")
		s.mu.Lock()
		defer s.mu.Unlock()
		found := []map[string]any{}
		for _, v := range s.views {
			if strings.EqualFold(v["email"].(string), email) {
				found = append(found, v)
			}
		}
		sort.Slice(found, func(i, j int) bool { return found[i]["empresaId"].(int64) < found[j]["empresaId"].(int64) })
		writeJSON(w, 200, map[string]any{"funcionarios": found})
	})
	mux.HandleFunc("GET /internal/funcionarios/{id}", func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		if s.isDown() {
			writeErr(w, 503, "indisponivel", "fora do ar")
			return
		}
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		s.mu.Lock()
		defer s.mu.Unlock()
		if v, ok := s.views[id]; ok {
			writeJSON(w, 200, v)
			return
		}
		writeErr(w, 404, "nao_encontrado", "funcionário não encontrado")
	})
	mux.HandleFunc("PUT /internal/funcionarios/{id}/code-verify", func(w http.ResponseWriter, r *http.Request) {
		c := s.record(r)
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		s.mu.Lock()
		defer s.mu.Unlock()
		v, ok := s.views[id]
		if !ok {
			writeErr(w, 404, "nao_encontrado", "funcionário não encontrado")
			return
		}
		v["codeVerify"] = c.Body["codeVerify"]
		w.WriteHeader(http.StatusNoContent)
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

// add stores an employee view as the employee service renders it.
func (s *employeeStub) add(id, empresaID int64, email, nome string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.views[id] = map[string]any{
		"id": id, "nome": nome, "cargo": "Padeiro", "email": email, "endereco": "Rua A, 1",
		"telefone": "11999990000", "role": "funcionario", "cpfcnpj": "529.982.247-25", "codeVerify": nil,
		"dataNascimento": "1990-05-01T00:00:00.000Z", "horarioTrabalho": 8, "ativo": true,
		"clt": true, "pj": false, "sobreaviso": false, "sentimento": "Neutro", "cidade": nil,
		"codeMatricula": nil, "dataAdmissao": nil, "deviceToken": nil, "fotoProfile": nil,
		"nispis": nil, "uf": nil, "valorHora": nil, "fusoHorario": nil, "registrosPonto": []any{},
		"empresaId": empresaID, "escalaTrabalhoId": 3, "departamentoId": 4, "segmento": nil,
	}
}

func (s *employeeStub) set(id int64, field string, value any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.views[id][field] = value
}

// ---------------------------------------------------------------------------
// SMTP server

// decodeMail reads an e-mail's subject, recipient and text.
func decodeMail(t *testing.T, raw []byte) mailtest.Decoded {
	t.Helper()
	d, err := mailtest.Decode(raw)
	if err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	return d
}

var codeLine = regexp.MustCompile(`(?m)^\s*(\d{6})\s*$`)

// codeFrom extracts the login code from an e-mail body.
func codeFrom(t *testing.T, body string) string {
	t.Helper()
	m := codeLine.FindAllStringSubmatch(body, -1)
	if len(m) != 1 {
		t.Fatalf("want exactly one 6-digit code line in the e-mail, got %d:\n%s", len(m), body)
	}
	return m[0][1]
}
