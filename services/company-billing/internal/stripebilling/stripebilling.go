// Package stripebilling is this service's door to Stripe: it creates the
// customer and the trial subscription of a new company, undoes them when
// the company could not be stored, and turns every Stripe failure into a
// domainerr.BadDependency (a 502). It uses stripe-go's client API with a
// backend whose URL is configurable, so local development and tests talk
// to stripe-mock.
package stripebilling

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
)

// Config is the Stripe part of the configuration.
type Config struct {
	APIURL string `conf:"env:STRIPE_API_URL,default:https://api.stripe.com,help:Stripe API base URL (stripe-mock in development)"`
	// SecretKey is the restricted or secret API key (sk_...).
	SecretKey string `conf:"env:STRIPE_SECRET_KEY,mask,required"`
	// WebhookSecret (whsec_...) verifies the signature of webhook events.
	// Without it the webhook route refuses every event with 503.
	WebhookSecret string        `conf:"env:STRIPE_WEBHOOK_SECRET,mask,help:signing secret of the Stripe webhook endpoint"`
	Timeout       time.Duration `conf:"env:STRIPE_TIMEOUT,default:5s,help:timeout of each Stripe request"`
	// MaxNetworkRetries: stripe-go retries connection failures, 409s and
	// some 5xx with the same idempotency key, so a retry is safe.
	MaxNetworkRetries int64 `conf:"env:STRIPE_MAX_NETWORK_RETRIES,default:2"`
}

// Validate refuses an unusable configuration at start-up.
func (c *Config) Validate() error {
	var errs []error
	u, err := url.Parse(c.APIURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("STRIPE_API_URL %q: want an http(s) URL", c.APIURL))
	}
	if c.SecretKey == "" {
		errs = append(errs, errors.New("STRIPE_SECRET_KEY is required"))
	}
	if c.Timeout <= 0 {
		errs = append(errs, errors.New("STRIPE_TIMEOUT must be positive"))
	}
	if c.MaxNetworkRetries < 0 || c.MaxNetworkRetries > 5 {
		errs = append(errs, errors.New("STRIPE_MAX_NETWORK_RETRIES must be between 0 and 5"))
	}
	return errors.Join(errs...)
}

// Client creates and removes the Stripe objects of companies. It is safe
// for concurrent use.
type Client struct {
	api *client.API
	log *slog.Logger
}

// New builds a client for cfg.APIURL with cfg.SecretKey.
func New(cfg Config, log *slog.Logger) *Client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	backend := stripe.GetBackendWithConfig(stripe.APIBackend, &stripe.BackendConfig{
		URL:               stripe.String(cfg.APIURL),
		HTTPClient:        &http.Client{Timeout: cfg.Timeout, Transport: otelhttp.NewTransport(transport)},
		MaxNetworkRetries: stripe.Int64(cfg.MaxNetworkRetries),
		LeveledLogger:     slogAdapter{log},
		// Request-latency telemetry sent to Stripe: nothing we need.
		EnableTelemetry: stripe.Bool(false),
	})
	// Only the API backend is used (no file uploads, no OAuth).
	return &Client{api: client.New(cfg.SecretKey, &stripe.Backends{API: backend}), log: log}
}

// Company is what Stripe is told about a new company.
type Company struct {
	CNPJ        string
	Email       string
	Nome        string
	RazaoSocial string
}

// Keys are the idempotency keys of a registration's Stripe requests. A
// retried registration must send the same keys, so that Stripe answers
// with the objects it made the first time instead of making new ones.
type Keys struct {
	Customer     string
	Subscription string
}

// Subscription is the part of Stripe's answer that registration keeps,
// plus the answer itself, untouched.
type Subscription struct {
	ID         string
	CustomerID string
	InvoiceID  string
	// Raw is the body Stripe sent for the subscription, byte for byte.
	Raw json.RawMessage
}

// CreateCustomer creates the company's Stripe customer and returns its id.
func (c *Client) CreateCustomer(ctx context.Context, co Company, plan plans.Plan, key string) (string, error) {
	params := &stripe.CustomerParams{
		Email: stripe.String(co.Email),
		Name:  stripe.String(co.RazaoSocial),
		Metadata: map[string]string{
			"cnpj": co.CNPJ, "nome": co.Nome, "plano": plan.Name,
		},
	}
	params.Context = ctx
	params.SetIdempotencyKey(key)
	cus, err := c.api.Customers.New(params)
	if err != nil {
		return "", failure("create customer", err)
	}
	return cus.ID, nil
}

