package apuracao

import (
	"slices"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// DSR is a weekly rest day of the period (core.DSRs): lost (perdido) when
// an unexcused absence falls in the six days before it, with those
// absences' dates.
type DSR struct {
	Data    string   `json:"data"`
	Perdido bool     `json:"perdido"`
	Faltas  []string `json:"faltas"`
}

// Antes is the first date to read for a period starting inicio: the
// DSR of its first days depends on the absences of the six days before.
func Antes(inicio time.Time) time.Time { return inicio.AddDate(0, 0, -core.DiasSemanaDSR) }

// dsrOf is employee id's rest days from inicio to ate (core.DSRsPor),
// from his computed days. The days before his admission are no absences.
func (p params) dsrOf(id int64, days []Dia, inicio, ate time.Time) []core.DSR {
	admissao := p.admissoes[id]
	var ausente []int32 // a few unix days
	for i := range days {
		if d := &days[i]; (d.ausencia || d.perdeDSR) && d.Data >= admissao {
			ausente = append(ausente, unixDia(d.date()))
		}
	}
	return core.DSRsPor(p.escalas[id], inicio, ate, func(t time.Time) bool {
		return len(ausente) > 0 && slices.Contains(ausente, unixDia(t))
	})
}

// dsrs spells rest days out as the answers show them.
func dsrs(ds []core.DSR) []DSR {
	out := make([]DSR, 0, len(ds))
	for _, r := range ds {
		x := DSR{Data: r.Data.Format(time.DateOnly), Perdido: r.Perdido, Faltas: make([]string, 0, len(r.Faltas))}
		for _, f := range r.Faltas {
			x.Faltas = append(x.Faltas, f.Format(time.DateOnly))
		}
		out = append(out, x)
	}
	return out
}

// Perdidos counts the lost rest days of ds.
func Perdidos(ds []DSR) int {
	n := 0
	for _, d := range ds {
		if d.Perdido {
			n++
		}
	}
	return n
}
