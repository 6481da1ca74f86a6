package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/services/company-billing/internal/stripetest"
)

const secret = "whsec_teste_0123456789"

type env struct {
	db  *pgxpool.Pool
	url string
	// subscription is a subscription object as stripe-mock renders it.
	subscription map[string]any
}

func newEnv(t *testing.T, secret string) *env {
	t.Helper()
	e := &env{db: dbtest.New(t, os.DirFS("../../migrations"))}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httpserver.New("company-billing", httpserver.Config{
		ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 5 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
		BodyLimit: 1 << 20,
	}, log)
	New(secret, e.db, log).Mount(srv.Public)
	e.url = servertest.Start(t, srv).Public + "/webhooks/stripe"
	e.subscription = stripeMockSubscription(t)
	return e
}

// stripeMockSubscription asks stripe-mock for a subscription object, so
// that events carry what Stripe really sends.
func stripeMockSubscription(t *testing.T) map[string]any {
	t.Helper()
	form := strings.NewReader("customer=cus_teste&items[0][price]=price_1basic")
	req, _ := http.NewRequest(http.MethodPost, stripetest.MockURL(t)+"/v1/subscriptions", form)
	req.Header.Set("Authorization", "Bearer "+stripetest.Key)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sub map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&sub); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("stripe-mock subscription: %d %v", resp.StatusCode, err)
	}
	return sub
}

// insertEmpresa stores a company whose subscription is subID.
func (e *env) insertEmpresa(t *testing.T, subID string) {
	t.Helper()
	_, err := e.db.Exec(context.Background(), `
		INSERT INTO empresas (nome, razao_social, cnpj, data_abertura, email, password_hash, nome_do_plano,
			role, preco_id, invoice_id, billing_customer_id, subscription_id)
		VALUES ('E', 'E Ltda', '11.222.333/0001-81', '2010-01-01', 'e@e.com.br', 'x', 'basic',
			'empresa_plan_basic', 'price_1basic', 'in_1', 'cus_1', $1)`, subID)
	if err != nil {
		t.Fatal(err)
	}
}

func (e *env) status(t *testing.T, subID string) *string {
	t.Helper()
	var s *string
	if err := e.db.QueryRow(context.Background(), `SELECT assinatura_status FROM empresas WHERE subscription_id = $1`, subID).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// event builds a Stripe event of type typ about subscription subID.
func (e *env) event(t *testing.T, typ, subID, status string, created int64) []byte {
	t.Helper()
	obj := map[string]any{}
	for k, v := range e.subscription {
		obj[k] = v
	}
	obj["id"], obj["status"] = subID, status
	b, err := json.Marshal(map[string]any{
		"id": "evt_" + subID + typ, "object": "event", "api_version": "2024-06-20", "created": created,
		"type": typ, "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": obj},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func post(t *testing.T, url string, body []byte, signature string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if signature != "" {
		req.Header.Set("Stripe-Signature", signature)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func sign(body []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: at}).Header
}

func TestSignedSubscriptionEventsKeepTheStatusCurrent(t *testing.T) {
	e := newEnv(t, secret)
	e.insertEmpresa(t, "sub_a")
	now := time.Now()
	steps := []struct {
		typ, status string
		created     int64
		want        string
	}{
		{"customer.subscription.created", "trialing", now.Unix() - 100, "trialing"},
		{"customer.subscription.trial_will_end", "trialing", now.Unix() - 90, "trialing"},
		{"customer.subscription.updated", "active", now.Unix() - 50, "active"},
		// Delivered late: older than what is stored, so ignored.
		{"customer.subscription.updated", "past_due", now.Unix() - 60, "active"},
		{"customer.subscription.deleted", "canceled", now.Unix(), "canceled"},
	}
	for _, s := range steps {
		body := e.event(t, s.typ, "sub_a", s.status, s.created)
		if code, b := post(t, e.url, body, sign(body, secret, now)); code != http.StatusOK {
			t.Fatalf("%s: %d %s", s.typ, code, b)
		}
		if got := e.status(t, "sub_a"); got == nil || *got != s.want {
			t.Fatalf("after %s(%s): status %v, want %s", s.typ, s.status, got, s.want)
		}
	}
}

func TestEventsThatChangeNothingAnswer200(t *testing.T) {
	e := newEnv(t, secret)
	e.insertEmpresa(t, "sub_a")
	now := time.Now()
	for _, body := range [][]byte{
		e.event(t, "customer.subscription.updated", "sub_desconhecida", "active", now.Unix()),
		e.event(t, "invoice.paid", "sub_a", "active", now.Unix()),
	} {
		if code, b := post(t, e.url, body, sign(body, secret, now)); code != http.StatusOK {
			t.Errorf("%d %s", code, b)
		}
	}
	if got := e.status(t, "sub_a"); got != nil {
		t.Errorf("status %q changed by an event about something else", *got)
	}
}

func TestUnsignedOrBadlySignedEventsAre400(t *testing.T) {
	e := newEnv(t, secret)
	e.insertEmpresa(t, "sub_a")
	now := time.Now()
	body := e.event(t, "customer.subscription.updated", "sub_a", "active", now.Unix())
	tampered := bytes.Replace(body, []byte(`"active"`), []byte(`"canceled"`), 1)
	for name, c := range map[string]struct {
		body []byte
		sig  string
	}{
		"unsigned":          {body, ""},
		"garbage signature": {body, "t=1,v1=abc"},
		"other secret":      {body, sign(body, "whsec_outro", now)},
		"tampered body":     {tampered, sign(body, secret, now)},
		"replayed long ago": {body, sign(body, secret, now.Add(-time.Hour))},
	} {
		if code, b := post(t, e.url, c.body, c.sig); code != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, code, b)
		}
	}
	if got := e.status(t, "sub_a"); got != nil {
		t.Errorf("status changed to %q by an unverified event", *got)
	}
}

func TestOversizedEventIs413(t *testing.T) {
	e := newEnv(t, secret)
	body := append([]byte(`{"pad":"`), bytes.Repeat([]byte("a"), MaxBody)...)
	body = append(body, `"}`...)
	if code, b := post(t, e.url, body, sign(body, secret, time.Now())); code != http.StatusRequestEntityTooLarge {
		t.Errorf("%d %s", code, b)
	}
}

func TestWithoutASecretEveryEventIsRefused(t *testing.T) {
	e := newEnv(t, "")
	e.insertEmpresa(t, "sub_a")
	body := e.event(t, "customer.subscription.updated", "sub_a", "active", time.Now().Unix())
	// Signed with the empty secret: must not pass either.
	if code, _ := post(t, e.url, body, sign(body, "", time.Now())); code != http.StatusServiceUnavailable {
		t.Errorf("%d, want 503", code)
	}
	if got := e.status(t, "sub_a"); got != nil {
		t.Errorf("status changed to %q", *got)
	}
}
