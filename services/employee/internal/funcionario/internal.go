package funcionario

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/jwtauth"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/services/employee/internal/request"
	"github.com/ponto/ponto/services/employee/internalapi"
)

// Limits of the internal bodies and queries.
const (
	emailMax      = 254
	fotoURLMax    = 2048
	codeVerifyMax = 255
)

// Internal mounts the service-to-service routes (docs/internal-api.md).
// They are reachable only on the internal listener, each behind the
// service tokens of its callers (v.Services); those are other ponto
// services, so they answer any company's employee.
func (h *Handlers) Internal(r fiber.Router, v *jwtauth.Verifier) {
	// por-email before :funcionarioId, which would otherwise take it.
	r.Get("/internal/funcionarios", v.Services("timekeeping"), h.internalByIDs)
	r.Get("/internal/funcionarios/por-email", v.Services("auth"), h.internalByEmail)
	r.Get("/internal/funcionarios/vinculos", v.Services("auth"), h.internalEmployments)
	r.Get("/internal/funcionarios/:funcionarioId", v.Services("auth", "timekeeping", "media"), request.ByID("funcionarioId", h.internalByID))
	r.Put("/internal/funcionarios/:funcionarioId/foto", v.Services("media"), h.internalSetFoto)
	r.Put("/internal/funcionarios/:funcionarioId/code-verify", v.Services("auth"), h.internalSetCodeVerify)
	r.Get("/internal/empresas/:empresaId/departamentos/por-nome/:nome/quadro", v.Services("timekeeping"), h.internalQuadro)
	r.Get("/internal/empresas/:empresaId/quadro", v.Services("timekeeping"), h.internalQuadroEmpresa)
	r.Get("/internal/empresas/:empresaId/estabelecimentos/:estabelecimentoId/ativos", v.Services("company-billing"), h.internalAtivos)
}

// internalAtivos is company-billing's check before it deactivates an
// establishment: {"ativos": n}, its company's active employees in it.
func (h *Handlers) internalAtivos(c *fiber.Ctx) error {
	empresaID, err := httpserver.PathID(c, "empresaId")
	if err != nil {
		return err
	}
	estabelecimentoID, err := httpserver.PathID(c, "estabelecimentoId")
	if err != nil {
		return err
	}
	n, err := h.store.AtivosNoEstabelecimento(c.UserContext(), empresaID, estabelecimentoID)
	if err != nil {
		return err
	}
	return c.JSON(internalapi.Ativos{Ativos: n})
}

// internalByID is GET /internal/funcionarios/{funcionarioId}: the employee
// with his schedule, whichever his company.
func (h *Handlers) internalByID(ctx context.Context, id int64) (internalapi.FuncionarioComEscala, error) {
	f, err := h.store.ByID(ctx, id)
	if err != nil {
		return internalapi.FuncionarioComEscala{}, err
	}
	return RenderInternal(f), nil
}

// internalByIDs is GET /internal/funcionarios?ids=1,2,3: those of the
// employees that exist, in no particular order (an unknown id is left
// out), as {"funcionarios": [employee view...]}; with escalas=separadas,
// the records without their schedule and login-code hash, and each
// schedule once in "escalas", but for those escalasConhecidas=4,5 names
// (the caller holds them). Timekeeping fetches with it, in one call, the
// employees of the clock-ins waiting on its cache.
func (h *Handlers) internalByIDs(c *fiber.Ctx) error {
	ids, err := parseIDs(c.Query("ids"), errIDs)
	if err != nil {
		return err
	}
	separate := c.Query("escalas")
	if separate != "" && separate != "separadas" {
		return errEscalas
	}
	var known []int64
	if k := c.Query("escalasConhecidas"); k != "" {
		if separate == "" {
			return errKnownAlone
		}
		if known, err = parseIDs(k, errKnown); err != nil {
			return err
		}
	}
	if separate == "" {
		fs, err := h.store.ByIDs(c.UserContext(), ids)
		if err != nil {
			return err
		}
		return c.JSON(internalapi.Funcionarios{Funcionarios: RenderAllInternal(fs)})
	}
	fs, escalas, err := h.store.ByIDsApart(c.UserContext(), ids, known)
	if err != nil {
		return err
	}
	out := internalapi.Funcionarios{Funcionarios: RenderAllInternal(fs), Escalas: escalas}
	for i := range out.Funcionarios {
		// The clock-in never reads the login code's hash.
		out.Funcionarios[i].CodeVerify = nil
	}
	return c.JSON(out)
}

var (
	errEscalas    = domainerr.InvalidField("escalas", "use escalas=separadas ou omita o parâmetro")
	errKnownAlone = domainerr.InvalidField("escalasConhecidas", "use escalasConhecidas com escalas=separadas")
	errKnown      = domainerr.InvalidField("escalasConhecidas",
		"informe de 1 a 100 ids de escalas (inteiros positivos) separados por vírgula")
	errIDs = domainerr.InvalidField("ids", "informe de 1 a 100 ids (inteiros positivos) separados por vírgula")
)

