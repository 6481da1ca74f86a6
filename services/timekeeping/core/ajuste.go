package core

import "errors"

// Status values of a time record. The first and third are the contract's;
// the others complete its adjustment state machine:
//
//	(none) or reprovado --solicitar (employee)--> ajuste solicitado
//	ajuste solicitado   --aprovar (company)-----> ajuste aprovado pela empresa (final)
//	ajuste solicitado   --reprovar (company)----> ajuste reprovado pela empresa
//
// An absence is never adjusted. The punch itself is never touched: an
// adjustment only adds information.
const (
	StatusAutomatico = "aprovado automaticamente"
	StatusSolicitado = "ajuste solicitado"
	StatusAprovado   = "ajuste aprovado pela empresa"
	StatusReprovado  = "ajuste reprovado pela empresa"
	StatusFalta      = "falta registrada pela empresa"
)

// The refusals of the state machine.
var (
	ErrAjusteJaSolicitado = errors.New("core: an adjustment is already pending")
	ErrAjusteJaAprovado   = errors.New("core: the adjustment was already approved")
	ErrAjusteSemPendente  = errors.New("core: no adjustment is pending")
)

// CheckAjusteRequest says whether an employee may ask for an adjustment of a
// punch whose adjustment is in status (nil: none yet).
func CheckAjusteRequest(status *string) error {
	switch {
	case status == nil || *status == StatusReprovado:
		return nil
	case *status == StatusSolicitado:
		return ErrAjusteJaSolicitado
	default:
		return ErrAjusteJaAprovado
	}
}

// CheckAjusteDecision says whether the company may approve or reject an
// adjustment in status now.
func CheckAjusteDecision(status *string) error {
	if status == nil || *status != StatusSolicitado {
		return ErrAjusteSemPendente
	}
	return nil
}

// Decisao is the status a decision leads to.
func Decisao(aprovar bool) string {
	if aprovar {
		return StatusAprovado
	}
	return StatusReprovado
}
