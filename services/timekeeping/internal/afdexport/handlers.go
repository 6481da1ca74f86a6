// Package afdexport serves the AFD (Arquivo Fonte de Dados) of a company:
// GET /registropontos/afd?inicio=&fim=&formato=txt|zip. The file format is
// package afd's; this package gathers the employer's data, the period's
// records and the REP-P's identification from configuration, and with
// formato=zip adds the detached CAdES signature (pkg/signature).
package afdexport

import (
	"errors"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/arquivo"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
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
	store *Store
	files arquivo.Files
	rep   core.REP
}

// NewHandlers returns the handlers; rep identifies the REP-P, signer
// (nil when no certificate is configured) signs the zip's .p7s.
func NewHandlers(store *Store, clk *clock.Clock, zones *fuso.Zones, rep core.REP,
	signer *signature.Signer) *Handlers {
	return &Handlers{store: store, files: arquivo.Files{Clock: clk, Zones: zones, Signer: signer}, rep: rep}
}

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/afd", request.Empresa, h.files.Handler("o AFD", maxDays, h.export))
}

// export is GET /registropontos/afd?inicio=&fim=&formato= (default: this
// month, txt): 200 with the AFD, ISO-8859-1 text with CR LF line ends, as
// an attachment named as the layout says; with formato=zip an
// application/zip holding that file and its CAdES signature
// <name>.p7s (409 sem_certificado when no certificate is configured).
func (h *Handlers) export(c *fiber.Ctx, x arquivo.Export, now time.Time) (name string, file []byte, err error) {
	emp := x.Empresa
	w, err := core.NewWriter(core.Cabecalho{Empregador: emp.CNPJ, RazaoSocial: emp.RazaoSocial, REP: h.rep,
		Inicio: x.Inicio, Fim: x.Fim, Geracao: now, OffsetMinutes: core.Offset(now, emp.Zone)})
	if err != nil {
		return "", nil, err
	}
	err = h.store.Write(c.UserContext(), w, x.EmpresaID, x.Inicio, x.Fim, emp.Zone, maxRecords)
	if errors.Is(err, errTooMany) {
		return "", nil, domainerr.InvalidField("fim", "o período tem mais de "+strconv.Itoa(maxRecords)+
			" registros: divida-o em arquivos menores")
	}
	if err != nil {
		return "", nil, err
	}
	file, err = w.Close()
	return core.NomeArquivo(h.rep, emp.CNPJ), file, err
}
