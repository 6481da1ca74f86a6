package relatorio

import (
	"context"
	"slices"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
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

// DSRs computes each employee's rest days from inicio to ate from the
// computed days (read from Antes(inicio)), in employee order as Days
// gives them.
func DSRs(days []Dia, p Params, inicio, ate time.Time) map[int64][]DSR {
	runs := map[int64][]Dia{}
	for i := 0; i < len(days); {
		j := i + 1
		for j < len(days) && days[j].FuncionarioID == days[i].FuncionarioID {
			j++
		}
		runs[days[i].FuncionarioID] = days[i:j]
		i = j
	}
	out := make(map[int64][]DSR, len(p.Funcionarios))
	for _, id := range p.Funcionarios {
		out[id] = dsrs(p.dsrOf(id, runs[id], inicio, ate))
	}
	return out
}

// dsrOf is employee id's rest days from inicio to ate (core.DSRsPor),
// from his computed days. The days before his admission are no absences.
func (p Params) dsrOf(id int64, days []Dia, inicio, ate time.Time) []core.DSR {
	admissao := p.admissoes[id]
	var ausente []int32 // a few unix days
	for i := range days {
		if d := &days[i]; d.ausencia && d.Data >= admissao {
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

// Desde drops, in place, the rows dated before inicio (read only for the
// DSR).
func Desde(days []Dia, inicio time.Time) []Dia {
	from := inicio.Format(time.DateOnly)
	out := days[:0]
	for _, d := range days {
		if d.Data >= from {
			out = append(out, d)
		}
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

// BancoHoras computes the hour bank of the report's listed employees
// (package banco, which reads the report's rows: hence an interface):
// by employee, the balance at ate and the movements from inicio.
type BancoHoras interface {
	Relatorio(ctx context.Context, empresaID int64, listed []employee.Funcionario, escalas map[int64]*core.Escala,
		inicio, ate, hoje time.Time) (map[int64]any, error)
}
