package empresas

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/pkg/svcclient"
	authapi "github.com/ponto/ponto/services/auth/internalapi"
	"github.com/ponto/ponto/services/company-billing/internal/estabelecimentos"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
	"github.com/ponto/ponto/services/company-billing/internal/stripebilling"
	"github.com/ponto/ponto/services/company-billing/internal/stripetest"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
)

// testPlans is the catalogue the tests run with: stripe-mock accepts any
// price id.
const testPlans = "basic:price_1basic:30,pro:price_1pro:0"

// env is the service running on loopback ports against a fresh database,
// stripe-mock behind the recording proxy, a JWKS issuer and an auth
// stand-in that records revocations.
type env struct {
	db       *pgxpool.Pool
	stripe   *stripetest.Proxy
	iss      *jwttest.Issuer
	auth     *authStandIn
	employee *employeeStandIn
	public   string
	internal string
	logs     *logtest.Buffer
}

type envOption func(*envConfig)

type envConfig struct {
	stripeURL   string
	authStatus  int
	defaultZone string
	loginLimit  *ratelimit.Limit
}

// withDefaultZone sets the configured zone of new companies
// (COMPANY_TIME_ZONE).
func withDefaultZone(z string) envOption { return func(c *envConfig) { c.defaultZone = z } }

// withStripeURL points the service at another Stripe (e.g. a dead port).
func withStripeURL(u string) envOption { return func(c *envConfig) { c.stripeURL = u } }

// withLoginLimit limits the internal login per e-mail.
func withLoginLimit(l ratelimit.Limit) envOption { return func(c *envConfig) { c.loginLimit = &l } }

// asAuth is the header of a call by the auth service.
func (e *env) asAuth(t *testing.T) map[string]string { return bearer(e.iss.Service(t, "auth")) }

// asEmployee is the employee service's token, for its internal reads.
func (e *env) asEmployee(t *testing.T) map[string]string { return bearer(e.iss.Service(t, "employee")) }

// withAuthFailing makes the auth stand-in answer status to revocations.
func withAuthFailing(status int) envOption { return func(c *envConfig) { c.authStatus = status } }

func newEnv(t *testing.T, opts ...envOption) *env {
	t.Helper()
	e := &env{
		db:     dbtest.New(t, os.DirFS("../../migrations")),
		stripe: stripetest.New(t),
		iss:    jwttest.NewIssuer(t),
		logs:   &logtest.Buffer{},
	}
	cfg := envConfig{stripeURL: e.stripe.URL, authStatus: http.StatusNoContent, defaultZone: "America/Sao_Paulo"}
	for _, o := range opts {
		o(&cfg)
	}
	e.auth = newAuthStandIn(t, cfg.authStatus)

	log := slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	catalog, err := plans.Parse(testPlans)
	if err != nil {
		t.Fatal(err)
	}
	svc := &Service{
		Store: NewStore(e.db),
		Stripe: stripebilling.New(stripebilling.Config{
			APIURL: cfg.stripeURL, SecretKey: stripetest.Key, Timeout: 20 * time.Second,
			// No stripe-go retries: each test decides what fails.
			MaxNetworkRetries: 0,
		}, log),
		Plans:  catalog,
		Auth:   authapi.New(e.auth.srv.URL, svcclient.WithRetries(0)),
		Log:    log,
		Config: Config{FusoHorarioPadrao: cfg.defaultZone},
		Clock:  clock.New(time.Now),
	}
	srv := httpserver.New("company-billing", httpserver.Config{
		ReadTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 30 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
		BodyLimit: 1 << 20,
	}, log)
	verifier := e.iss.NewVerifier(t)
	svc.Public(srv.Public, verifier)
	if cfg.loginLimit != nil {
		svc.LoginLimit = LoginLimit(ratelimit.New(redistest.New(t), redistest.Prefix(t), log), *cfg.loginLimit)
	}
	svc.Internal(srv.Internal, verifier)
	e.employee = newEmployeeStandIn(t)
	ests := &estabelecimentos.Handlers{Store: estabelecimentos.NewStore(e.db),
		Funcionarios: employeeapi.New(e.employee.srv.URL, svcclient.WithRetries(0)), Log: log}
	ests.Public(srv.Public, verifier)
	ests.Internal(srv.Internal, verifier)
	r := servertest.Start(t, srv)
	e.public, e.internal = r.Public, r.Internal
	return e
}

