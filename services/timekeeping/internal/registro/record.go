// Package registro keeps time records: the clock-in (POST /registropontos)
// with its NSR and hash chain, an employee's own records
// (GET /registropontos/me), and the one renderer every route uses to show
// a time record.
package registro

import (
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// Record is the contract's time record, followed by additions: the
// workday, the employee, and the punch's NSR and hash (null for an
// absence). The clock-in answer adds funcionario (clockInAnswer).
type Record struct {
	ID              int64   `json:"id"`
	HorarioRegistro string  `json:"horarioRegistro"`
	Localizacao     *string `json:"localizacao"`
	Status          string  `json:"status"`
	Tipo            string  `json:"tipo"`
	DataSolicitar   *string `json:"dataSolicitar"`
	HouveReajuste   *bool   `json:"houveReajuste"`
	MotivoAjuste    *string `json:"motivoAjuste"`

	Data          string  `json:"data"`
	FuncionarioID int64   `json:"funcionarioId"`
	NSR           *int64  `json:"nsr"`
	Hash          *string `json:"hash"`
	// Offline marks a punch recorded off-line (AFD type 7, field 7 = 1),
	// and GravadoEm is when it reached the server; both omitted otherwise.
	Offline   bool    `json:"offline,omitempty"`
	GravadoEm *string `json:"gravadoEm,omitempty"`
}

// Render is the one place a time record becomes JSON. The status rules:
//
//	no adjustment            aprovado automaticamente, dataSolicitar/houveReajuste/motivoAjuste null
//	ajuste solicitado        dataSolicitar and motivoAjuste set, houveReajuste null
//	ajuste aprovado...       the same, houveReajuste true
//	ajuste reprovado...      the same, houveReajuste false
//	absence                  falta registrada pela empresa, all three null
//
// horarioRegistro is always the original punch time.
func Render(r Row) Record {
	out := Record{
		ID:              r.ID,
		HorarioRegistro: clock.FormatISO(r.HorarioRegistro),
		Localizacao:     r.Localizacao,
		Status:          core.StatusAutomatico,
		Tipo:            r.Tipo,
		Data:            r.Jornada.Format(clock.DateFormat),
		FuncionarioID:   r.FuncionarioID,
		NSR:             r.NSR,
		Hash:            r.Hash,
	}
	if r.Gravacao != nil {
		s := clock.FormatISO(*r.Gravacao)
		out.Offline, out.GravadoEm = true, &s
	}
	if r.Tipo == core.TipoFalta {
		out.Status = core.StatusFalta
		return out
	}
	if r.AjusteStatus == nil {
		return out
	}
	out.Status = *r.AjusteStatus
	if r.DataSolicitar != nil {
		s := clock.FormatISO(*r.DataSolicitar)
		out.DataSolicitar = &s
	}
	out.MotivoAjuste = r.Motivo
	switch out.Status {
	case core.StatusAprovado:
		out.HouveReajuste = new(true)
	case core.StatusReprovado:
		out.HouveReajuste = new(false)
	}
	return out
}

// RenderAll renders a list; an empty list is [] rather than null.
func RenderAll(rows []Row) []Record {
	out := make([]Record, 0, len(rows))
	for _, r := range rows {
		out = append(out, Render(r))
	}
	return out
}
