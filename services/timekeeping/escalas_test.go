package main

import (
	"encoding/json"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// goldenDia is the part of a timesheet day testdata/escalas_golden.py
// computes apart from the Go code.
type goldenDia struct {
	Data               string `json:"data"`
	MinutosTrabalhados int    `json:"minutosTrabalhados"`
	MinutosPrevistos   int    `json:"minutosPrevistos"`
	MinutosExtras50    int    `json:"minutosExtras50"`
	MinutosExtras100   int    `json:"minutosExtras100"`
	MinutosNoturnos    int    `json:"minutosNoturnos"`
	SaldoMinutos       int    `json:"saldoMinutos"`
	Falta              bool   `json:"falta"`
	ForaDoVinculo      bool   `json:"foraDoVinculo"`
}

type goldenFuncionario struct {
	Funcionario string      `json:"funcionario"`
	Dias        []goldenDia `json:"dias"`
}

// The golden month of every schedule kind (testdata/escalas_golden.py):
// a day shift, a night shift across midnight and into and out of
// holidays, a 12x36 across a holiday, an employee admitted mid-month and
// one terminated mid-month, recorded through the public API. Each
// timesheet is compared figure by figure with the script's, the AEJ byte
// for byte.
func TestEscalasGoldenMonth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(9)
	dia := e.escala(c, "Comercial", standard())
	n := horario("22:00", 240, 300, 450)
	noite := e.escala(c, "Noturno", []map[string]any{n, n, n, n, n})
	r := call(t, e.emp.public, "POST", "/escalatrabalhos", c.token, map[string]any{"empresaId": c.id, "nome": "Plantão",
		"tipo": "12x36", "dataInicio": "2024-11-01",
		"horarios": []map[string]any{{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720}}})
	want(t, r, 200)
	plantao := id(r.obj(t))

	type pessoa struct {
		nome, cpf          string
		escala             int64
		marcas             []int // the schedule's marks, minutes after the workday's midnight
		admissao, demissao string
		ciclo              bool
	}
	diaMarcas := []int{8 * 60, 12 * 60, 13 * 60, 17 * 60}
	pessoas := []pessoa{
		{"Dia", "123.456.789-09", dia, diaMarcas, "01/11/2024", "", false},
		{"Noite", "987.654.321-00", noite, []int{22 * 60, 26 * 60, 27 * 60, 29*60 + 30}, "01/11/2024", "", false},
		{"Plantão", "111.444.777-35", plantao, []int{7 * 60, 12 * 60, 13 * 60, 19 * 60}, "01/11/2024", "", true},
		{"Admitida", "529.982.247-25", dia, diaMarcas, "11/11/2024", "", false},
		{"Demitido", "390.533.447-05", dia, diaMarcas, "01/11/2024", "14/11/2024", false},
	}
	type punch struct {
		w  int
		at time.Time
	}
	var ps []punch
	ws := make([]worker, len(pessoas))
	for i, p := range pessoas {
		extra := map[string]any{"nome": p.nome, "cpf": p.cpf, "dataAdmissao": p.admissao}
		if p.demissao != "" {
			extra["dataDemissao"] = p.demissao
		}
		ws[i] = e.funcionario(c, p.escala, extra)
		adm, _ := time.Parse("02/01/2006", p.admissao)
		dem, _ := time.Parse("02/01/2006", p.demissao)
		for d := 1; d <= 30; d++ {
			day := time.Date(2024, 11, d, 0, 0, 0, 0, time.UTC)
			working := day.Weekday() != time.Saturday && day.Weekday() != time.Sunday
			if p.ciclo {
				working = (d-1)%2 == 0
			}
			if !working || day.Before(adm) || (p.demissao != "" && day.After(dem)) || (p.nome == "Dia" && d == 7) {
				continue
			}
			for k, m := range p.marcas {
				if p.nome == "Dia" && d == 12 && k == 3 {
					m += 40 // leaves at 17:40
				}
				ps = append(ps, punch{i, local(2024, 11, d, 0, 0).Add(time.Duration(m) * time.Minute)})
			}
		}
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].at.Before(ps[b].at) })
	for _, p := range ps {
		e.punch(ws[p.w], p.at)
	}
	e.clock.Set(local(2024, 12, 2, 10, 30).Add(45 * time.Second))

	b, err := os.ReadFile("testdata/escalas-2024-11.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden []goldenFuncionario
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	var got []goldenFuncionario
	for i, p := range pessoas {
		r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-11", ws[i].id), c.token, nil)
		want(t, r, 200)
		var esp struct {
			Dias []goldenDia `json:"dias"`
		}
		r.into(t, &esp)
		got = append(got, goldenFuncionario{Funcionario: p.nome, Dias: esp.Dias})
	}
	if diff := cmp.Diff(golden, got); diff != "" {
		t.Errorf("timesheets against testdata/escalas-2024-11.json (-want +got):\n%s", diff)
	}

	r = e.pub("GET", "/registropontos/aej?inicio=2024-11-01&fim=2024-11-30", c.token, nil)
	want(t, r, 200)
	compareGolden(t, r.body, "testdata/escalas-aej-2024-11.txt")
}
