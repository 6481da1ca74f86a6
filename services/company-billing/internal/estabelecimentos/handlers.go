// Package estabelecimentos keeps a company's establishments (head office,
// branches, rural sites, building sites), each identified by a CNPJ,
// CAEPF or CNO and each with its own NSR sequence in the REP (Portaria
// 671, Anexo IX item 6): the company's routes under
// /empresas/me/estabelecimentos, the internal read employee uses, and the
// REP events estabelecimento.incluido and estabelecimento.alterado,
// written with each change through the outbox. rules.go validates,
// store.go holds the SQL.
package estabelecimentos

import (
	"context"
	"log/slog"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/company-billing/internalapi"
)

// Funcionarios counts an establishment's active employees (employee's
// internal API: services/employee/internalapi's Client).
type Funcionarios interface {
	AtivosNoEstabelecimento(ctx context.Context, empresaID, estabelecimentoID int64) (int, error)
}

// Handlers serve the establishment routes.
type Handlers struct {
	Store        *Store
	Funcionarios Funcionarios
	Log          *slog.Logger
}

// Public registers the company's routes on r behind the verifier.
func (h *Handlers) Public(r fiber.Router, v *jwtauth.Verifier) {
	g := r.Group("/empresas/me/estabelecimentos", v.Middleware(), jwtauth.RequireRole(jwtauth.RoleEmpresa))
	g.Get("", h.list)
	g.Post("", h.create)
	g.Patch("/:estabelecimentoId", h.update)
}

// Internal registers employee's read of an establishment on r.
func (h *Handlers) Internal(r fiber.Router, v *jwtauth.Verifier) {
	r.Get("/internal/empresas/:empresaId/estabelecimentos/:estabelecimentoId", v.Services("employee"), h.get)
}

// list is GET /empresas/me/estabelecimentos: the caller's, principal
// first.
func (h *Handlers) list(c *fiber.Ctx) error {
	claims, _ := jwtauth.FromContext(c) // RequireRole guarantees them
	if _, err := h.Store.Empresa(c.UserContext(), claims.EmpresaID); err != nil {
		return err
	}
	list, err := h.Store.List(c.UserContext(), claims.EmpresaID)
	if err != nil {
		return err
	}
	out := make([]internalapi.Estabelecimento, 0, len(list))
	for _, e := range list {
		out = append(out, View(e))
	}
	return c.JSON(out)
}

// create is POST /empresas/me/estabelecimentos: 201 with the new one;
// 400 naming every bad field (a CNPJ of another root included), 409
// estabelecimento_duplicado; nothing stored on any of them.
func (h *Handlers) create(c *fiber.Ctx) error {
	claims, _ := jwtauth.FromContext(c)
	var req criacaoRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.UserContext()
	co, err := h.Store.Empresa(ctx, claims.EmpresaID)
	if err != nil {
		return err
	}
	e, err := checkCriacao(req, co.CNPJ, co.FusoHorario)
	if err != nil {
		return err
	}
	if e, err = h.Store.Create(ctx, claims.EmpresaID, e); err != nil {
		return err
	}
	h.Log.InfoContext(ctx, "estabelecimento incluído", "empresa_id", e.EmpresaID, "estabelecimento_id", e.ID, "tipo", e.Tipo)
	return c.Status(fiber.StatusCreated).JSON(View(e))
}

// update is PATCH /empresas/me/estabelecimentos/{estabelecimentoId}:
// another company's id is 404; deactivating the principal, or one with
// active employees (employee is asked), is 409.
func (h *Handlers) update(c *fiber.Ctx) error {
	claims, _ := jwtauth.FromContext(c)
	id, err := idParam(c, "estabelecimentoId")
	if err != nil {
		return err
	}
	var req alteracaoRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.UserContext()
	e, err := h.Store.Update(ctx, claims.EmpresaID, id, req, h.noActiveEmployees)
	if err != nil {
		return err
	}
	h.Log.InfoContext(ctx, "estabelecimento alterado", "empresa_id", e.EmpresaID, "estabelecimento_id", e.ID, "ativo", e.Ativo)
	return c.JSON(View(e))
}

// noActiveEmployees refuses the deactivation of e while employee counts
// active employees in it; employee down is a 503 and nothing changes.
func (h *Handlers) noActiveEmployees(ctx context.Context, e Estabelecimento) error {
	n, err := h.Funcionarios.AtivosNoEstabelecimento(ctx, e.EmpresaID, e.ID)
	if err != nil {
		return err
	}
	if n > 0 {
		return errComAtivos
	}
	return nil
}

// get is GET /internal/empresas/{empresaId}/estabelecimentos/{id}:
// active or not (the caller decides), or 404.
func (h *Handlers) get(c *fiber.Ctx) error {
	empresaID, err := idParam(c, "empresaId")
	if err != nil {
		return err
	}
	id, err := idParam(c, "estabelecimentoId")
	if err != nil {
		return err
	}
	e, err := h.Store.Get(c.UserContext(), empresaID, id)
	if err != nil {
		return err
	}
	return c.JSON(View(e))
}

// View is the answer's shape of e.
func View(e Estabelecimento) internalapi.Estabelecimento {
	return internalapi.Estabelecimento{ID: e.ID, EmpresaID: e.EmpresaID, Principal: e.Principal, Tipo: e.Tipo,
		Numero: e.Numero, Nome: e.Nome, Endereco: e.Endereco, FusoHorario: e.FusoHorario, Ativo: e.Ativo}
}

func idParam(c *fiber.Ctx, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Params(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, domainerr.InvalidField(name, "deve ser um inteiro positivo")
	}
	return id, nil
}
