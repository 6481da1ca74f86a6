package relatorio

import (
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// What the day at a glance (package hoje) reads of a report's rows.

// Contadas are the day's punches that count (the disregarded left out,
// the included merged in), in minutes after the workday's local midnight.
func (d *Dia) Contadas() []int {
	return core.Treat(d.marcas, core.Tratamento{Incluidas: d.incluidas, Desconsideradas: d.desconsideradas}, nil)
}

// AbonoDiaInteiro reports whether an abono excuses the whole day.
func (d *Dia) AbonoDiaInteiro() bool { return d.abonoDia }

// EscalasOf converts the schedules by id for NewParams (a 502 for one the
// core cannot read).
func EscalasOf(escalas map[int64]employee.Escala) (map[int64]*core.Escala, error) {
	return escalasOf(escalas)
}
