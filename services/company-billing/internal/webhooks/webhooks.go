// Package webhooks receives Stripe's webhook events (POST
// /webhooks/stripe, no token: the Stripe-Signature header is the
// authentication) and keeps each company's assinaturaStatus current from
// the customer.subscription.* events.
package webhooks

import (
	"encoding/json"
	"log/slog"
	"regexp"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/ponto/ponto/pkg/domainerr"
)

// MaxBody bounds an event's size; subscription events are a few KiB.
const MaxBody = 256 << 10

// Tolerance is how old a signature may be: the replay window.
const Tolerance = webhook.DefaultTolerance

// subscriptionEvents carry a subscription object whose status is current
// as of the event. trial_will_end changes nothing but carries the status
// too, so applying it is harmless.
var subscriptionEvents = map[stripe.EventType]bool{
	"customer.subscription.created":                true,
	"customer.subscription.updated":                true,
	"customer.subscription.deleted":                true,
	"customer.subscription.paused":                 true,
	"customer.subscription.resumed":                true,
	"customer.subscription.trial_will_end":         true,
	"customer.subscription.pending_update_applied": true,
	"customer.subscription.pending_update_expired": true,
}

// validStatus keeps what is stored to the shape of Stripe's statuses.
var validStatus = regexp.MustCompile(`^[a-z_]{1,32}$`)

// Handler receives the events.
type Handler struct {
	// Secret is the endpoint's signing secret (STRIPE_WEBHOOK_SECRET).
	Secret string
	Store  *Store
	Log    *slog.Logger
}

// Mount registers POST /webhooks/stripe on app (the public listener).
func (h *Handler) Mount(app *fiber.App) { app.Post("/webhooks/stripe", h.receber) }

// New returns a handler storing into db.
func New(secret string, db *pgxpool.Pool, log *slog.Logger) *Handler {
	return &Handler{Secret: secret, Store: &Store{db: db}, Log: log}
}

type answer struct {
	Recebido bool `json:"recebido"`
}

// receber verifies the signature, then applies subscription events.
// Anything Stripe must not retry (an event of another type, a
// subscription that is not one of ours, an event older than the status
// already stored) answers 200; a database failure answers 503 so that
// Stripe delivers again.
func (h *Handler) receber(c *fiber.Ctx) error {
	if h.Secret == "" {
		return domainerr.New(domainerr.KindUnavailable, "webhook_nao_configurado", "webhook do Stripe não configurado")
	}
	body := c.Body()
	if len(body) > MaxBody {
		return domainerr.TooLarge("evento grande demais")
	}
	sig := c.Get("Stripe-Signature")
	if sig == "" {
		return domainerr.Malformed("assinatura_ausente", "cabeçalho Stripe-Signature ausente")
	}
	// The event's api_version may differ from stripe-go's: only the
	// subscription's id and status are read, which every version has.
	ev, err := webhook.ConstructEventWithOptions(body, sig, h.Secret, webhook.ConstructEventOptions{
		Tolerance: Tolerance, IgnoreAPIVersionMismatch: true,
	})
	if err != nil {
		return domainerr.Malformed("assinatura_invalida", "assinatura do evento inválida").Wrap(err)
	}
	log := h.Log.With("event_id", ev.ID, "event_type", string(ev.Type))
	if !subscriptionEvents[ev.Type] || ev.Data == nil {
		log.DebugContext(c.UserContext(), "stripe webhook: evento ignorado")
		return c.JSON(answer{Recebido: true})
	}
	var sub struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(ev.Data.Raw, &sub); err != nil || sub.ID == "" || !validStatus.MatchString(sub.Status) {
		// Signed by Stripe, so not an attack; retrying would not fix it.
		log.WarnContext(c.UserContext(), "stripe webhook: assinatura sem id ou status; ignorado")
		return c.JSON(answer{Recebido: true})
	}
	applied, err := h.Store.SetStatus(c.UserContext(), sub.ID, sub.Status, ev.Created)
	if err != nil {
		return err
	}
	log.InfoContext(c.UserContext(), "stripe webhook: assinatura", "subscription", sub.ID,
		"status", sub.Status, "applied", applied, "event_created", time.Unix(ev.Created, 0).UTC())
	return c.JSON(answer{Recebido: true})
}
