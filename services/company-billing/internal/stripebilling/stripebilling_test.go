package stripebilling

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
	"github.com/ponto/ponto/services/company-billing/internal/stripetest"
)

func newClient(url string, retries int64) *Client {
	return New(Config{APIURL: url, SecretKey: stripetest.Key, Timeout: 5 * time.Second, MaxNetworkRetries: retries},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
}

var (
	company = Company{CNPJ: "11.222.333/0001-81", Email: "a@empresa.com.br", Nome: "A", RazaoSocial: "A Ltda"}
	basic   = plans.Plan{Name: "basic", PriceID: "price_1basic", TrialDays: 30}
)

func TestStripeRefusalIs502(t *testing.T) {
	p := stripetest.New(t)
	p.Fail(http.MethodPost, "/v1/customers", 1, http.StatusBadRequest)
	_, err := newClient(p.URL, 0).CreateCustomer(context.Background(), company, basic, "k1")
	e, ok := apierr.As(err)
	if !ok || e.Status != http.StatusBadGateway {
		t.Fatalf("err = %v", err)
	}
}

func TestNetworkRetriesKeepTheIdempotencyKey(t *testing.T) {
	p := stripetest.New(t)
	// A 409 is what Stripe answers while the same key is in flight;
	// stripe-go retries it, with the same key.
	p.Fail(http.MethodPost, "/v1/customers", 1, http.StatusConflict)
	id, err := newClient(p.URL, 1).CreateCustomer(context.Background(), company, basic, "chave-fixa")
	if err != nil || id == "" {
		t.Fatalf("id %q err %v", id, err)
	}
	reqs := p.Requests(http.MethodPost, "/v1/customers")
	if len(reqs) != 2 || reqs[0].IdempotencyKey != "chave-fixa" || reqs[1].IdempotencyKey != "chave-fixa" {
		t.Fatalf("requests %+v", reqs)
	}
}

func TestUndoCancelsAndDeletes(t *testing.T) {
	p := stripetest.New(t)
	if err := newClient(p.URL, 0).Undo(context.Background(), "cus_1", "sub_1"); err != nil {
		t.Fatal(err)
	}
	if len(p.Requests(http.MethodDelete, "/v1/subscriptions/sub_1")) != 1 || len(p.Requests(http.MethodDelete, "/v1/customers/cus_1")) != 1 {
		t.Fatalf("requests %+v", p.Requests("", ""))
	}
}

func TestUndoGoesOnAfterAFailure(t *testing.T) {
	p := stripetest.New(t)
	p.Fail(http.MethodDelete, "/v1/subscriptions/sub_1", 1, http.StatusInternalServerError)
	if err := newClient(p.URL, 0).Undo(context.Background(), "cus_1", "sub_1"); err == nil {
		t.Fatal("failure not reported")
	}
	if len(p.Requests(http.MethodDelete, "/v1/customers/cus_1")) != 1 {
		t.Fatal("customer not deleted after the cancel failed")
	}
}

func TestCreateSubscriptionFindsTheInvoice(t *testing.T) {
	p := stripetest.New(t)
	sub, err := newClient(p.URL, 0).CreateSubscription(context.Background(), "cus_1", company, basic, "k2")
	if err != nil {
		t.Fatal(err)
	}
	if sub.ID == "" || sub.InvoiceID == "" || sub.CustomerID != "cus_1" {
		t.Fatalf("%+v", sub)
	}
	recorded := p.Requests(http.MethodPost, "/v1/subscriptions")
	if len(recorded) != 1 || string(recorded[0].Body) != string(sub.Raw) {
		t.Fatal("Raw is not the body Stripe sent")
	}
}
