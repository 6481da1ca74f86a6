package relatorio

import (
	"errors"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

var errBadSchedule = errors.New("schedule with an invalid entry")

// Handlers serve the department report.
type Handlers struct {
	store     *Store
	employees *employee.Client
	clock     *clock.Clock
	zones     *fuso.Zones
	banco     BancoHoras // nil: no hour bank in the answers
}

// WithBanco makes the JSON report show each listed employee's hour bank.
func (h *Handlers) WithBanco(b BancoHoras) *Handlers {
	h.banco = b
	return h
}

// NewHandlers returns the handlers.
func NewHandlers(store *Store, employees *employee.Client, clk *clock.Clock, zones *fuso.Zones) *Handlers {
	return &Handlers{store: store, employees: employees, clock: clk, zones: zones}
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
	Funcionario Funcionario `json:"funcionario"`
	Dias        []Dia       `json:"dias"`
	Totais      Totais      `json:"totais"`
	// DSR are the weekly rest days of the period; BancoHoras the hour
	// bank (package banco's Saldo: the balance at the period's last
	// computed day and the period's movements), null in a CSV.
	DSR        []DSR `json:"dsr"`
	BancoHoras any   `json:"bancoHoras"`
}

// Departamento names the department of the report.
type Departamento struct {
	ID   int64  `json:"id"`
	Nome string `json:"nome"`
}

// Relatorio is the JSON answer: the page envelope of pkg/page plus the
// period, the department and its totals (over all its employees).
type Relatorio struct {
	Departamento Departamento `json:"departamento"`
	Inicio       string       `json:"inicio"`
	Fim          string       `json:"fim"`
	FusoHorario  string       `json:"fusoHorario"`
	Totais       Totais       `json:"totais"`
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
	escalas, err := escalasOf(quadro.Escalas)
	if err != nil {
		return err
	}
	// The JSON reads from six days before inicio (Antes): the DSR of the
	// period's first rest days looks back at those days' absences. The
	// CSV has no DSR column.
	from := Antes(q.inicio)
	if q.csv {
		from = q.inicio
	}
	fatos, err := h.store.Fatos(ctx, NewParams(caller.EmpresaID, from, q.ate, funcs, escalas))
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
		return streamCSV(c, out, newCSVStream(out, fatos, funcs, lo, hi))
	}
	var bancos map[int64]any
	if h.banco != nil {
		if bancos, err = h.banco.Relatorio(ctx, caller.EmpresaID, funcs[lo:hi], escalas, q.inicio, q.ate, h.clock.Today(zone)); err != nil {
			return err
		}
	}
	totals, itens := department(fatos, q, funcs, lo, hi, bancos)
	out.Totais, out.Result = totals, page.NewResult(itens, q.page, len(funcs))
	return c.JSON(out)
}

// department computes the JSON answer: every employee's days (read from
// Antes(inicio)) and rest days, summed into the department's totals from
// inicio with the rest days lost, and the items of the listed employees
// (lo to hi), one employee at a time.
func department(f *Fatos, q query, funcs []employee.Funcionario, lo, hi int, bancos map[int64]any) (Totais, []Item) {
	var totals Totais
	itens := make([]Item, 0, hi-lo)
	listed := func(i int) bool { return i >= lo && i < hi }
	for i, days := range f.Each(listed) {
		computeDays(days, f.p)
		dsr := f.p.dsrOf(funcs[i].ID, days, q.inicio, q.ate)
		days = Desde(days, q.inicio)
		for j := range days {
			totals.add(&days[j])
		}
		totals.DSRPerdidos += core.Perdidos(dsr)
		if listed(i) {
			itens = append(itens, item(funcs[i], cloneDias(days), dsrs(dsr), bancos[funcs[i].ID]))
		}
	}
	return totals, itens
}

// item is employee f's entry: his days (since the period's start) and
// their totals, his rest days dsr and hour bank.
func item(f employee.Funcionario, days []Dia, dsr []DSR, banco any) Item {
	it := Item{Funcionario: funcionario(f), Dias: days, DSR: dsr, BancoHoras: banco}
	if len(it.Dias) == 0 {
		it.Dias = []Dia{}
	}
	if it.DSR == nil {
		it.DSR = []DSR{}
	}
	it.Totais = Sum(it.Dias)
	it.Totais.DSRPerdidos = Perdidos(it.DSR)
	return it
}

// funcionario is f as the report names him.
func funcionario(f employee.Funcionario) Funcionario {
	return Funcionario{ID: f.ID, Nome: f.Nome, Cargo: f.Cargo, CPF: f.CPF, Ativo: f.Ativo, Segmento: f.Segmento}
}