// authStandIn implements auth's POST /internal/tokens/revogar per
// docs/internal-api.md and records the bodies it received.
type authStandIn struct {
	srv    *httptest.Server
	status int
	mu     sync.Mutex
	calls  []map[string]any
}

func newAuthStandIn(t *testing.T, status int) *authStandIn {
	a := &authStandIn{status: status}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/internal/tokens/revogar" {
			http.NotFound(w, r)
			return
		}
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		a.mu.Lock()
		a.calls = append(a.calls, body)
		a.mu.Unlock()
		if a.status >= 400 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(a.status)
			w.Write([]byte(`{"code":"erro_interno","message":"erro interno"}`))
			return
		}
		w.WriteHeader(a.status)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *authStandIn) Calls() []map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]map[string]any(nil), a.calls...)
}

// answer is an HTTP answer with its JSON body decoded.
type answer struct {
	status int
	raw    []byte
	body   map[string]any
}

func (a answer) code() string { s, _ := a.body["code"].(string); return s }

func (a answer) fields() map[string]any { f, _ := a.body["fields"].(map[string]any); return f }

func do(t *testing.T, method, url string, body any, header map[string]string) answer {
	t.Helper()
	res := servertest.Call(t, method, url, body, header)
	a := answer{status: res.Status, raw: res.Body}
	if len(res.Body) > 0 {
		d := json.NewDecoder(bytes.NewReader(res.Body))
		d.UseNumber()
		if err := d.Decode(&a.body); err != nil {
			t.Fatalf("%s %s: answer is not a JSON object: %v: %s", method, url, err, res.Body)
		}
	}
	return a
}

func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

// validRequest is a registration that passes every rule. CNPJs differ
// by n so several companies can be made in one test.
func validRequest(n int) map[string]any {
	return map[string]any{
		"cnpj":         testCNPJs[n],
		"dataAbertura": "15/03/2010",
		"email":        "contato" + string(rune('a'+n)) + "@empresa.com.br",
		"nome":         "Padaria Pão Quente",
		"nomeDoPlano":  "basic",
		"password":     "segredo123",
		"razaoSocial":  "Padaria Pão Quente Ltda",
	}
}

// testCNPJs are valid CNPJs (check digits computed by hand).
var testCNPJs = []string{
	"11.222.333/0001-81",
	"11.444.777/0001-61",
	"45.997.418/0001-53",
	"04.252.011/0001-10",
	"12.ABC.345/01DE-35",
}

func (e *env) register(t *testing.T, body map[string]any, header map[string]string) answer {
	t.Helper()
	return do(t, http.MethodPost, e.public+"/empresas", body, header)
}

