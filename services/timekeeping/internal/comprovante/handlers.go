// Package comprovante serves a punch's receipt (Portaria MTP 671/2021):
// GET /registropontos/{registroId}/comprovante, a PDF that the employee
// may download at any time for his own punches (the law asks for at least
// 48 hours) and the company for its employees'.
package comprovante

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/signature"
	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/documento"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the receipt.
type Handlers struct {
	store     *Store
	employees *employee.Client
	companies *companybillingapi.Client
	rep       core.REP
	signer    *signature.Signer // nil: unsigned receipts
	// verificacao is the public check's URL up to the hash; empty: no QR
	// code.
	verificacao string
}

// NewHandlers returns the handlers; signer (nil when no certificate is
// configured) signs the receipts, verificacao is the public check's URL
// up to the hash (empty when no public base URL is configured).
func NewHandlers(store *Store, employees *employee.Client, companies *companybillingapi.Client, rep core.REP,
	signer *signature.Signer, verificacao string) *Handlers {
	return &Handlers{store: store, employees: employees, companies: companies, rep: rep, signer: signer,
		verificacao: verificacao}
}

// Public mounts the route on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/:registroId/comprovante",
		jwtauth.RequireRole(jwtauth.RoleFuncionario, jwtauth.RoleEmpresa), h.get)
}

// get is GET /registropontos/{registroId}/comprovante?assinar=: 200
// application/pdf, signed (PAdES) when a certificate is configured unless
// assinar=false. Signing happens here, when the receipt is asked for,
// never on the clock-in. 404 for an absence, another employee's punch
// (for an employee) or another company's.
func (h *Handlers) get(c *fiber.Ctx) error {
	caller, id, err := request.On(c, "registroId")
	if err != nil {
		return err
	}
	signing, err := documento.ReadSigning(c, h.signer)
	if err != nil {
		return err
	}
	var own int64
	if caller.Role == jwtauth.RoleFuncionario {
		own = caller.FuncionarioID
	}
	ctx := c.UserContext()
	m, err := h.store.Get(ctx, caller.EmpresaID, own, id)
	if err != nil {
		return err
	}
	nome := m.Nome
	if nome == "" { // a punch older than the REP's employee records
		f, err := h.employees.Funcionario(ctx, m.EmpresaID, m.FuncionarioID)
		if err != nil {
			return err
		}
		nome = f.Nome
	}
	emp, err := h.companies.GetEmpresa(ctx, m.EmpresaID)
	if err != nil {
		return err
	}
	b, err := PDF(m, nome, emp, h.rep, Extras{Assinatura: signing.Notice(), VerificacaoURL: h.verificacao})
	if err != nil {
		return err
	}
	return signing.Send(c, b, Titulo, FileName(m))
}
