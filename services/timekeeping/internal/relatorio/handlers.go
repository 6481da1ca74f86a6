package relatorio

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the department report.
type Handlers struct {
	apuracao  *apuracao.Apuracao
	employees *employee.Client
	clock     *clock.Clock
	zones     *fuso.Zones
}

// NewHandlers returns the handlers, computing the workdays with a.
func NewHandlers(a *apuracao.Apuracao, employees *employee.Client, clk *clock.Clock, zones *fuso.Zones) *Handlers {
	return &Handlers{apuracao: a, employees: employees, clock: clk, zones: zones}
}

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/departamento/:departamento", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.report)
}

// Funcionario is the employee as the report names him.
type Funcionario struct {
	ID       int64  `json:"id"`
	Nome     string `json:"nome"`
	Cargo    string `json:"cargo"`
	CPF      string `json:"cpfcnpj"`
	Ativo    bool   `json:"ativo"`
	Segmento *int   `json:"segmento"`
}

// Item is one employee of the report.
type Item struct {
	Funcionario Funcionario     `json:"funcionario"`
	Dias        []apuracao.Dia  `json:"dias"`
	Totais      apuracao.Totais `json:"totais"`
	// DSR are the weekly rest days of the period; BancoHoras the hour
	// bank (the balance at the period's last computed day and the
	// period's movements), null in a CSV.
	DSR        []apuracao.DSR  `json:"dsr"`
	BancoHoras *apuracao.Saldo `json:"bancoHoras"`
}

// Departamento names the department of the report.
type Departamento struct {
	ID   int64  `json:"id"`
	Nome string `json:"nome"`
}

// Relatorio is the JSON answer: the page envelope of pkg/page plus the
// period, the department and its totals (over all its employees).
type Relatorio struct {
	Departamento Departamento    `json:"departamento"`
	Inicio       string          `json:"inicio"`
	Fim          string          `json:"fim"`
	FusoHorario  string          `json:"fusoHorario"`
	Totais       apuracao.Totais `json:"totais"`
	page.Result[Item]
}

// report is GET /registropontos/departamento/{departamento}?inicio=&fim=
// &formato=json|csv&pagina=&tamanho=.
func (h *Handlers) report(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	zone, err := h.zones.Empresa(ctx, caller.EmpresaID)
	if err != nil {
		return err
	}
	q, err := readQuery(c, h.clock.Today(zone))
	if err != nil {
		return err
	}
	quadro, err := h.employees.Quadro(ctx, caller.EmpresaID, q.departamento)
	if err != nil {
		return err
	}
	dep, funcs := quadro.Departamento, quadro.Funcionarios
	lo, hi := q.pageOf(len(funcs))
	if q.csv && (hi-lo)*q.days() > maxCSVRows {
		return domainerr.InvalidField("fim", "relatório grande demais para um CSV ("+
			strconv.Itoa(maxCSVRows)+" linhas): encurte o período ou use pagina e tamanho")
	}
	escalas, err := apuracao.EscalasOf(quadro.Escalas)
	if err != nil {
		return err
	}
	listed := func(i int) bool { return i >= lo && i < hi }
	cq := apuracao.Consulta{EmpresaID: caller.EmpresaID, Funcionarios: funcs, Escalas: escalas, Inicio: q.inicio,
		Fim: q.ate, Detalhe: listed}
	if !q.csv { // the CSV has no DSR nor hour bank column
		cq.DSR = true
		cq.Banco = &apuracao.ConsultaBanco{Ate: q.ate, ApurarAte: h.clock.Today(zone).AddDate(0, 0, -1), Desde: q.inicio,
			De: listed}
	}
	res, err := h.apuracao.Apurar(ctx, cq)
	if err != nil {
		return err
	}
	out := Relatorio{
		Departamento: Departamento{ID: dep.ID, Nome: dep.Nome},
		Inicio:       q.inicio.Format(time.DateOnly),
		Fim:          q.fim.Format(time.DateOnly),
		FusoHorario:  zone.String(),
	}
	if q.csv {
		return streamCSV(c, out, newCSVStream(out, res, lo, hi))
	}
	totals, itens := department(res, lo, hi)
	out.Totais, out.Result = totals, page.NewResult(itens, q.page, len(funcs))
	return c.JSON(out)
}

// department computes the JSON answer: every employee's period, summed
// into the department's totals, and the items of the listed employees
// (lo to hi), one employee at a time.
func department(res *apuracao.Resultado, lo, hi int) (apuracao.Totais, []Item) {
	var totals apuracao.Totais
	itens := make([]Item, 0, hi-lo)
	for i, a := range res.Each() {
		totals.Mais(a.Totais)
		if i >= lo && i < hi {
			itens = append(itens, item(a.Copia()))
		}
	}
	return totals, itens
}

// item is an employee's entry: his days since the period's start, their
// totals, his rest days and hour bank.
func item(a apuracao.Apurado) Item {
	it := Item{Funcionario: funcionario(a.Funcionario), Dias: a.Dias, Totais: a.Totais, DSR: a.DSR,
		BancoHoras: a.Banco}
	if len(it.Dias) == 0 {
		it.Dias = []apuracao.Dia{}
	}
	if it.DSR == nil {
		it.DSR = []apuracao.DSR{}
	}
	return it
}

// funcionario is f as the report names him.
func funcionario(f employee.Funcionario) Funcionario {
	return Funcionario{ID: f.ID, Nome: f.Nome, Cargo: f.Cargo, CPF: f.CPF, Ativo: f.Ativo, Segmento: f.Segmento}
}
