package apuracao

import (
	"context"
	"testing"
	"time"

	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// benchDepartment is make bench's department: 1,000 employees on a
// Monday-to-Friday schedule, 30 days.
func benchDepartment(b *testing.B) Consulta {
	turno := employee.Horario{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540}
	escalas, err := EscalasOf(map[int64]employee.Escala{3: {Horarios: []employee.Horario{turno, turno, turno, turno, turno}}})
	if err != nil {
		b.Fatal(err)
	}
	funcs := make([]employee.Funcionario, 1000)
	for i := range funcs {
		funcs[i] = employee.Funcionario{Funcionario: employeeapi.Funcionario{ID: int64(i + 1), EscalaTrabalhoID: 3}}
	}
	inicio := time.Date(2026, 10, 25, 0, 0, 0, 0, time.UTC)
	return Consulta{EmpresaID: 1, Funcionarios: funcs, Escalas: escalas, Inicio: inicio, Fim: inicio.AddDate(0, 0, 29),
		DSR: true}
}

// BenchmarkDepartmentTotals is the Go side of a JSON report's totals on
// make bench's department (30 days read from six days before): computing
// every day, the DSRs and the sums, without the database. go test -bench
// DepartmentTotals.
func BenchmarkDepartmentTotals(b *testing.B) {
	c := benchDepartment(b)
	p := newParams(1, Antes(c.Inicio), c.Fim, c.Funcionarios, c.Escalas)
	var read [][]Dia
	for _, f := range c.Funcionarios {
		var days []Dia
		for d := Antes(c.Inicio); !d.After(c.Fim); d = d.AddDate(0, 0, 1) {
			dia := Dia{FuncionarioID: f.ID, Data: d.Format(time.DateOnly), data: d}
			if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
				dia.marcas = []int{478, 722, 781, 1022}
			} else if f.ID%7 == 0 {
				dia.Falta = true
			}
			days = append(days, dia)
		}
		read = append(read, days)
	}
	r := &Resultado{c: c, f: &fatos{p: p}}
	days := make([]Dia, len(read[0]))
	for b.Loop() {
		var t Totais
		for i := range read {
			copy(days, read[i])
			var a Apurado
			r.apurar(i, days, &a)
			t.Mais(a.Totais)
		}
	}
}

// BenchmarkApurarMemoria is the whole engine on the same department from
// in-memory reads: the facts put in order, each employee's days built
// and computed, with his rest days and totals.
func BenchmarkApurarMemoria(b *testing.B) {
	c := benchDepartment(b)
	m := &Memoria{}
	var id int64
	for _, f := range c.Funcionarios {
		for d := Antes(c.Inicio); !d.After(c.Fim); d = d.AddDate(0, 0, 1) {
			if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
				continue
			}
			for k, min := range []int{478, 722, 781, 1022} {
				id++
				t := d.Add(time.Duration(min+180) * time.Minute)
				m.Marcacoes = append(m.Marcacoes, MarcacaoDe{Funcionario: f.ID, MarcacaoLida: MarcacaoLida{ID: id,
					NSR: id, Jornada: d, Registro: t, Efetivo: t, Fuso: -180, Tipo: []byte(tipos[k])}})
			}
		}
	}
	e := New(m)
	for b.Loop() {
		r, err := e.Apurar(context.Background(), c)
		if err != nil {
			b.Fatal(err)
		}
		var t Totais
		for _, a := range r.Each() {
			t.Mais(a.Totais)
		}
	}
}

var tipos = []string{"entrada", "almoço", "retorno almoço", "saída"}
