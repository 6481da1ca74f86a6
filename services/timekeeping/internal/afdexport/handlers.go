// Package afdexport serves the AFD (Arquivo Fonte de Dados) of a company:
// GET /registropontos/afd?inicio=&fim=. The file format is package afd's;
// this package gathers the employer's data, the period's records and the
// REP-P's identification from configuration.
package afdexport

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/internal/afd"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
	"github.com/ponto/ponto/services/timekeeping/internal/empresa"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Limits of one export: a year, and records enough for a thousand
// employees' month many times over (about 140 bytes each, built in
// memory).
const (
	maxDays    = 366
	maxRecords = 300_000
)

// Handlers serve the AFD export.
type Handlers struct {
	store     *Store
	companies *empresa.Client
	clock     *clock.Clock
	rep       afd.REP
}

// NewHandlers returns the handlers; rep identifies the REP-P.
func NewHandlers(store *Store, companies *empresa.Client, clk *clock.Clock, rep afd.REP) *Handlers {
	return &Handlers{store: store, companies: companies, clock: clk, rep: rep}
}

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/afd", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.export)
}

// export is GET /registropontos/afd?inicio=&fim= (default: this month):
// 200 with the AFD, ISO-8859-1 text with CR LF line ends, as an
// attachment named as the layout says.
func (h *Handlers) export(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	inicio, fim, err := request.Period(c, h.clock.Today(), maxDays)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	emp, err := h.companies.Get(ctx, caller.EmpresaID)
	if err != nil {
		return err
	}
	now := h.clock.Now()
	w, err := afd.NewWriter(afd.Cabecalho{Empregador: emp.CNPJ, RazaoSocial: emp.RazaoSocial, REP: h.rep,
		Inicio: inicio, Fim: fim, Geracao: now, OffsetMinutes: h.clock.OffsetMinutes(now)})
	if err != nil {
		return apierr.Internal(err)
	}
	err = h.store.Write(ctx, w, caller.EmpresaID, inicio, fim, h.clock.Zone().String(), maxRecords)
	if errors.Is(err, errTooMany) {
		return apierr.Invalid(map[string]string{"fim": "o período tem mais de " + strconv.Itoa(maxRecords) +
			" registros: divida-o em arquivos menores"})
	}
	if err != nil {
		return apierr.Internal(err)
	}
	file, err := w.Close()
	if err != nil {
		return apierr.Internal(err)
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=ISO-8859-1")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+afd.NomeArquivo(h.rep, emp.CNPJ)+`"`)
	return c.Send(file)
}