// CreateSubscription subscribes customerID to plan, with the plan's trial.
func (c *Client) CreateSubscription(ctx context.Context, customerID string, co Company, plan plans.Plan, key string) (Subscription, error) {
	params := &stripe.SubscriptionParams{
		Customer: stripe.String(customerID),
		Items:    []*stripe.SubscriptionItemsParams{{Price: stripe.String(plan.PriceID)}},
		Metadata: map[string]string{"cnpj": co.CNPJ, "plano": plan.Name},
	}
	if plan.TrialDays > 0 {
		params.TrialPeriodDays = stripe.Int64(plan.TrialDays)
	}
	params.Context = ctx
	params.SetIdempotencyKey(key)
	sub, err := c.api.Subscriptions.New(params)
	if err != nil {
		return Subscription{}, failure("create subscription", err)
	}
	out := Subscription{ID: sub.ID, CustomerID: customerID, Raw: json.RawMessage(sub.LastResponse.RawJSON)}
	if sub.LatestInvoice != nil && sub.LatestInvoice.ID != "" {
		out.InvoiceID = sub.LatestInvoice.ID
		return out, nil
	}
	// Stripe always names the first invoice of a new subscription;
	// stripe-mock leaves latest_invoice null, so look the invoice up.
	out.InvoiceID, err = c.firstInvoice(ctx, sub.ID)
	return out, err
}

func (c *Client) firstInvoice(ctx context.Context, subscriptionID string) (string, error) {
	params := &stripe.InvoiceListParams{Subscription: stripe.String(subscriptionID)}
	params.Context = ctx
	params.Limit = stripe.Int64(1)
	params.Single = true // one page is enough
	it := c.api.Invoices.List(params)
	if it.Next() {
		return it.Invoice().ID, nil
	}
	if err := it.Err(); err != nil {
		return "", failure("list invoices", err)
	}
	return "", failure("list invoices", fmt.Errorf("subscription %s has no invoice", subscriptionID))
}

// Undo cancels the subscription and deletes the customer of a company
// that could not be stored: the compensation of a registration. It keeps
// going after a failure so that as much as possible is undone, and runs on
// its own deadline because the request's may be spent.
func (c *Client) Undo(ctx context.Context, customerID, subscriptionID string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	var errs []error
	if subscriptionID != "" {
		p := &stripe.SubscriptionCancelParams{}
		p.Context = ctx
		if _, err := c.api.Subscriptions.Cancel(subscriptionID, p); err != nil {
			errs = append(errs, fmt.Errorf("cancel subscription %s: %w", subscriptionID, err))
		}
	}
	if customerID != "" {
		p := &stripe.CustomerParams{}
		p.Context = ctx
		if _, err := c.api.Customers.Del(customerID, p); err != nil {
			errs = append(errs, fmt.Errorf("delete customer %s: %w", customerID, err))
		}
	}
	return errors.Join(errs...)
}

// failure is the 502 every Stripe error becomes: whether Stripe refused
// the request or could not be reached, the registration cannot go on, and
// the client may retry it.
func failure(op string, err error) *domainerr.Error {
	var se *stripe.Error
	if errors.As(err, &se) {
		err = fmt.Errorf("%s: status %d, type %s, code %s, request %s: %s",
			op, se.HTTPStatusCode, se.Type, se.Code, se.RequestID, se.Msg)
	} else {
		err = fmt.Errorf("%s: %w", op, err)
	}
	return domainerr.BadDependency("stripe", err)
}

// slogAdapter routes stripe-go's own log lines to the service log: its
// per-request chatter at debug level, its failures as warnings (the
// handler logs the error that reaches the client).
type slogAdapter struct{ log *slog.Logger }

func (a slogAdapter) Debugf(format string, v ...any) {
	a.log.Debug("stripe: " + fmt.Sprintf(format, v...))
}
func (a slogAdapter) Infof(format string, v ...any) {
	a.log.Debug("stripe: " + fmt.Sprintf(format, v...))
}
func (a slogAdapter) Warnf(format string, v ...any) {
	a.log.Warn("stripe: " + fmt.Sprintf(format, v...))
}
func (a slogAdapter) Errorf(format string, v ...any) {
	a.log.Warn("stripe: " + fmt.Sprintf(format, v...))
}