// mustRegister registers a company and returns its id.
func (e *env) mustRegister(t *testing.T, n int) int64 {
	t.Helper()
	a := e.register(t, validRequest(n), nil)
	if a.status != http.StatusOK {
		t.Fatalf("register %d: %d %s", n, a.status, a.raw)
	}
	id, err := a.body["savedEmpresa"].(map[string]any)["id"].(json.Number).Int64()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (e *env) countEmpresas(t *testing.T) int {
	t.Helper()
	var n int
	if err := e.db.QueryRow(context.Background(), `SELECT count(*) FROM empresas`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The typed answers below are the contract's shapes, written here rather
// than taken from the service's own types, so that a renamed, added or
// dropped field fails the tests (decodeAs refuses unknown fields) and
// cmp.Diff says which.

// wireError is the error answer: {"message","code"[,"fields"]}.
type wireError struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// wireResponsavel is the person responsible for a company.
type wireResponsavel struct {
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
}

// wireEmpresa is a company as savedEmpresa (with password, the bcrypt
// hash) and GET /empresas/me (with nome) show it.
type wireEmpresa struct {
	ID                int64            `json:"id"`
	AssinaturaStatus  *string          `json:"assinaturaStatus"`
	CNPJ              string           `json:"cnpj"`
	DataAbertura      string           `json:"dataAbertura"`
	Email             string           `json:"email"`
	Endereco          *string          `json:"endereco"`
	FluxoCaixa        *string          `json:"fluxoCaixa"`
	InvoiceID         string           `json:"invoiceId"`
	NomeDoPlano       string           `json:"nomeDoPlano"`
	PrecoID           string           `json:"precoId"`
	RazaoSocial       string           `json:"razaoSocial"`
	Role              string           `json:"role"`
	BillingCustomerID string           `json:"billingCustomerId"`
	FusoHorario       string           `json:"fusoHorario"`
	Responsavel       *wireResponsavel `json:"responsavel"`
	Password          string           `json:"password,omitempty"`
	Nome              string           `json:"nome,omitempty"`
}

// wireCadastro is the answer to POST /empresas: the subscription is
// Stripe's own JSON, passed through.
type wireCadastro struct {
	SavedEmpresa wireEmpresa     `json:"savedEmpresa"`
	Subscription json.RawMessage `json:"subscription"`
}

// wireCompany is the internal API's company view and, with the fields
// support needs, an item of the admin listing.
type wireCompany struct {
	ID                int64            `json:"id"`
	Email             string           `json:"email"`
	Nome              string           `json:"nome"`
	RazaoSocial       string           `json:"razaoSocial"`
	CNPJ              string           `json:"cnpj"`
	Role              string           `json:"role"`
	NomeDoPlano       string           `json:"nomeDoPlano"`
	AssinaturaStatus  *string          `json:"assinaturaStatus"`
	Bloqueada         bool             `json:"bloqueada"`
	FusoHorario       string           `json:"fusoHorario"`
	Responsavel       *wireResponsavel `json:"responsavel"`
	BillingCustomerID string           `json:"billingCustomerId,omitempty"`
	SubscriptionID    string           `json:"subscriptionId,omitempty"`
	PrecoID           string           `json:"precoId,omitempty"`
	CriadaEm          string           `json:"criadaEm,omitempty"`
}

// wirePage is a page of a listing.
type wirePage[T any] struct {
	Itens   []T `json:"itens"`
	Pagina  int `json:"pagina"`
	Tamanho int `json:"tamanho"`
	Total   int `json:"total"`
}

// decodeAs decodes a's JSON body into T, refusing any field T lacks.
func decodeAs[T any](t *testing.T, a answer) T {
	t.Helper()
	var v T
	d := json.NewDecoder(bytes.NewReader(a.raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("answer %d is not a %T: %v: %s", a.status, v, err, a.raw)
	}
	return v
}

// outcome is what a refusal is checked by: the status and, for an error
// answer, its code.
type outcome struct {
	Status int
	Code   string
}

// outcome reads a's status and, when it is an error, its code.
func (a answer) outcome(t *testing.T) outcome {
	t.Helper()
	o := outcome{Status: a.status}
	if a.status >= 400 && len(a.raw) > 0 {
		o.Code = decodeAs[wireError](t, a).Code
	}
	return o
}

// wantOutcome fails the test unless a has the status and code of want.
func wantOutcome(t *testing.T, what string, a answer, want outcome) {
	t.Helper()
	if diff := cmp.Diff(want, a.outcome(t)); diff != "" {
		t.Errorf("%s (-want +got):\n%s%s", what, diff, a.raw)
	}
}
