package empresas

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/company-billing/internal/stripebilling"
)

type cadastroResponse struct {
	SavedEmpresa savedEmpresa `json:"savedEmpresa"`
	// Subscription is Stripe's JSON for the subscription, as Stripe sent it.
	Subscription json.RawMessage `json:"subscription"`
}

// create is POST /empresas (no token): validate, refuse duplicates,
// create the Stripe customer and trial subscription, store the company.
func (s *Service) create(c *fiber.Ctx) error {
	var req cadastroRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	cad, err := checkCadastro(req, c.Get(validate.IdempotencyKeyHeader), s.Plans, s.Config.FusoHorarioPadrao, s.Clock.Now())
	if err != nil {
		return err
	}
	e, sub, err := s.register(c.UserContext(), cad)
	if err != nil {
		return err
	}
	return c.JSON(cadastroResponse{SavedEmpresa: newSavedEmpresa(e), Subscription: sub.Raw})
}

// register runs the registration. Stripe comes before the database
// because the row must hold the Stripe ids; every Stripe request carries
// an idempotency key derived from the request, so a retry after any
// failure reuses the customer and subscription already made. When the
// insert fails after Stripe succeeded, they are undone (compensar).
func (s *Service) register(ctx context.Context, cad cadastro) (Empresa, stripebilling.Subscription, error) {
	var sub stripebilling.Subscription
	// Refuse a known duplicate before anything is made in Stripe; the
	// unique indexes still decide races.
	field, err := s.Store.Duplicate(ctx, cad.CNPJ, cad.Email)
	if err != nil {
		return Empresa{}, sub, err
	}
	if field != "" {
		return Empresa{}, sub, duplicate(field)
	}
	hash, err := password.Hash(cad.Password)
	if err != nil {
		return Empresa{}, sub, err
	}
	fp := cad.fingerprint()
	gen, err := s.Store.Generation(ctx, fp)
	if err != nil {
		return Empresa{}, sub, err
	}
	customerKey, subscriptionKey := cad.stripeKeys(fp, gen)
	co := stripebilling.Company{CNPJ: cad.CNPJ, Email: cad.Email, Nome: cad.Nome, RazaoSocial: cad.RazaoSocial}

	// A Stripe failure leaves what was made in place: the client's retry
	// sends the same keys and carries on from there.
	customerID, err := s.Stripe.CreateCustomer(ctx, co, cad.plan, customerKey)
	if err != nil {
		return Empresa{}, sub, err
	}
	sub, err = s.Stripe.CreateSubscription(ctx, customerID, co, cad.plan, subscriptionKey)
	if err != nil {
		return Empresa{}, sub, err
	}

	e := Empresa{
		Nome: cad.Nome, RazaoSocial: cad.RazaoSocial, CNPJ: cad.CNPJ, DataAbertura: cad.dataAbertura,
		Email: cad.Email, PasswordHash: hash, NomeDoPlano: cad.plan.Name, Role: cad.plan.Role(),
		PrecoID: cad.plan.PriceID, InvoiceID: sub.InvoiceID, BillingCustomerID: customerID, SubscriptionID: sub.ID,
		FusoHorario: cad.fusoHorario, Responsavel: cad.responsavel,
	}
	if err := s.Store.Insert(ctx, &e); err != nil {
		return Empresa{}, sub, s.compensate(ctx, fp, gen, customerID, sub.ID, err)
	}
	s.Log.InfoContext(ctx, "empresa cadastrada", "empresa_id", e.ID, "plano", e.NomeDoPlano,
		"customer", customerID, "subscription", sub.ID)
	return e, sub, nil
}

// compensate handles an insert that failed after Stripe succeeded and
// returns the error for the client. The customer and subscription are
// undone unless a stored company already owns them (an identical request
// won the race). The compensation is first recorded in the database, so
// the next attempt uses new idempotency keys; if even that fails, the
// Stripe objects are kept for the retry to adopt with the same keys.
func (s *Service) compensate(ctx context.Context, fp string, gen int, customerID, subscriptionID string, insertErr error) error {
	ctx = context.WithoutCancel(ctx) // the request's deadline may be what failed
	log := s.Log.With("customer", customerID, "subscription", subscriptionID, "err", insertErr.Error())
	// Whatever made the insert fail, the registration is undone below or
	// kept for a retry with the same keys: the client may send it again.
	var clientErr error = domainerr.Unavailable("postgres", insertErr)
	var dup *duplicateError
	if errors.As(insertErr, &dup) {
		clientErr = duplicate(dup.field)
		owned, err := s.Store.OwnsCustomer(ctx, customerID)
		if err == nil && owned {
			log.InfoContext(ctx, "cadastro repetido: a empresa já existe com estes objetos do Stripe; nada a desfazer")
			return clientErr
		}
	}
	if err := s.Store.BurnGeneration(ctx, fp, gen); err != nil {
		log.ErrorContext(ctx, "compensação adiada: não foi possível registrá-la; cliente e assinatura mantidos para a nova tentativa",
			"burn_err", err.Error())
		return clientErr
	}
	if err := s.Stripe.Undo(ctx, customerID, subscriptionID); err != nil {
		log.ErrorContext(ctx, "compensação falhou: cancelar a assinatura e apagar o cliente no Stripe manualmente",
			"undo_err", err.Error())
		return clientErr
	}
	log.WarnContext(ctx, "compensação feita: assinatura cancelada e cliente apagado no Stripe")
	return clientErr
}

// duplicate is the 409 for a repeated field; nil when field is "".
func duplicate(field string) error {
	switch field {
	case "":
		return nil
	case "cnpj":
		return domainerr.Conflict("cnpj_duplicado", "já existe uma empresa com este CNPJ")
	case "email":
		return domainerr.Conflict("email_duplicado", "já existe uma empresa com este e-mail")
	default:
		return domainerr.Conflict("cadastro_duplicado", "esta empresa já foi cadastrada")
	}
}
