package hoje

import (
	"testing"
	"time"

	"github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// BenchmarkListed lists a 2,000-employee company on three schedules, as
// the Today page does on every request.
func BenchmarkListed(b *testing.B) {
	roster := employee.Empresa{Escalas: map[int64]employee.Escala{}}
	for id := int64(1); id <= 3; id++ {
		h := internalapi.Horario{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540}
		roster.Escalas[id] = employee.Escala{ID: id, Horarios: []internalapi.Horario{h, h, h, h, h, h, h}}
	}
	for i := range 2000 {
		e := roster.Escalas[int64(i%3+1)]
		f := employee.Funcionario{Funcionario: internalapi.Funcionario{ID: int64(i + 1), Nome: "Fulano", EscalaTrabalhoID: int64(i%3 + 1)},
			Escala: &e}
		roster.Funcionarios = append(roster.Funcionarios, f)
		roster.Departamentos = append(roster.Departamentos, "Operações")
		roster.Estabelecimentos = append(roster.Estabelecimentos, 0)
	}
	b.ReportAllocs()
	for b.Loop() {
		escalas, err := apuracao.EscalasOf(roster.Escalas)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := listed(roster, escalas, "", nil, time.UTC); err != nil {
			b.Fatal(err)
		}
	}
}
