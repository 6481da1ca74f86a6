package empresas

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the company calendar must not depend on the image's zoneinfo

	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
)

// cadastroRequest is the contract's company request. Unknown fields are
// refused by httpserver.DecodeJSON.
type cadastroRequest struct {
	CNPJ         string `json:"cnpj"`
	DataAbertura string `json:"dataAbertura"`
	Email        string `json:"email"`
	Nome         string `json:"nome"`
	NomeDoPlano  string `json:"nomeDoPlano"`
	Password     string `json:"password"`
	RazaoSocial  string `json:"razaoSocial"`
	// FusoHorario is optional: the configured default when absent.
	FusoHorario *string `json:"fusoHorario"`
	// Responsavel is optional: the company may name its responsible
	// person later (PATCH /empresas/me).
	Responsavel *responsavelInput `json:"responsavel"`
}

// responsavelInput is the person responsible for the company before the
// REP, as sent.
type responsavelInput struct {
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
}

// checkResponsavel validates r (nil is "not sent") under the field names
// responsavel.nome and responsavel.cpf.
func checkResponsavel(errs validate.Errors, r *responsavelInput) *Responsavel {
	if r == nil {
		return nil
	}
	if errs.Required(r.Nome, "responsavel.nome") {
		errs.Length(r.Nome, "responsavel.nome", minNome, maxNome)
	}
	if errs.Required(r.CPF, "responsavel.cpf") {
		errs.Check(brdocs.ValidCPF(r.CPF), "responsavel.cpf", "CPF inválido: use ###.###.###-## com dígitos verificadores corretos")
	}
	return &Responsavel{Nome: r.Nome, CPF: r.CPF}
}

// Length bounds of the free-text fields.
const (
	// One letter is a real company name ("X"); blank is refused apart.
	minNome, maxNome               = 1, 120
	minRazaoSocial, maxRazaoSocial = 1, 150
)

// firstAbertura is the earliest opening date accepted: older is a typo.
var firstAbertura = time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC)

// cadastro is a validated registration.
type cadastro struct {
	cadastroRequest
	plan         plans.Plan
	dataAbertura time.Time
	// idempotencyKey is the client's Idempotency-Key header, if any.
	idempotencyKey string
	// fusoHorario is the zone sent, or the default.
	fusoHorario string
	// responsavel is the responsible person sent, or nil.
	responsavel *Responsavel
}

// checkCadastro checks every field and answers one 400 naming all the bad ones.
// A company without fusoHorario gets zonaPadrao.
func checkCadastro(req cadastroRequest, idemKey string, catalog plans.Catalog, zonaPadrao string, now time.Time) (cadastro, error) {
	errs := validate.Errors{}
	if errs.Required(req.Nome, "nome") {
		errs.Length(req.Nome, "nome", minNome, maxNome)
	}
	if errs.Required(req.RazaoSocial, "razaoSocial") {
		errs.Length(req.RazaoSocial, "razaoSocial", minRazaoSocial, maxRazaoSocial)
	}
	if errs.Required(req.CNPJ, "cnpj") {
		errs.Check(brdocs.ValidCNPJ(req.CNPJ), "cnpj", "CNPJ inválido: use ##.###.###/####-## com dígitos verificadores corretos")
	}
	errs.RequiredEmail(req.Email, "email")
	plan, known := catalog.Lookup(req.NomeDoPlano)
	if errs.Required(req.NomeDoPlano, "nomeDoPlano") {
		errs.Check(known, "nomeDoPlano", "plano desconhecido; planos disponíveis: "+strings.Join(catalog.Names(), ", "))
	}
	if errs.Required(req.Password, "password") {
		errs.Check(password.CheckStrength(req.Password) == nil, "password", password.ErrWeak.Error())
	}
	// The header is optional: an empty one is no key.
	errs.Check(idemKey == "" || validate.IdempotencyKey(idemKey), validate.IdempotencyKeyHeader, validate.IdempotencyKeyMessage)
	zona := zonaPadrao
	if req.FusoHorario != nil {
		zona = *req.FusoHorario
		errs.Check(validate.TimeZone(zona), "fusoHorario", validate.TimeZoneMessage)
	}
	abertura := checkAbertura(errs, req.DataAbertura, today(now, zona, zonaPadrao))
	resp := checkResponsavel(errs, req.Responsavel)
	if err := errs.Err(); err != nil {
		return cadastro{}, err
	}
	return cadastro{cadastroRequest: req, plan: plan, dataAbertura: abertura, idempotencyKey: idemKey,
		fusoHorario: zona, responsavel: resp}, nil
}

// today is now's date in the company's zone, zona (or zonaPadrao when
// zona is refused, which the answer reports anyway), as a UTC midnight:
// just after midnight where the company is, a company opened that day is
// not in the future.
func today(now time.Time, zona, zonaPadrao string) time.Time {
	if !validate.TimeZone(zona) {
		zona = zonaPadrao
	}
	if loc, err := time.LoadLocation(zona); err == nil {
		now = now.In(loc)
	}
	y, m, d := now.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// checkAbertura parses dataAbertura: a real DD/MM/YYYY date, not after
// today (the company's) and not absurdly old.
func checkAbertura(errs validate.Errors, s string, today time.Time) time.Time {
	if !errs.Required(s, "dataAbertura") {
		return time.Time{}
	}
	d, ok := validate.DateBR(s)
	errs.Check(ok, "dataAbertura", "data inválida: use DD/MM/AAAA com uma data que exista")
	if !ok {
		return time.Time{}
	}
	errs.Check(!d.After(today), "dataAbertura", "a data de abertura não pode estar no futuro")
	errs.Check(!d.Before(firstAbertura), "dataAbertura", "a data de abertura deve ser posterior a 01/01/1800")
	return d
}

// fingerprint identifies a registration request for idempotency: the
// same request sent again (a retry) has the same fingerprint. It covers
// every value Stripe is told (Stripe refuses a key reused with other
// parameters) plus the client's Idempotency-Key, and never the password,
// so nothing derived from it leaves the service.
func (c cadastro) fingerprint() string {
	h := sha256.New()
	for _, part := range []string{
		c.CNPJ, strings.ToLower(c.Email), c.Nome, c.RazaoSocial, c.DataAbertura, c.NomeDoPlano,
		c.plan.PriceID, strconv.FormatInt(c.plan.TrialDays, 10), c.idempotencyKey,
	} {
		h.Write([]byte(part))
		h.Write([]byte{0}) // separator: "ab"+"c" differs from "a"+"bc"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// stripeKeys derives the Stripe idempotency keys of the registration from
// its fingerprint and compensation generation: a retry sends the same
// keys, so Stripe answers with the customer and subscription it made the
// first time; after a compensation (generation+1) the keys are new,
// because Stripe would otherwise replay the objects just deleted.
func (c cadastro) stripeKeys(fingerprint string, generation int) (customer, subscription string) {
	base := fmt.Sprintf("ponto-empresa-%s-%s-g%d", brdocs.Plain(c.CNPJ), fingerprint[:32], generation)
	return base + "-cliente", base + "-assinatura"
}
