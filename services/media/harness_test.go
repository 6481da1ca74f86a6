package main

// The harness runs the service as main wires it (configuration parsed from
// the environment with media's defaults, newServer) on loopback listeners,
// against the real MinIO of `make test` (TEST_MINIO_*; each test gets its
// own bucket, emptied and removed afterwards), real Ed25519 tokens
// (jwttest) and an httptest stand-in for the employee service's internal
// routes (docs/internal-api.md) that records every fotoProfile update.
// MinIO may be reached through a proxy the test can break.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/ponto/ponto/pkg/config"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
	"github.com/ponto/ponto/pkg/logging/logtest"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/media/internal/objectstore"
)

// The tenants every harness knows.
const (
	empresaA = 10
	anaID    = 100 // employee of A
	brunoID  = 101 // employee of A, Ana's colleague
	empresaB = 20
	carlaID  = 200 // employee of B
	unknown  = 999 // nobody
)

type harness struct {
	t         *testing.T
	cfg       Config
	iss       *jwttest.Issuer
	employees *employeeStub
	proxy     *minioProxy
	minio     *minio.Client // straight to MinIO, to inspect the bucket
	bucket    string
	public    string
	internal  string
	logs      *logtest.Buffer
	running   *servertest.Running
}

// start runs the service against a fresh bucket. With viaProxy, the
// service reaches MinIO through a proxy the test can break.
func start(t *testing.T, viaProxy bool) *harness {
	t.Helper()
	endpoint := os.Getenv("TEST_MINIO_ENDPOINT")
	if endpoint == "" {
		t.Fatal("TEST_MINIO_ENDPOINT is not set: run the tests with `make test`, which starts MinIO")
	}
	h := &harness{t: t, iss: jwttest.NewIssuer(t), employees: newEmployeeStub(t), logs: &logtest.Buffer{}}
	h.bucket = "test-media-" + randomHex(6)

	direct, err := minio.New(endpoint, &minio.Options{
		Creds: minioCreds(), Region: "us-east-1",
	})
	if err != nil {
		t.Fatal(err)
	}
	h.minio = direct
	t.Cleanup(h.removeBucket)

	serviceEndpoint := endpoint
	if viaProxy {
		h.proxy = newMinioProxy(t, endpoint)
		serviceEndpoint = h.proxy.addr
	}
	for k, v := range map[string]string{
		"MINIO_ENDPOINT":        serviceEndpoint,
		"MINIO_ACCESS_KEY":      os.Getenv("TEST_MINIO_ACCESS_KEY"),
		"MINIO_SECRET_KEY":      os.Getenv("TEST_MINIO_SECRET_KEY"),
		"MINIO_BUCKET":          h.bucket,
		"EMPLOYEE_INTERNAL_URL": h.employees.srv.URL,
		"JWT_JWKS_URL":          h.iss.JWKSURL(),
		"JWT_ISSUER":            jwttest.IssuerID,
		"JWT_AUDIENCE":          jwttest.Audience,
		"HTTP_PUBLIC_ADDR":      "127.0.0.1:0",
		"HTTP_INTERNAL_ADDR":    "127.0.0.1:1",
		"LOG_LEVEL":             "debug",
	} {
		t.Setenv(k, v)
	}
	h.cfg = newConfig()
	if _, err := config.Parse(&h.cfg); err != nil {
		t.Fatalf("configuration: %v", err)
	}

	// The same dependencies as run, with a quick bucket retry.
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	store, err := objectstore.Open(h.cfg.Minio)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := direct.BucketExists(ctx, h.bucket); err != nil || ok {
		t.Fatalf("bucket %s before start: exists=%v err=%v", h.bucket, ok, err)
	}
	go store.KeepBucket(ctx, log, 50*time.Millisecond)
	verifier, err := jwtauth.NewVerifier(ctx, h.cfg.JWT)
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(h.cfg, log, store, verifier, employeeapi.New(string(h.cfg.EmployeeInternalURL)))

	// Registered before the server's own cleanup, so it runs after the
	// server has stopped and the log is whole.
	t.Cleanup(func() {
		cancel()
		if t.Failed() {
			t.Logf("service log:\n%s", h.logs.String())
		}
	})
	r := servertest.Start(t, srv)
	h.public, h.internal, h.running = r.Public, r.Internal, r
	h.waitReady()
	return h
}

