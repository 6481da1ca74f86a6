// Package comprovante serves a punch's receipt (Portaria MTP 671/2021):
// GET /registropontos/{registroId}/comprovante, a PDF that the employee
// may download at any time for his own punches (the law asks for at least
// 48 hours) and the company for its employees'.
package comprovante

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/internal/afd"
	"github.com/ponto/ponto/services/timekeeping/internal/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/empresa"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the receipt.
type Handlers struct {
	store     *Store
	employees *employee.Client
	companies *empresa.Client
	rep       afd.REP
}

// NewHandlers returns the handlers.
func NewHandlers(store *Store, employees *employee.Client, companies *empresa.Client, rep afd.REP) *Handlers {
	return &Handlers{store: store, employees: employees, companies: companies, rep: rep}
}

// Public mounts the route on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/:registroId/comprovante",
		jwtauth.RequireRole(jwtauth.RoleFuncionario, jwtauth.RoleEmpresa), h.get)
}

// get is GET /registropontos/{registroId}/comprovante: 200 application/pdf.
// 404 for an absence, another employee's punch (for an employee) or
// another company's.
func (h *Handlers) get(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	id, err := request.ID(c, "registroId")
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
	emp, err := h.companies.Get(ctx, m.EmpresaID)
	if err != nil {
		return err
	}
	b, err := PDF(m, nome, emp, h.rep)
	if err != nil {
		return apierr.Internal(err)
	}
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+FileName(m)+`"`)
	return c.Send(b)
}
