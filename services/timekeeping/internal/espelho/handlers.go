// Package espelho serves an employee's monthly timesheet (espelho de
// ponto): GET /registropontos/funcionario/{funcionarioId}/espelho?mes=
// YYYY-MM&formato=json|pdf. It shows the employer and the employee, the
// period, the contractual schedule, the original punches and the treated
// ones (included or disregarded, with the adjustment's reason), and each
// day's figures as the department report shows them (the workday engine,
// package apuracao, computes them with the record core's rules).
package espelho

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/signature"
	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/abono"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/documento"
	"github.com/ponto/ponto/services/timekeeping/internal/estabelecimento"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
	"github.com/ponto/ponto/services/timekeeping/internal/tratamento"
)

// Handlers serve the timesheet.
type Handlers struct {
	pontos    *tratamento.Store
	abonos    *abono.Store
	apuracao  *apuracao.Apuracao
	employees *employee.Client
	companies *companybillingapi.Client
	clock     *clock.Clock
	zones     *fuso.Zones
	signer    *signature.Signer   // nil: unsigned PDFs
	db        database.RowQuerier // the establishments
}

// NewHandlers returns the handlers: pontos reads the treated punches,
// abonos the abonos, a computes the days and the hour bank; signer (nil when no
// certificate is configured) signs the PDF; db holds the establishments.
func NewHandlers(pontos *tratamento.Store, abonos *abono.Store, a *apuracao.Apuracao, employees *employee.Client,
	companies *companybillingapi.Client, clk *clock.Clock, zones *fuso.Zones, signer *signature.Signer,
	db database.RowQuerier) *Handlers {
	return &Handlers{pontos: pontos, abonos: abonos, apuracao: a, employees: employees, companies: companies, clock: clk,
		zones: zones, signer: signer, db: db}
}

// Public mounts the route on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/funcionario/:funcionarioId/espelho",
		jwtauth.RequireRole(jwtauth.RoleEmpresa, jwtauth.RoleFuncionario), h.get)
}

// get is the route: 200 JSON or application/pdf (signed with PAdES when
// a certificate is configured, unless assinar=false). The company sees
// its employees' timesheets, an employee only his own (404 otherwise, as
// for another company's employee).
func (h *Handlers) get(c *fiber.Ctx) error {
	caller, id, err := request.On(c, "funcionarioId")
	if err != nil {
		return err
	}
	companyZone, err := h.zones.Empresa(c.UserContext(), caller.EmpresaID)
	if err != nil {
		return err
	}
	inicio, pdf, err := readQuery(c, h.clock.Today(companyZone))
	if err != nil {
		return err
	}
	signing, err := documento.ReadSigning(c, h.signer)
	if err != nil {
		return err
	}
	if caller.Role == jwtauth.RoleFuncionario && caller.FuncionarioID != id {
		return registro.ErrNotFound
	}
	e, err := h.build(c, caller.EmpresaID, id, inicio)
	if err != nil {
		return err
	}
	if !pdf {
		return c.JSON(e)
	}
	b, err := PDF(e, h.clock.Now().In(companyZone), signing.Notice())
	if err != nil {
		return err
	}
	return signing.Send(c, b, Titulo+" "+e.Periodo.Mes, "espelho-"+e.Periodo.Mes+"-"+itoa(e.Funcionario.ID)+".pdf")
}

// readQuery reads mes (YYYY-MM, default this month, from 2000-01 up to
// this month) and formato (json or pdf).
func readQuery(c *fiber.Ctx, today time.Time) (inicio time.Time, pdf bool, err error) {
	inicio = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
	if s := c.Query("mes"); s != "" {
		m, perr := time.Parse("2006-01", s)
		if perr != nil || m.Before(request.Earliest) || m.After(inicio) {
			return inicio, false, domainerr.InvalidField("mes", "mês inválido (use AAAA-MM, de 2000-01 até o mês atual)")
		}
		inicio = m
	}
	switch c.Query("formato", "json") {
	case "json":
	case "pdf":
		pdf = true
	default:
		return inicio, false, domainerr.InvalidField("formato", "use json ou pdf")
	}
	return inicio, pdf, nil
}