// waitReady waits for /readyz: the service created the bucket.
func (h *harness) waitReady() {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(h.internal + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("service not ready: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func minioCreds() *credentials.Credentials {
	return credentials.NewStaticV4(os.Getenv("TEST_MINIO_ACCESS_KEY"), os.Getenv("TEST_MINIO_SECRET_KEY"), "")
}

// removeBucket empties and removes the test's bucket.
func (h *harness) removeBucket() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, key := range h.objects() {
		if err := h.minio.RemoveObject(ctx, h.bucket, key, minio.RemoveObjectOptions{}); err != nil {
			h.t.Errorf("cleanup %s: %v", key, err)
		}
	}
	if err := h.minio.RemoveBucket(ctx, h.bucket); err != nil && minio.ToErrorResponse(err).Code != "NoSuchBucket" {
		h.t.Errorf("cleanup bucket %s: %v", h.bucket, err)
	}
}

// objects lists every key in the bucket, sorted.
func (h *harness) objects() []string {
	h.t.Helper()
	var keys []string
	for o := range h.minio.ListObjectsIter(context.Background(), h.bucket, minio.ListObjectsOptions{Recursive: true}) {
		if o.Err != nil {
			if minio.ToErrorResponse(o.Err).Code == "NoSuchBucket" {
				return nil
			}
			h.t.Fatalf("list %s: %v", h.bucket, o.Err)
		}
		keys = append(keys, o.Key)
	}
	slices.Sort(keys)
	return keys
}

// object reads a stored object straight from MinIO.
func (h *harness) object(key string) []byte {
	h.t.Helper()
	obj, err := h.minio.GetObject(context.Background(), h.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	defer obj.Close()
	b, err := io.ReadAll(obj)
	if err != nil {
		h.t.Fatalf("read %s: %v", key, err)
	}
	return b
}

// Tokens.
func (h *harness) empresa(id int64) string              { return h.iss.Empresa(h.t, id) }
func (h *harness) funcionario(empresa, id int64) string { return h.iss.Funcionario(h.t, empresa, id) }

// ---------------------------------------------------------------------------
// HTTP helpers

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) json(t *testing.T, out any) {
	t.Helper()
	if err := json.Unmarshal(a.body, out); err != nil {
		t.Fatalf("answer %d is not JSON: %v: %s", a.status, err, a.body)
	}
}

// errorCode returns the code of an error answer, checking its shape.
func (a answer) errorCode(t *testing.T) string {
	t.Helper()
	var e struct {
		Message string            `json:"message"`
		Code    string            `json:"code"`
		Fields  map[string]string `json:"fields"`
	}
	a.json(t, &e)
	if e.Message == "" || e.Code == "" {
		t.Fatalf("error answer without message or code: %s", a.body)
	}
	return e.Code
}

func (h *harness) do(method, path, token string, header map[string]string, body io.Reader) answer {
	h.t.Helper()
	all := servertest.Bearer(token)
	maps.Copy(all, header)
	a := servertest.Call(h.t, method, h.public+path, body, all)
	return answer{status: a.Status, header: a.Header, body: a.Body}
}

// upload sends file as the part foto, named filename and declared as
// partType whatever it holds.
func (h *harness) upload(token string, funcionarioID int64, filename, partType string, file []byte) answer {
	h.t.Helper()
	body, ct := multipartBody(h.t, "foto", filename, partType, file)
	return h.do(http.MethodPost, "/funcionarios/"+strconv.FormatInt(funcionarioID, 10)+"/foto", token,
		map[string]string{"Content-Type": ct}, bytes.NewReader(body))
}

func (h *harness) get(token, path string, header map[string]string) answer {
	h.t.Helper()
	return h.do(http.MethodGet, path, token, header, nil)
}

func multipartBody(t *testing.T, field, filename, partType string, file []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	hdr := make(map[string][]string)
	hdr["Content-Disposition"] = []string{`form-data; name="` + field + `"; filename="` + filename + `"`}
	hdr["Content-Type"] = []string{partType}
	part, err := w.CreatePart(hdr)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(file)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

// ---------------------------------------------------------------------------
// Employee service stand-in

type stubEmployee struct {
	empresaID   int64
	nome        string
	fotoProfile *string
	inativo     bool
}

type fotoUpdate struct {
	id          int64
	fotoProfile *string
}

type employeeStub struct {
	srv *httptest.Server

	mu      sync.Mutex
	people  map[int64]*stubEmployee
	updates []fotoUpdate
	failPut bool // PUT .../foto answers 500 without applying
	down    bool // every route answers 503
}

func newEmployeeStub(t *testing.T) *employeeStub {
	s := &employeeStub{people: map[int64]*stubEmployee{
		anaID:   {empresaID: empresaA, nome: "Ana Souza"},
		brunoID: {empresaID: empresaA, nome: "Bruno Lima"},
		carlaID: {empresaID: empresaB, nome: "Carla Dias"},
	}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /internal/funcionarios/{id}", s.get)
	mux.HandleFunc("PUT /internal/funcionarios/{id}/foto", s.putFoto)
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func apiError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"code": code, "message": message})
}

func (s *employeeStub) lookup(w http.ResponseWriter, r *http.Request) (int64, *stubEmployee, bool) {
	if s.down {
		apiError(w, http.StatusServiceUnavailable, "dependencia_indisponivel", "serviço temporariamente indisponível")
		return 0, nil, false
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		apiError(w, http.StatusBadRequest, "validacao", "dados inválidos")
		return 0, nil, false
	}
	e, ok := s.people[id]
	if !ok {
		apiError(w, http.StatusNotFound, "nao_encontrado", "funcionário não encontrado")
		return 0, nil, false
	}
	return id, e, true
}

// get renders the internal employee view (the fields media reads and a
// few it must ignore).
func (s *employeeStub) get(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, e, ok := s.lookup(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": id, "nome": e.nome, "empresaId": e.empresaID, "fotoProfile": e.fotoProfile,
		"role": "funcionario", "ativo": !e.inativo, "registrosPonto": []any{}, "departamentoId": nil,
	})
}

