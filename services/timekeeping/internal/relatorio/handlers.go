package relatorio

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"golang.org/x/sync/errgroup"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// scheduleFetches bounds the concurrent schedule calls to the employee
// service (one per distinct schedule of the department).
const scheduleFetches = 4

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
	dep, funcs, err := h.employees.Departamento(ctx, caller.EmpresaID, q.departamento)
	if err != nil {
		return err
	}
	listed := q.pageOf(funcs)
	if q.csv && len(listed)*q.days() > maxCSVRows {
		return apierr.Invalid(map[string]string{"fim": "relatório grande demais para um CSV (" +
			strconv.Itoa(maxCSVRows) + " linhas): encurte o período ou use pagina e tamanho"})
	}
	escalas, err := h.schedules(ctx, funcs)
	if err != nil {
		return err
	}
	days, totals, dsr, err := h.read(ctx, caller.EmpresaID, q, listed, funcs, escalas)
	if err != nil {
		return err
	}
	var bancos map[int64]any
	if h.banco != nil && !q.csv {
		if bancos, err = h.banco.Relatorio(ctx, caller.EmpresaID, listed, escalas, q.inicio, q.ate, h.clock.Today(zone)); err != nil {
			return err
		}
	}
	out := Relatorio{
		Departamento: Departamento{ID: dep.ID, Nome: dep.Nome},
		Inicio:       q.inicio.Format(time.DateOnly),
		Fim:          q.fim.Format(time.DateOnly),
		FusoHorario:  zone.String(),
		Totais:       totals,
		Result:       page.NewResult(items(listed, days, dsr, bancos), q.page, len(funcs)),
	}
	if q.csv {
		return writeCSV(c, out)
	}
	return c.JSON(out)
}

// read reads and computes the listed employees' days over the period and
// the department's totals, with every employee's DSR (JSON only: the CSV
// has no DSR column, and reads only its period).
//
// The JSON reads from six days before inicio (Antes): the DSR of the
// period's first rest days looks back at those days' absences.
func (h *Handlers) read(ctx context.Context, empresaID int64, q query, listed, funcs []employee.Funcionario,
	escalas map[int64]*core.Escala) (days []Dia, totals Totais, dsr map[int64][]DSR, err error) {
	from := Antes(q.inicio)
	if q.csv {
		from = q.inicio
	}
	pListed, pAll := NewParams(empresaID, from, q.ate, listed, escalas), NewParams(empresaID, from, q.ate, funcs, escalas)
	days, facts, err := h.store.Report(ctx, pListed, pAll)
	if err != nil {
		return nil, Totais{}, nil, err
	}
	whole := len(pAll.Funcionarios) == len(pListed.Funcionarios) // then facts are days (Store.Report)
	apurar(days, pListed)
	if !whole {
		apurar(facts, pAll)
	}
	if q.csv {
		return days, Somar(facts), nil, nil
	}
	dsr = DSRs(facts, pAll, q.inicio, q.ate)
	days = Desde(days, q.inicio)
	if whole {
		facts = days
	} else {
		facts = Desde(facts, q.inicio)
	}
	totals = Somar(facts)
	for _, ds := range dsr {
		totals.DSRPerdidos += perdidos(ds)
	}
	return days, totals, dsr, nil
}

// items groups the day rows (ordered as listed) under their employees.
// Each employee's days are his run of days, not a copy: a department's
// CSV has tens of thousands of them.
func items(listed []employee.Funcionario, days []Dia, dsr map[int64][]DSR, bancos map[int64]any) []Item {
	out := make([]Item, 0, len(listed))
	i := 0
	for _, f := range listed {
		it := Item{Funcionario: Funcionario{ID: f.ID, Nome: f.Nome, Cargo: f.Cargo, CPF: f.CPF, Ativo: f.Ativo,
			Segmento: f.Segmento}, Dias: []Dia{}, DSR: dsr[f.ID], BancoHoras: bancos[f.ID]}
		if it.DSR == nil {
			it.DSR = []DSR{}
		}
		it.Totais.DSRPerdidos = perdidos(it.DSR)
		start := i
		for ; i < len(days) && days[i].FuncionarioID == f.ID; i++ {
			it.Totais.add(&days[i])
		}
		if i > start {
			it.Dias = days[start:i:i]
		}
		out = append(out, it)
	}
	return out
}

// schedules fetches each distinct work schedule of funcs once, through
// any of its employees, a few at a time.
func (h *Handlers) schedules(ctx context.Context, funcs []employee.Funcionario) (map[int64]*core.Escala, error) {
	return Schedules(ctx, h.employees, funcs)
}

// Schedules fetches each distinct work schedule of funcs once, through
// any of its employees, a few at a time, by schedule id.
func Schedules(ctx context.Context, employees *employee.Client, funcs []employee.Funcionario) (map[int64]*core.Escala, error) {
	via := map[int64]int64{} // schedule id -> an employee on it
	for _, f := range funcs {
		if _, ok := via[f.EscalaTrabalhoID]; !ok {
			via[f.EscalaTrabalhoID] = f.ID
		}
	}
	out := make(map[int64]employee.Escala, len(via))
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(scheduleFetches)
	for escalaID, funcionarioID := range via {
		g.Go(func() error {
			e, err := employees.Escala(gctx, funcionarioID)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			out[escalaID] = e
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return escalasOf(out)
}