// build gathers the timesheet of employee id of company empresaID for the
// month starting inicio.
func (h *Handlers) build(c *fiber.Ctx, empresaID, id int64, inicio time.Time) (Espelho, error) {
	ctx := c.UserContext()
	f, err := h.employees.Funcionario(ctx, empresaID, id)
	if err != nil {
		return Espelho{}, err
	}
	escala, err := h.employees.Escala(ctx, id)
	if err != nil {
		return Espelho{}, err
	}
	emp, err := h.companies.GetEmpresa(ctx, empresaID)
	if err != nil {
		return Espelho{}, err
	}
	est, err := estabelecimento.Find(ctx, h.db, empresaID, f.EstabelecimentoID)
	if err != nil {
		return Espelho{}, err
	}
	zone, err := h.zones.Funcionario(ctx, empresaID, f.FusoHorario)
	if err != nil {
		return Espelho{}, err
	}
	fim := inicio.AddDate(0, 1, -1)
	today := h.clock.Today(zone)
	ate := fim
	if today.Before(fim) {
		ate = today // days to come have nothing to show yet
	}
	escalas, err := apuracao.EscalasOf(map[int64]employee.Escala{f.EscalaTrabalhoID: escala})
	if err != nil {
		return Espelho{}, err
	}
	res, err := h.apuracao.Apurar(ctx, apuracao.Consulta{EmpresaID: empresaID, Funcionarios: []employee.Funcionario{f},
		Escalas: escalas, Inicio: inicio, Fim: ate, DSR: true, Detalhe: func(int) bool { return true },
		Banco: &apuracao.ConsultaBanco{Ate: ate, ApurarAte: today.AddDate(0, 0, -1), Desde: inicio}})
	if err != nil {
		return Espelho{}, err
	}
	a := res.Apurado(0)
	days := a.Dias
	punches, err := h.pontos.TratadasFuncionario(ctx, empresaID, id, inicio, ate)
	if err != nil {
		return Espelho{}, err
	}
	byDay := map[string][]tratamento.MarcacaoTratada{}
	for _, x := range punches {
		k := x.Jornada.Format(time.DateOnly)
		byDay[k] = append(byDay[k], x)
	}
	abonos, err := h.abonos.List(ctx, empresaID, id, inicio, ate)
	if err != nil {
		return Espelho{}, err
	}
	abonosByDay := map[string][]abono.Abono{}
	for _, a := range abonos {
		abonosByDay[a.Data] = append(abonosByDay[a.Data], a)
	}
	semana := escala.Core()
	out := Espelho{
		Empregador:      Empregador{RazaoSocial: emp.RazaoSocial, Nome: emp.Nome, CNPJ: emp.CNPJ},
		Estabelecimento: est,
		Funcionario:     Funcionario{ID: f.ID, Nome: f.Nome, CPF: f.CPF, Cargo: f.Cargo, DataAdmissao: admissao(f)},
		Periodo: Periodo{Mes: inicio.Format("2006-01"), Inicio: inicio.Format(time.DateOnly), Fim: fim.Format(time.DateOnly),
			ApuradoAte: ate.Format(time.DateOnly), EscalaNome: escala.Nome, EscalaID: escala.ID,
			GeradoEm: clock.FormatISO(h.clock.Now()), TotalDeDias: fim.Day(), DiasApurados: daysBetween(inicio, ate)},
		FusoHorario:       zone.String(),
		HorarioContratual: horarios(escala),
		Dias:              make([]Dia, 0, len(days)),
		Totais:            a.Totais,
		DSR:               a.DSR,
		BancoHoras:        *a.Banco,
	}
	for _, d := range days {
		data, _ := time.Parse(time.DateOnly, d.Data)
		orig, trat, desc := treat(byDay[d.Data], zone, data, semana.Turno(data))
		out.Dias = append(out.Dias, Dia{Dia: d, DiaSemana: diasSemana[weekday(d.Data)], MarcacoesOriginais: orig,
			MarcacoesTratadas: trat, Desconsideradas: desc, Abonos: abonosDoDia(abonosByDay[d.Data])})
	}
	return out, nil
}

// daysBetween counts the calendar days from a to b, both included; none
// when b is before a (a month that has not started).
func daysBetween(a, b time.Time) int {
	if b.Before(a) {
		return 0
	}
	return int(b.Sub(a).Round(time.Hour).Hours()/24) + 1
}