// putFoto is strict like the real route: the key is required, null
// clears, a string holds 1 to 2048 characters, nothing else is allowed.
func (s *employeeStub) putFoto(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, e, ok := s.lookup(w, r)
	if !ok {
		return
	}
	var body map[string]json.RawMessage
	if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&body) != nil || len(body) != 1 {
		apiError(w, http.StatusBadRequest, "validacao", "dados inválidos")
		return
	}
	raw, ok := body["fotoProfile"]
	if !ok {
		apiError(w, http.StatusBadRequest, "validacao", "dados inválidos")
		return
	}
	var v *string
	if err := json.Unmarshal(raw, &v); err != nil || (v != nil && (*v == "" || len(*v) > 2048)) {
		apiError(w, http.StatusBadRequest, "validacao", "dados inválidos")
		return
	}
	if s.failPut {
		apiError(w, http.StatusInternalServerError, "erro_interno", "erro interno")
		return
	}
	e.fotoProfile = v
	s.updates = append(s.updates, fotoUpdate{id: id, fotoProfile: v})
	w.WriteHeader(http.StatusNoContent)
}

func (s *employeeStub) set(f func(*employeeStub)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// fotoProfile is the employee's current value ("" for null).
func (s *employeeStub) fotoProfile(id int64) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.people[id].fotoProfile; p != nil {
		return *p
	}
	return ""
}

func (s *employeeStub) updateCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}

// ---------------------------------------------------------------------------
// A breakable path to MinIO

// minioProxy forwards to MinIO unchanged (the Host header the client
// signed is kept) unless told to fail.
type minioProxy struct {
	addr string
	// failPutSuffix makes PUTs of keys with this suffix fail (503).
	failPutSuffix atomic.Value
	// down drops every connection.
	down atomic.Bool
}

func newMinioProxy(t *testing.T, target string) *minioProxy {
	p := &minioProxy{}
	p.failPutSuffix.Store("")
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: target})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.down.Load() {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		if s := p.failPutSuffix.Load().(string); s != "" && r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, s) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>injected</Message></Error>`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.addr = strings.TrimPrefix(srv.URL, "http://")
	return p
}

// ---------------------------------------------------------------------------
// Small things

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
