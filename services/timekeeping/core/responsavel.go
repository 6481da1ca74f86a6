package core

import (
	"cmp"
	"slices"
	"time"
)

// Vigencia is one of a company's responsible persons and the instant he
// came in force: the ocorridoEm of the company-billing event that named
// him (the moment the company made the change, not when timekeeping heard
// of it).
type Vigencia struct {
	Responsavel string // CPF, 11 digits
	Desde       time.Time
}

// ResponsavelEmVigor is the CPF that field 8 of a type-5 record carries
// for an operation made at instant em (Portaria 671, Anexo V, type 5,
// field 8: "CPF do responsável pela alteração"; Anexo IX item 6: the
// employees included, changed or excluded "com identificação do
// responsável pela operação"): the responsible person in force at em,
// the latest of historico that came in force at or before em. The events
// of company-billing and employee come from two outboxes that race, so
// the person is chosen by when the operation happened, never by the order
// the events arrived in. Of two that came in force at the same instant
// the later in historico (the later event) wins. Before any,
// ResponsavelNaoIdentificado.
func ResponsavelEmVigor(historico []Vigencia, em time.Time) string {
	h := slices.Clone(historico)
	// Stable: keeps the arrival order of people in force at one instant.
	slices.SortStableFunc(h, func(a, b Vigencia) int { return cmp.Compare(a.Desde.UnixNano(), b.Desde.UnixNano()) })
	responsavel := ResponsavelNaoIdentificado
	for _, v := range h {
		if v.Desde.After(em) {
			break
		}
		responsavel = v.Responsavel
	}
	return responsavel
}
