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

// export is GET /registropontos/afd?estabelecimento=&inicio=&fim=&formato=
// (default: the principal establishment, this month, txt): 200 with the
// establishment's AFD, ISO-8859-1 text with CR LF line ends, as an
// attachment named as the layout says; with formato=zip an
// application/zip holding that file and its CAdES signature <name>.p7s
// (409 sem_certificado when no certificate is configured). Each
// establishment has its own chain and its own file (Anexo IX item 6); an
// establishment unknown to the caller's company is a 404.
func (h *Handlers) export(c *fiber.Ctx, x arquivo.Export, now time.Time) (name string, file []byte, err error) {
	id, err := estabelecimentoParam(c.Query("estabelecimento"))
	if err != nil {
		return "", nil, err
	}
	est, err := h.store.Estabelecimento(c.UserContext(), x.EmpresaID, id)
	if err != nil {
		return "", nil, err
	}
	emp := x.Empresa
	cab := cabecalho(emp.CNPJ, est)
	cab.RazaoSocial, cab.REP, cab.Inicio, cab.Fim = emp.RazaoSocial, h.rep, x.Inicio, x.Fim
	cab.Geracao, cab.OffsetMinutes = now, core.Offset(now, emp.Zone)
	w, err := core.NewWriter(cab)
	if err != nil {
		return "", nil, err
	}
	err = h.store.Write(c.UserContext(), w, est.chain, x.Inicio, x.Fim, emp.Zone, maxRecords)
	if errors.Is(err, errTooMany) {
		return "", nil, domainerr.InvalidField("fim", "o período tem mais de "+strconv.Itoa(maxRecords)+
			" registros: divida-o em arquivos menores")
	}
	if err != nil {
		return "", nil, err
	}
	file, err = w.Close()
	// Anexo V item 19.3: "AFD" + INPI number + the employer's CNPJ/CPF as
	// the header carries it + "REP_P".
	return core.NomeArquivo(h.rep, cab.Empregador), file, err
}

// estabelecimentoParam reads the estabelecimento parameter: absent, the
// principal establishment (0).
func estabelecimentoParam(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, domainerr.InvalidField("estabelecimento", "identificador de estabelecimento: inteiro positivo")
	}
	return id, nil
}

// cabecalho is the header's identification of establishment est of the
// company whose CNPJ/CPF is empregador (Anexo V, type 1, fields 4 to 6):
// an establishment with a CNPJ of its own is the employer by that CNPJ; a
// CAEPF or CNO one keeps the company's and fills the CNO/CAEPF field.
func cabecalho(empregador string, est estabelecimento) core.Cabecalho {
	switch est.tipo {
	case "cnpj":
		return core.Cabecalho{Empregador: est.numero}
	case "caepf", "cno":
		return core.Cabecalho{Empregador: empregador, CNOCAEPF: est.numero}
	}
	return core.Cabecalho{Empregador: empregador}
}
