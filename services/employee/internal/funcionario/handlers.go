package funcionario

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/services/employee/internal/departamento"
	"github.com/ponto/ponto/services/employee/internal/request"
)

// Handlers serve the employee routes.
type Handlers struct {
	store            *Store
	departamentos    *departamento.Store
	revoker          Revoker
	clock            *clock.Clock
	estabelecimentos Estabelecimentos
}

// Estabelecimentos checks an establishment with company-billing
// (internal/clients/companybilling): the id to store for establishment
// id of company empresaID (0 for the principal), or a 404/400/503.
type Estabelecimentos interface {
	Estabelecimento(ctx context.Context, empresaID, id int64) (int64, error)
}

// NewHandlers returns the handlers; departamentos answers the department
// checks of the department listing, revoker ends a deactivated
// employee's sessions, clk tells the dates a birth or admission date is
// checked against, ests checks establishments.
func NewHandlers(store *Store, departamentos *departamento.Store, revoker Revoker, clk *clock.Clock,
	ests Estabelecimentos) *Handlers {
	return &Handlers{store: store, departamentos: departamentos, revoker: revoker, clock: clk, estabelecimentos: ests}
}

// Public mounts the client routes on r, which must already verify the
// token. Each route names the roles it admits.
func (h *Handlers) Public(r fiber.Router) {
	empresa := jwtauth.RequireRole(jwtauth.RoleEmpresa)
	r.Post("/funcionarios", empresa, h.create)
	r.Get("/funcionarios", empresa, h.list)
	r.Get("/funcionarios/:funcionarioId", jwtauth.RequireRole(jwtauth.RoleEmpresa, jwtauth.RoleFuncionario), h.get)
	r.Patch("/funcionarios/:funcionarioId", empresa, h.update)
	r.Get("/departamentos/:departamentoId/:segmento/funcionarios", empresa, h.ofSegmento)
}

// create is POST /funcionarios: 200 with the nine contract fields plus
// id; 403 when empresaId is another company; 400 naming every invalid
// field; 404 naming a schedule or department the company does not have;
// 409 cpf_duplicado / email_duplicado.
func (h *Handlers) create(c *fiber.Ctx) error {
	var in createInput
	if _, err := request.Body(c, &in); err != nil {
		return err
	}
	n, err := in.check(h.clock.Now())
	if err != nil {
		return err
	}
	if n.EstabelecimentoID, err = h.estabelecimentos.Estabelecimento(c.UserContext(), n.EmpresaID, n.EstabelecimentoID); err != nil {
		return err
	}
	if n.PasswordHash, err = password.Hash(in.Password); err != nil {
		return err
	}
	id, err := h.store.Create(c.UserContext(), n)
	if err != nil {
		return err
	}
	return c.JSON(Created{
		ID: id, Cargo: in.Cargo, CPF: in.CPF, DataNascimento: in.DataNascimento, Email: in.Email,
		EmpresaID: in.EmpresaID, EscalaTrabalhoID: in.EscalaTrabalhoID, Nome: in.Nome,
		Password: n.PasswordHash, Telefone: in.Telefone, EstabelecimentoID: n.EstabelecimentoID,
	})
}

// get is GET /funcionarios/{funcionarioId}: the company that employs him
// or the employee himself; anyone else gets 404.
func (h *Handlers) get(c *fiber.Ctx) error {
	caller, id, err := httpserver.CallerAndID(c, "funcionarioId")
	if err != nil {
		return err
	}
	if caller.IsFuncionario() && !caller.IsFuncionarioSelf(id) {
		return ErrNotFound
	}
	f, err := h.store.Get(c.UserContext(), caller.EmpresaID, id)
	if err != nil {
		return err
	}
	return c.JSON(Render(f, Public))
}

// list is GET /funcionarios?pagina=&tamanho=&departamentoId=&ativo=.
func (h *Handlers) list(c *fiber.Ctx) error {
	caller, p, err := request.CallerPage(c)
	if err != nil {
		return err
	}
	var fl Filtro
	if fl.DepartamentoID, err = request.QueryID(c, "departamentoId"); err != nil {
		return err
	}
	if fl.Ativo, err = request.QueryBool(c, "ativo"); err != nil {
		return err
	}
	return h.page(c, caller.EmpresaID, fl, p)
}

// ofSegmento is GET /departamentos/{departamentoId}/{segmento}/funcionarios:
// segment 0 is the whole department. Another company's department and an
// unknown segment are 404; ?ativo= filters as in the list.
func (h *Handlers) ofSegmento(c *fiber.Ctx) error {
	caller, depID, err := httpserver.CallerAndID(c, "departamentoId")
	if err != nil {
		return err
	}
	seg, err := segmentoParam(c)
	if err != nil {
		return err
	}
	p, err := page.FromQuery(c)
	if err != nil {
		return err
	}
	fl := Filtro{DepartamentoID: &depID}
	if seg > 0 {
		fl.Segmento = &seg
	}
	if fl.Ativo, err = request.QueryBool(c, "ativo"); err != nil {
		return err
	}
	if err := h.departamentos.CheckSegmento(c.UserContext(), caller.EmpresaID, depID, seg); err != nil {
		return err
	}
	return h.page(c, caller.EmpresaID, fl, p)
}

// segmentoParam reads the segment number: 0 (whole department) or more.
func segmentoParam(c *fiber.Ctx) (int, error) {
	if c.Params("segmento") == "0" {
		return 0, nil
	}
	n, err := httpserver.PathID(c, "segmento")
	if err != nil || n > 1<<31-1 {
		return 0, domainerr.InvalidField("segmento", "deve ser um inteiro: 0 para o departamento inteiro ou o número do segmento")
	}
	return int(n), nil
}

func (h *Handlers) page(c *fiber.Ctx, empresaID int64, fl Filtro, p page.Page) error {
	items, total, err := h.store.List(c.UserContext(), empresaID, fl, p)
	if err != nil {
		return err
	}
	return c.JSON(page.NewResult(RenderAll(items, Public), p, total))
}

// update is PATCH /funcionarios/{funcionarioId}: sets the fields sent and
// answers the updated record. Setting ativo to false revokes the
// employee's sessions in auth first; if auth cannot be reached the answer
// is 503 and nothing changes.
func (h *Handlers) update(c *fiber.Ctx) error {
	caller, id, err := httpserver.CallerAndID(c, "funcionarioId")
	if err != nil {
		return err
	}
	var in updateInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	u, err := in.check(h.clock.Now())
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	if u.estabelecimento != nil {
		est, err := h.estabelecimentos.Estabelecimento(ctx, caller.EmpresaID, *u.estabelecimento)
		if err != nil {
			return err
		}
		u.setEstabelecimento(est)
	}
	revoke := func(ctx context.Context) error { return h.revoker.RevokeFuncionario(ctx, id) }
	if err := h.store.Update(ctx, caller.EmpresaID, id, u, revoke); err != nil {
		return err
	}
	f, err := h.store.Get(ctx, caller.EmpresaID, id)
	if err != nil {
		return err
	}
	return c.JSON(Render(f, Public))
}