// parseIDs reads "1,2,3": 1 to internalapi.MaxIDs positive integers,
// repeats dropped; anything else is invalid.
func parseIDs(s string, invalid error) ([]int64, error) {
	if s == "" || len(s) > internalapi.MaxIDs*20 {
		return nil, invalid
	}
	parts := strings.Split(s, ",")
	if len(parts) > internalapi.MaxIDs {
		return nil, invalid
	}
	ids := make([]int64, 0, len(parts))
	for _, p := range parts {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil || id <= 0 {
			return nil, invalid
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// internalByEmail is one employment by e-mail (ignoring case): the only
// one, or the one of ?empresaId=; 404 when none, 409 email_ambiguo when
// the e-mail has several employments and no company was named.
func (h *Handlers) internalByEmail(c *fiber.Ctx) error {
	fs, err := h.employments(c)
	if err != nil {
		return err
	}
	empresaID, err := request.QueryID(c, "empresaId")
	if err != nil {
		return err
	}
	if empresaID != nil {
		fs = slices.DeleteFunc(fs, func(f Funcionario) bool { return f.EmpresaID != *empresaID })
	}
	switch len(fs) {
	case 0:
		return ErrNotFound
	case 1:
		// The plain record, without the schedule: auth answers the login
		// with it, and the schedule is no business of a client.
		return c.JSON(Render(fs[0], Internal))
	}
	return domainerr.Conflict("email_ambiguo", "o e-mail pertence a funcionários de mais de uma empresa; informe empresaId")
}

// internalEmployments is auth's login lookup: every employment of the
// e-mail (ignoring case), active or not, in company order.
func (h *Handlers) internalEmployments(c *fiber.Ctx) error {
	fs, err := h.employments(c)
	if err != nil {
		return err
	}
	return c.JSON(internalapi.Vinculos{Funcionarios: RenderAll(fs, Internal)})
}

func (h *Handlers) employments(c *fiber.Ctx) ([]Funcionario, error) {
	email := c.Query("email")
	if email == "" || len(email) > emailMax {
		return nil, domainerr.InvalidField("email", "informe um e-mail de até 254 caracteres")
	}
	return h.store.ByEmail(c.UserContext(), email)
}

// internalQuadro serves timekeeping's department reports: the department
// named nome (case-insensitive, URL-escaped in the path) of company
// empresaId, every one of its employees, active or not, as the reports
// read them (internalapi.Membro), and their schedules once each.
func (h *Handlers) internalQuadro(c *fiber.Ctx) error {
	empresaID, err := httpserver.PathID(c, "empresaId")
	if err != nil {
		return err
	}
	nome, err := url.PathUnescape(c.Params("nome"))
	if err != nil || nome == "" || utf8.RuneCountInString(nome) > 100 || !utf8.ValidString(nome) {
		return domainerr.InvalidField("nome", "nome de departamento inválido")
	}
	ctx := c.UserContext()
	d, err := h.departamentos.ByNome(ctx, empresaID, nome)
	if err != nil {
		return err
	}
	q, err := h.store.Quadro(ctx, empresaID, d.ID)
	if err != nil {
		return err
	}
	q.Departamento = d
	return c.JSON(q)
}

// internalQuadroEmpresa serves timekeeping's day at a glance: every
// active employee of company empresaId with his department's name, and
// their schedules once each.
func (h *Handlers) internalQuadroEmpresa(c *fiber.Ctx) error {
	empresaID, err := httpserver.PathID(c, "empresaId")
	if err != nil {
		return err
	}
	q, err := h.store.QuadroEmpresa(c.UserContext(), empresaID)
	if err != nil {
		return err
	}
	return c.JSON(q)
}

// internalSetFoto is media's PUT {"fotoProfile": "<url or null>"} → 204.
func (h *Handlers) internalSetFoto(c *fiber.Ctx) error {
	var in internalapi.Foto
	return h.setField(c, &in, "fotoProfile", &in.FotoProfile, fotoURLMax, h.store.SetFotoProfile)
}

// internalSetCodeVerify is auth's PUT {"codeVerify": "<hash or null>"} → 204.
func (h *Handlers) internalSetCodeVerify(c *fiber.Ctx) error {
	var in internalapi.CodeVerify
	return h.setField(c, &in, "codeVerify", &in.CodeVerify, codeVerifyMax, h.store.SetCodeVerify)
}

// setField decodes the body into in, whose one member is field, read into
// value, and stores the value with set. The member is required (null
// clears the value) and holds at most maxLen characters.
func (h *Handlers) setField(c *fiber.Ctx, in any, field string, value **string, maxLen int,
	set func(ctx context.Context, id int64, v *string) error) error {
	id, err := httpserver.PathID(c, "funcionarioId")
	if err != nil {
		return err
	}
	if err := httpserver.DecodeJSON(c, in); err != nil {
		return err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(c.Body(), &members); err != nil || members[field] == nil {
		return domainerr.InvalidField(field, "campo obrigatório (null para limpar)")
	}
	if v := *value; v != nil && (*v == "" || len(*v) > maxLen) {
		return domainerr.InvalidField(field, "deve ter de 1 a "+strconv.Itoa(maxLen)+" caracteres")
	}
	if err := set(c.UserContext(), id, *value); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
