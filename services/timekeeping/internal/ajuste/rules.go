// Package ajuste keeps adjustment requests of punches and the company's
// decisions on them. The punch itself is never touched: the current state
// of its adjustment lives in ajustes and every step is appended to
// ajustes_historico.
//
//	(none) or reprovado --solicitar (employee)--> ajuste solicitado
//	ajuste solicitado   --aprovar (company)-----> ajuste aprovado pela empresa (final)
//	ajuste solicitado   --reprovar (company)----> ajuste reprovado pela empresa
//
// Anything else is a 409: a second request while one is pending or after
// approval, a decision on a punch without a pending request, any
// adjustment of an absence.
package ajuste

import (
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// Limits of a request.
const (
	motivoMin = 3
	motivoMax = 500
)

// The 409s of the state machine.
var (
	errJaSolicitado = domainerr.Conflict("ajuste_ja_solicitado", "já existe um ajuste pendente para este registro")
	errJaAprovado   = domainerr.Conflict("ajuste_ja_aprovado", "o ajuste deste registro já foi aprovado")
	errNaoAjustavel = domainerr.Conflict("registro_nao_ajustavel", "uma falta não pode ser ajustada")
	errSemPendente  = domainerr.Conflict("ajuste_nao_pendente", "não há ajuste pendente para este registro")
)

// canRequest says whether an employee may ask for an adjustment of a punch
// whose adjustment is in status (nil: none yet): core.CheckAjusteRequest, as
// the contract's 409s.
func canRequest(status *string) error {
	switch err := core.CheckAjusteRequest(status); {
	case errors.Is(err, core.ErrAjusteJaSolicitado):
		return errJaSolicitado
	case err != nil:
		return errJaAprovado
	}
	return nil
}

// canDecide says whether the company may approve or reject now.
func canDecide(status *string) error {
	if core.CheckAjusteDecision(status) != nil {
		return errSemPendente
	}
	return nil
}

// solicitarInput is the body of PUT /registropontos/solicitar/{registroId}.
type solicitarInput struct {
	DataSolicitar *string `json:"dataSolicitar"`
	FuncionarioID int64   `json:"funcionarioId"`
	Motivo        *string `json:"motivo" text:"multiline"`
}

// pedido is a validated adjustment request.
type pedido struct {
	DataSolicitar time.Time
	Motivo        string
}

// check validates the body's shape: dataSolicitar an ISO 8601 UTC
// timestamp ("Z", optional fraction), motivo 3 to 500 characters without
// surrounding blanks.
func (in solicitarInput) check() (pedido, error) {
	v := validate.Errors{}
	var out pedido
	if in.DataSolicitar == nil || *in.DataSolicitar == "" {
		v.Check(false, "dataSolicitar", "campo obrigatório")
	} else {
		t, ok := ParseUTC(*in.DataSolicitar)
		v.Check(ok, "dataSolicitar", "use um horário ISO 8601 em UTC, ex.: 2024-03-05T20:00:00.000Z")
		out.DataSolicitar = t
	}
	if in.Motivo == nil || strings.TrimSpace(*in.Motivo) == "" {
		v.Check(false, "motivo", "campo obrigatório")
	} else {
		m := *in.Motivo
		n := utf8.RuneCountInString(m)
		v.Check(utf8.ValidString(m) && n >= motivoMin && n <= motivoMax, "motivo", "deve ter entre 3 e 500 caracteres")
		v.Check(strings.TrimSpace(m) == m, "motivo", "não pode começar nem terminar com espaços")
		out.Motivo = m
	}
	return out, v.Err()
}

// ParseUTC reads an ISO 8601 UTC timestamp such as
// 2024-03-05T20:00:00.000Z, truncated to milliseconds.
func ParseUTC(s string) (time.Time, bool) {
	if len(s) > len("2006-01-02T15:04:05.000000000Z") || !strings.HasSuffix(s, "Z") {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || t.Year() < 2000 {
		return time.Time{}, false
	}
	return t.UTC().Truncate(time.Millisecond), true
}

// fitsPunch checks dataSolicitar against the punch: it must fall on the
// punch's workday (the report places the effective time on that day) and
// not lie in the future.
func fitsPunch(data, jornada, workdayOfData, now time.Time) error {
	v := validate.Errors{}
	v.Check(!data.After(now), "dataSolicitar", "não pode estar no futuro")
	v.Check(workdayOfData.Equal(jornada), "dataSolicitar",
		"deve cair no mesmo dia de trabalho do registro ("+jornada.Format(time.DateOnly)+", horário da empresa)")
	return v.Err()
}
