package relatorio

import (
	"testing"
	"time"

	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// BenchmarkDepartmentTotals is the Go side of a JSON report's totals on
// make bench's department (1,000 employees on a Monday-to-Friday schedule,
// 30 days read from six days before): computing every day, the DSRs and
// the sums, without the database. go test -bench DepartmentTotals.
func BenchmarkDepartmentTotals(b *testing.B) {
	turno := employee.Horario{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540}
	escalas, err := escalasOf(map[int64]employee.Escala{3: {Horarios: []employee.Horario{turno, turno, turno, turno, turno}}})
	if err != nil {
		b.Fatal(err)
	}
	funcs := make([]employee.Funcionario, 1000)
	for i := range funcs {
		funcs[i] = employee.Funcionario{Funcionario: employeeapi.Funcionario{ID: int64(i + 1), EscalaTrabalhoID: 3}}
	}
	inicio := time.Date(2026, 10, 25, 0, 0, 0, 0, time.UTC)
	fim := inicio.AddDate(0, 0, 29)
	p := NewParams(1, Antes(inicio), fim, funcs, escalas)
	var read []Dia
	for _, f := range funcs {
		for d := Antes(inicio); !d.After(fim); d = d.AddDate(0, 0, 1) {
			dia := Dia{FuncionarioID: f.ID, Data: d.Format(time.DateOnly), data: d}
			if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
				dia.marcas = []int{478, 722, 781, 1022}
			} else if f.ID%7 == 0 {
				dia.Falta = true
			}
			read = append(read, dia)
		}
	}
	days := make([]Dia, len(read))
	for b.Loop() {
		copy(days, read)
		computeDays(days, p)
		dsr := DSRs(days, p, inicio, fim)
		t := Sum(Desde(days, inicio))
		for _, ds := range dsr {
			t.DSRPerdidos += Perdidos(ds)
		}
	}
}
