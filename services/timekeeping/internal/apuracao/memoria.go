package apuracao

import (
	"context"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// Memoria is the engine's reads held in memory (Leituras), for unit tests
// of the rules as the engine applies them, without a database. Fatos
// hands over every fact; the engine keeps those of the period asked.
type Memoria struct {
	InicioUso    *time.Time
	Facultativos core.Facultativos
	// Feriados are the company's own holidays by date (YYYY-MM-DD).
	Feriados map[string]string
	Faltas   []FaltaLida
	Abonos   []AbonoLido
	// Desconsideradas are the ids of the punches disregarded.
	Desconsideradas []int64
	Marcacoes       []MarcacaoDe
	Afastamentos    []AfastamentoLido
	PoliticaBanco   Politica
	// MovimentosBanco are the manual movements by employee.
	MovimentosBanco map[int64][]core.MovimentoBanco
}

var _ Leituras = (*Memoria)(nil)

// FaltaLida is an absence mark of Memoria.
type FaltaLida struct {
	Funcionario int64
	Data        time.Time
}

// AbonoLido is an abono of Memoria (Inicio or Fim nil: the whole day).
type AbonoLido struct {
	Funcionario int64
	Data        time.Time
	Inicio, Fim *int
}

// AfastamentoLido is a standing leave of Memoria.
type AfastamentoLido struct {
	Funcionario, ID int64
	core.Afastamento
}

// MarcacaoDe is a punch of employee Funcionario in Memoria.
type MarcacaoDe struct {
	Funcionario int64
	MarcacaoLida
}

// Fatos is Leituras'.
func (m *Memoria) Fatos(_ context.Context, _ Periodo, r Registro) error {
	r.Calendario(m.InicioUso, m.Facultativos)
	for d, nome := range m.Feriados {
		data, err := time.Parse(time.DateOnly, d)
		if err != nil {
			return err
		}
		r.Feriado(data, nome)
	}
	for _, f := range m.Faltas {
		r.Falta(f.Funcionario, f.Data)
	}
	for _, a := range m.Abonos {
		r.Abono(a.Funcionario, a.Data, a.Inicio, a.Fim)
	}
	for _, id := range m.Desconsideradas {
		r.Desconsiderada(id)
	}
	for _, x := range m.Marcacoes {
		r.Marcacao(x.Funcionario, x.MarcacaoLida)
	}
	for _, a := range m.Afastamentos {
		r.Afastamento(a.Funcionario, a.ID, a.Afastamento)
	}
	return nil
}

// Politica is Leituras'.
func (m *Memoria) Politica(context.Context, int64) (Politica, error) { return m.PoliticaBanco, nil }

// Movimentos is Leituras': those of ids dated from inicio to fim.
func (m *Memoria) Movimentos(_ context.Context, _ int64, ids []int64, inicio, fim time.Time) (map[int64][]core.MovimentoBanco, error) {
	out := map[int64][]core.MovimentoBanco{}
	for _, id := range ids {
		for _, mv := range m.MovimentosBanco[id] {
			if !mv.Data.Before(inicio) && !mv.Data.After(fim) {
				out[id] = append(out[id], mv)
			}
		}
	}
	return out, nil
}
