// Package verificacao serves the public check of a punch receipt:
// GET /verificacao/{hash}, with no login, where the receipt's QR code
// points. A labour inspector or a court checks a printed receipt without
// asking the employer: whether the punch is in the record store, its NSR,
// time and offset, the employer's CNPJ (the establishment's own for a
// branch's chain, named with its CAEPF or CNO otherwise) and whether the
// chain verifies up to it. Nothing names the employee (no name, no CPF).
// The route is rate-limited per client address.
package verificacao

import (
	"regexp"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/estabelecimento"
)

// Path is the route's prefix; the receipt's QR code is the public base
// URL, Path and the hash.
const Path = "/verificacao/"

// Handlers serve the check.
type Handlers struct {
	store     *Store
	companies *companybillingapi.Client
	limits    []fiber.Handler
}

// NewHandlers returns the handlers; limits (pkg/ratelimit's per-address
// budgets) run before each check.
func NewHandlers(store *Store, companies *companybillingapi.Client, limits ...fiber.Handler) *Handlers {
	return &Handlers{store: store, companies: companies, limits: limits}
}

// Public mounts the route on r with no token verification.
func (h *Handlers) Public(r fiber.Router) {
	r.Get(Path+":hash", append(h.limits, h.get)...)
}

// Resultado is the answer.
type Resultado struct {
	Existe           bool   `json:"existe"`
	Hash             string `json:"hash"`
	NSR              int64  `json:"nsr"`
	HorarioRegistro  string `json:"horarioRegistro"`
	HorarioLocal     string `json:"horarioLocal"`
	FusoMinutos      int    `json:"fusoMinutos"`
	CNPJEmpregador   string `json:"cnpjEmpregador"`
	CadeiaVerificada bool   `json:"cadeiaVerificada"`
	// Estabelecimento identifies the establishment of a branch's chain
	// (null for the principal one, whose identification is the
	// company's): its CNPJ, CAEPF or CNO.
	Estabelecimento *estabelecimento.Estabelecimento `json:"estabelecimento"`
}

var hashFormat = regexp.MustCompile(`^[0-9a-f]{64}$`)

// get is GET /verificacao/{hash}: 200 Resultado; 400 for a hash that is
// not 64 lowercase hex digits, 404 when no punch has it, 429 beyond the
// rate, 503 when company-billing (the CNPJ) is down.
func (h *Handlers) get(c *fiber.Ctx) error {
	hash := strings.ToLower(c.Params("hash"))
	if !hashFormat.MatchString(hash) {
		return domainerr.InvalidField("hash", "use os 64 caracteres hexadecimais (minúsculos) do comprovante")
	}
	ctx := c.UserContext()
	p, err := h.store.Find(ctx, hash)
	if err != nil {
		return err
	}
	ok, err := h.store.ChainVerifies(ctx, p.Chain, p.NSR)
	if err != nil {
		return err
	}
	emp, err := h.companies.GetEmpresa(ctx, p.EmpresaID)
	if err != nil {
		return err
	}
	est, err := h.store.Estabelecimento(ctx, p.Chain)
	if err != nil {
		return err
	}
	local := p.Horario.In(time.FixedZone("", p.OffsetMinutes*60))
	return c.JSON(Resultado{Existe: true, Hash: hash, NSR: p.NSR, HorarioRegistro: clock.FormatISO(p.Horario),
		HorarioLocal: local.Format("2006-01-02T15:04:05-07:00"), FusoMinutos: p.OffsetMinutes,
		CNPJEmpregador: est.CNPJ(emp.CNPJ), CadeiaVerificada: ok, Estabelecimento: est})
}
