package apuracao

import (
	"errors"
	"time"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// What the day at a glance (package hoje) reads of a day.

// Contadas are the day's punches that count (the disregarded left out,
// the included merged in), in minutes after the workday's local midnight.
func (d *Dia) Contadas() []int {
	return core.Treat(d.marcas, core.Tratamento{Incluidas: d.incluidas, Desconsideradas: d.desconsideradas}, nil)
}

// AbonoDiaInteiro reports whether an abono excuses the whole day.
func (d *Dia) AbonoDiaInteiro() bool { return d.abonoDia }

var errBadSchedule = errors.New("schedule with an invalid entry")

// EscalasOf reads each schedule of escalas (by id) as the record core
// does; a schedule it cannot read is the employee service's fault (502).
func EscalasOf(escalas map[int64]employee.Escala) (map[int64]*core.Escala, error) {
	out := make(map[int64]*core.Escala, len(escalas))
	for id, e := range escalas {
		c := e.Core()
		if c == nil && len(e.Horarios) > 0 {
			return nil, domainerr.BadDependency("employee", errBadSchedule)
		}
		out[id] = c
	}
	return out, nil
}

// newParams builds the parameters for funcs over [inicio, fim], whose
// schedules are in escalas (by schedule id).
func newParams(empresaID int64, inicio, fim time.Time, funcs []employee.Funcionario, escalas map[int64]*core.Escala) params {
	p := params{Periodo: Periodo{EmpresaID: empresaID, Inicio: inicio, Fim: fim,
		Funcionarios: make([]int64, 0, len(funcs))}, escalas: make(map[int64]*core.Escala, len(funcs)),
		admissoes: map[int64]string{}, demissoes: map[int64]string{}}
	for _, f := range funcs {
		p.Funcionarios = append(p.Funcionarios, f.ID)
		if d, ok := f.Admissao(); ok {
			p.admissoes[f.ID] = d.Format(time.DateOnly)
		}
		if d, ok := f.Demissao(); ok {
			p.demissoes[f.ID] = d.Format(time.DateOnly)
		}
		p.escalas[f.ID] = escalas[f.EscalaTrabalhoID]
	}
	return p
}
