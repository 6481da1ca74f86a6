// Package afdexport serves the AFD (Arquivo Fonte de Dados) of a company:
// GET /registropontos/afd?inicio=&fim=&formato=txt|zip. The file format is
// package afd's; this package gathers the employer's data, the period's
// records and the REP-P's identification from configuration, and with
// formato=zip adds the detached CAdES signature (pkg/signature).
package afdexport

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/arquivo"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
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
	store  *Store
	clock  *clock.Clock
	zones  *fuso.Zones
	rep    core.REP
	signer *signature.Signer // nil: no certificate, no zip
}

// NewHandlers returns the handlers; rep identifies the REP-P, signer
// (nil when no certificate is configured) signs the zip's .p7s.
func NewHandlers(store *Store, clk *clock.Clock, zones *fuso.Zones, rep core.REP,
	signer *signature.Signer) *Handlers {
	return &Handlers{store: store, clock: clk, zones: zones, rep: rep, signer: signer}
}

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/afd", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.export)
}

// export is GET /registropontos/afd?inicio=&fim=&formato= (default: this
// month, txt): 200 with the AFD, ISO-8859-1 text with CR LF line ends, as
// an attachment named as the layout says; with formato=zip an
// application/zip holding that file and its CAdES signature
// <name>.p7s (409 sem_certificado when no certificate is configured).
func (h *Handlers) export(c *fiber.Ctx) error {
	x, err := arquivo.ReadExport(c, h.signer, h.zones, h.clock, "o AFD", maxDays)
	if err != nil {
		return err
	}
	ctx, emp, inicio, fim := c.UserContext(), x.Empresa, x.Inicio, x.Fim
	now := h.clock.Now()
	w, err := core.NewWriter(core.Cabecalho{Empregador: emp.CNPJ, RazaoSocial: emp.RazaoSocial, REP: h.rep,
		Inicio: inicio, Fim: fim, Geracao: now, OffsetMinutes: core.Offset(now, emp.Zone)})
	if err != nil {
		return err
	}
	err = h.store.Write(ctx, w, x.EmpresaID, inicio, fim, emp.Zone, maxRecords)
	if errors.Is(err, errTooMany) {
		return domainerr.InvalidField("fim", "o período tem mais de "+strconv.Itoa(maxRecords)+
			" registros: divida-o em arquivos menores")
	}
	if err != nil {
		return err
	}
	file, err := w.Close()
	if err != nil {
		return err
	}
	name := core.NomeArquivo(h.rep, emp.CNPJ)
	return arquivo.Send(c, name, file, x.Zipped, h.signer, now)
}
