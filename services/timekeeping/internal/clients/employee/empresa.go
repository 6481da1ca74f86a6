package employee

import (
	"context"

	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
)

// Empresa is a company's roster as the day at a glance reads it: its
// active employees by name, each one's department name (parallel, ""
// without one) and establishment (parallel, 0 the principal), and each of
// their schedules once, by id.
type Empresa struct {
	Funcionarios     []Funcionario
	Departamentos    []string
	Estabelecimentos []int64
	Escalas          map[int64]Escala
}

// Empresa returns company empresaID's active employees.
func (c *Client) Empresa(ctx context.Context, empresaID int64) (Empresa, error) {
	out, err := c.api.GetQuadroEmpresa(ctx, empresaID)
	if err != nil {
		return Empresa{}, err
	}
	e := Empresa{Funcionarios: make([]Funcionario, len(out.Funcionarios)),
		Departamentos: make([]string, len(out.Funcionarios)), Estabelecimentos: make([]int64, len(out.Funcionarios)),
		Escalas: make(map[int64]Escala, len(out.Escalas))}
	// One copy of each schedule, which its employees point to.
	shared := make(map[int64]*Escala, len(out.Escalas))
	for _, s := range out.Escalas {
		e.Escalas[s.ID] = Escala(s)
		c := Escala(s)
		shared[s.ID] = &c
	}
	for i, m := range out.Funcionarios {
		f := Funcionario{Funcionario: employeeapi.Funcionario{ID: m.ID, Nome: m.Nome, Cargo: m.Cargo, CPF: m.CPF,
			Ativo: m.Ativo, Segmento: m.Segmento, EscalaTrabalhoID: m.EscalaTrabalhoID, DataAdmissao: m.DataAdmissao,
			FusoHorario: m.FusoHorario, EmpresaID: empresaID, Email: m.Email}}
		if s, ok := shared[m.EscalaTrabalhoID]; ok {
			f.Escala = s
		}
		e.Funcionarios[i], e.Departamentos[i], e.Estabelecimentos[i] = f, m.Departamento, m.EstabelecimentoID
	}
	return e, nil
}
