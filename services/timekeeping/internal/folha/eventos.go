// Package folha is the payroll export (exportação para a folha): each
// employee's period totals, per event, under the company's payroll codes
// (GET /registropontos/folha), as a generic CSV or a fixed-width layout
// from a template the company edits; the mapping of events to codes
// (GET|PUT /registropontos/folha/eventos) and the layouts
// (GET|PUT /registropontos/folha/layouts/{nome}).
//
// The figures come through one interface, Totais, so that the workday
// engine serving the timesheet serves the export too.
package folha

import (
	"regexp"
	"slices"
)

// ponto's events, as the CSV and the mapping name them.
const (
	Extras50           = "extras50"
	Extras100          = "extras100"
	Noturnos           = "noturnos"
	NoturnosReduzidos  = "noturnosReduzidos"
	Atrasos            = "atrasos"
	Faltas             = "faltas"
	DSRPerdidos        = "dsrPerdidos"
	BancoPago          = "bancoPago"
	BancoDescontado    = "bancoDescontado"
	IntervaloSuprimido = "intervaloSuprimido"
	Interjornada       = "interjornada"
	// PrefixoAfastamento names a leave kind's days: afastamento_ferias.
	PrefixoAfastamento = "afastamento_"
)

// TiposAfastamento are the leave kinds (the leaves' tipo), each an event
// afastamento_<tipo> counted in days.
var TiposAfastamento = []string{"ferias", "doenca", "acidente_trabalho", "maternidade", "paternidade", "casamento",
	"falecimento", "doacao_sangue", "servico_militar", "suspensao", "nao_remunerada", "outro"}

// Eventos lists every event in the export's order (a copy of ordem).
func Eventos() []string { return slices.Clone(ordem) }

// ordem is every event in the export's order, built once: the export
// walks it for each employee.
var ordem = eventos()

func eventos() []string {
	out := []string{Extras50, Extras100, Noturnos, NoturnosReduzidos, Atrasos, Faltas, DSRPerdidos, BancoPago,
		BancoDescontado, IntervaloSuprimido, Interjornada}
	for _, t := range TiposAfastamento {
		out = append(out, PrefixoAfastamento+t)
	}
	return out
}

// Padrao is the default mapping: three-digit codes (they fit Calima's
// EEE), which each company replaces with its own rubricas.
func Padrao() map[string]string {
	m := map[string]string{
		Extras50: "150", Extras100: "200", Noturnos: "250", NoturnosReduzidos: "251", Atrasos: "300",
		Faltas: "301", DSRPerdidos: "302", BancoPago: "160", BancoDescontado: "303", IntervaloSuprimido: "170",
		Interjornada: "171",
	}
	for i, t := range TiposAfastamento {
		m[PrefixoAfastamento+t] = itoa3(400 + i)
	}
	return m
}

func itoa3(n int) string {
	return string([]byte{byte('0' + n/100), byte('0' + n/10%10), byte('0' + n%10)})
}

// Conhecido reports whether evento is one of ponto's events.
func Conhecido(evento string) bool { return slices.Contains(ordem, evento) }

// codigoValido: up to 20 letters, digits, dots, dashes or underscores
// ("" leaves the event out of the export).
var codigoValido = regexp.MustCompile(`^[A-Za-z0-9._-]{0,20}$`)

// CodigoValido reports whether c can be a payroll code.
func CodigoValido(c string) bool { return codigoValido.MatchString(c) }
