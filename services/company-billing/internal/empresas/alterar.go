package empresas

import (
	"errors"
	"fmt"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
)

// Config holds the company settings read from the environment.
type Config struct {
	// FusoHorarioPadrao is the time zone of a company registered without
	// fusoHorario.
	FusoHorarioPadrao string `conf:"env:COMPANY_TIME_ZONE,default:America/Sao_Paulo,help:IANA time zone of a new company that names none"`
}

// Validate refuses a default zone a request could not set.
func (c Config) Validate() error {
	if !validate.TimeZone(c.FusoHorarioPadrao) {
		return fmt.Errorf("COMPANY_TIME_ZONE %q: want an IANA time zone such as America/Sao_Paulo", c.FusoHorarioPadrao)
	}
	return nil
}

// alteracaoRequest is the body of PATCH /empresas/me: every field
// optional, at least one present. Unknown fields are refused by
// httpserver.DecodeJSON. A new field is one more member here, one more
// check in changes, and one more column in Store.Update's whitelist.
type alteracaoRequest struct {
	FusoHorario *string `json:"fusoHorario"`
	// Responsavel names or replaces the responsible person; it cannot be
	// removed, only replaced.
	Responsavel *responsavelInput `json:"responsavel"`
}

// changes validates the body and lists the columns to set, naming every
// bad field at once.
func (r alteracaoRequest) changes() (map[string]any, error) {
	errs := validate.Errors{}
	set := map[string]any{}
	if r.FusoHorario != nil {
		errs.Check(validate.TimeZone(*r.FusoHorario), "fusoHorario", validate.TimeZoneMessage)
		set[colFusoHorario] = *r.FusoHorario
	}
	if resp := checkResponsavel(errs, r.Responsavel); resp != nil {
		set[colResponsavelNome], set[colResponsavelCPF] = resp.Nome, resp.CPF
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if len(set) == 0 {
		return nil, domainerr.InvalidField("corpo", "informe ao menos um campo para alterar (fusoHorario, responsavel)")
	}
	return set, nil
}

// update is PATCH /empresas/me (role empresa): the company changes its
// own settings, found by the token's empresaId only. A blocked company
// gets 403 as on GET. The answer is GET /empresas/me's view.
func (s *Service) update(c *fiber.Ctx) error {
	claims, _ := jwtauth.FromContext(c) // RequireRole guarantees them
	var req alteracaoRequest
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	set, err := req.changes()
	if err != nil {
		return err
	}
	e, err := s.Store.Update(c.UserContext(), claims.EmpresaID, set)
	switch {
	case errors.Is(err, errNotFound):
		return domainerr.NotFound("empresa não encontrada")
	case errors.Is(err, errStoreBloqueada):
		return errBloqueada
	case err != nil:
		return err
	}
	s.Log.InfoContext(c.UserContext(), "empresa alterada", "empresa_id", e.ID, "fuso_horario", e.FusoHorario,
		"responsavel", e.Responsavel != nil)
	return c.JSON(newMeView(e))
}
