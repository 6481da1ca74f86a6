package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
	"github.com/ponto/ponto/services/web/internal/session"
)

func (p *Pages) companyRoutes(app *fiber.App) {
	app.Get("/empresa/cadastro", p.registerForm)
	app.Post("/empresa/cadastro", p.register)
	app.Get("/empresa/entrar", p.companyLoginForm)
	app.Post("/empresa/entrar", p.companyLogin)
	g := app.Group("/empresa", requireRole(session.RoleEmpresa, "/empresa/entrar"))
	g.Get("/", p.companyToday)
	g.Get("/graficos", p.charts)
	g.Get("/lembretes", p.companyRemindersPage)
	g.Post("/lembretes", p.setCompanyReminders)
	g.Get("/configuracoes", p.settings)
	g.Post("/configuracoes", p.saveSettings)
	g.Get("/banco-horas", p.hourBankPolicy)
	g.Post("/banco-horas", p.saveHourBankPolicy)
	g.Get("/funcionarios", p.employees)
	g.Get("/funcionarios/novo", p.employeeForm)
	g.Post("/funcionarios", p.createEmployee)
	g.Post("/funcionarios/:id<int>/desativar", p.deactivateEmployee)
	g.Get("/departamentos", p.departments)
	g.Post("/departamentos", p.createDepartment)
	g.Get("/escalas", p.schedules)
	g.Post("/escalas", p.createSchedule)
	g.Get("/locais", p.workPlaces)
	g.Post("/locais", p.createWorkPlace)
	g.Post("/locais/:id<int>/remover", p.removeWorkPlace)
	g.Get("/feriados", p.holidays)
	g.Post("/feriados", p.createHoliday)
	g.Post("/feriados/:data/remover", p.removeHoliday)
	g.Get("/ajustes", p.adjustments)
	g.Post("/ajustes/:id<int>/:decisao<regex(^(aprovar|reprovar)$)>", p.decideAdjustment)
	g.Get("/relatorio", p.report)
	g.Get("/relatorio.csv", p.reportCSV)
	g.Get("/espelhos", p.timesheets)
	p.treatmentRoutes(g)
	p.establishmentRoutes(g)
	g.Post("/solicitacoes/:id<int>/:decisao<regex(^(aprovar|reprovar)$)>", p.decideInclusionRequest)
	g.Get("/espelho.pdf", p.timesheetPDF)
	g.Get("/afd", p.afdForm)
	g.Get("/afd.txt", p.afd)
	g.Get("/aej.txt", p.aej)
	g.Get("/fechamentos", p.closings)
	g.Get("/folha", p.payroll)
	g.Post("/folha/eventos", p.savePayrollEvents)
	g.Get("/folha/arquivo", p.payrollFile)
	g.Post("/fechamentos", p.closePeriod)
	g.Post("/fechamentos/:id<int>/reabrir", p.reopenPeriod)
	p.leaveRoutes(g)
}

var registerFields = []string{"nome", "razaoSocial", "cnpj", "dataAbertura", "email", "password", "nomeDoPlano", "fusoHorario"}

type registerView struct{ Planos []string }

func (p *Pages) registerForm(c *fiber.Ctx) error {
	return p.render(c, http.StatusOK, "empresa-cadastro.html", view{Title: "Cadastrar empresa", Data: registerView{p.cfg.Plans}})
}

// register creates the company, then logs it in with the same e-mail and
// password.
func (p *Pages) register(c *fiber.Ctx) error {
	form := formValues(c.FormValue, registerFields...)
	form["password"] = c.FormValue("password") // passwords are not trimmed
	err := p.anon(c, api.Call{Method: http.MethodPost, Path: "/empresas", Body: form}, nil)
	if err != nil {
		delete(form, "password")
		if e, ok := api.AsError(err); ok && e.Status < 500 {
			return p.render(c, e.Status, "empresa-cadastro.html", view{Title: "Cadastrar empresa", Form: form, Err: e, Data: registerView{p.cfg.Plans}})
		}
		return p.fail(c, err)
	}
	return p.companySignIn(c, map[string]string{"email": form["email"], "password": form["password"]}, "empresa-entrar.html")
}

func (p *Pages) companyLoginForm(c *fiber.Ctx) error {
	return p.loginForm(c, "empresa-entrar.html", "Entrar — empresa")
}

func (p *Pages) companyLogin(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "email")
	form["password"] = c.FormValue("password")
	return p.companySignIn(c, form, "empresa-entrar.html")
}

func (p *Pages) companySignIn(c *fiber.Ctx, form map[string]string, page string) error {
	var out loginAnswer
	err := p.anon(c, api.Call{Method: http.MethodPost, Path: "/auth/login", Body: form}, &out)
	delete(form, "password")
	if err != nil {
		return p.formError(c, page, "Entrar — empresa", form, err)
	}
	id, idErr := out.User.ID.Int64()
	if idErr != nil || !strings.HasPrefix(out.User.Role, "empresa") {
		// Admins log in at the API; this console is for companies.
		return p.render(c, http.StatusForbidden, page, view{Title: "Entrar — empresa", Form: form,
			Err: &api.Error{Status: http.StatusForbidden, Code: "acesso_negado", Message: "este acesso é só para empresas"}})
	}
	s := p.codec.New()
	s.Role, s.Token, s.Refresh, s.EmpresaID, s.Nome, s.TZ = session.RoleEmpresa, out.Token, out.RefreshToken, id, out.User.Nome, out.User.FusoHorario
	*sess(c) = *s
	if sess(c).TZ == "" {
		var me struct {
			FusoHorario string `json:"fusoHorario"`
		}
		if err := p.get(c, "/empresas/me", &me); err == nil && me.FusoHorario != "" {
			sess(c).TZ = me.FusoHorario
		}
	}
	return c.Redirect("/empresa", http.StatusSeeOther)
}

// all reads every item of a paginated list (bounded: the pickers of the
// forms need names, not thousands of rows).
func (p *Pages) all(c *fiber.Ctx, path string) ([]record, error) {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var out page
	err := p.get(c, path+sep+"tamanho=100", &out)
	return out.Itens, err
}

type employeesView struct {
	Itens         []record
	Total         string
	Departamentos []record
	Escalas       []record
	// Estabelecimentos are the company's active establishments, for the
	// new employee's (the principal first).
	Estabelecimentos []record
	Pagina           int
	Proxima          string
	Anterior         string
}

// employees lists the company's employees, of a department and segment
// when asked (segment 0: the whole department), active or not.
func (p *Pages) employees(c *fiber.Ctx) error {
	form := formValues(c.Query, "departamentoId", "segmento", "ativo")
	pagina := c.QueryInt("pagina", 1)
	if pagina < 1 {
		pagina = 1
	}
	q := url.Values{"pagina": {strconv.Itoa(pagina)}, "tamanho": {"50"}}
	if form["ativo"] != "" {
		q.Set("ativo", form["ativo"])
	}
	path := "/funcionarios?"
	if d := form["departamentoId"]; d != "" {
		seg := form["segmento"]
		if seg == "" {
			seg = "0"
		}
		path = "/departamentos/" + url.PathEscape(d) + "/" + url.PathEscape(seg) + "/funcionarios?"
	}
	var out page
	err := p.get(c, path+q.Encode(), &out)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		out = page{}
	} else if err != nil {
		return p.fail(c, err)
	}
	deps, derr := p.all(c, "/departamentos")
	if derr != nil {
		return p.fail(c, derr)
	}
	v := employeesView{Itens: out.Itens, Total: out.Total.String(), Departamentos: deps, Pagina: pagina}
	total, _ := out.Total.Int64()
	if int64(pagina*50) < total {
		q.Set("pagina", strconv.Itoa(pagina+1))
		v.Proxima = "?" + withFilters(q, form)
	}
	if pagina > 1 {
		q.Set("pagina", strconv.Itoa(pagina-1))
		v.Anterior = "?" + withFilters(q, form)
	}
	ev := view{Title: "Funcionários", Nav: "funcionarios", Form: form, Data: v}
	if e, ok := api.AsError(err); ok {
		ev.Err = e
	}
	if c.Query("ok") == "desativado" {
		ev.Msg = "Funcionário desativado."
	} else if c.Query("ok") == "criado" {
		ev.Msg = "Funcionário cadastrado."
	}
	return p.render(c, http.StatusOK, "funcionarios.html", ev)
}

func withFilters(q url.Values, form map[string]string) string {
	for k, v := range form {
		if v != "" && k != "ativo" {
			q.Set(k, v)
		}
	}
	return q.Encode()
}

var employeeFields = []string{"nome", "email", "cpf", "dataNascimento", "cargo", "telefone", "escalaTrabalhoId", "departamentoId", "segmento", "fusoHorario", "estabelecimentoId"}

func (p *Pages) employeeForm(c *fiber.Ctx) error {
	return p.employeeFormWith(c, http.StatusOK, map[string]string{}, nil)
}

func (p *Pages) employeeFormWith(c *fiber.Ctx, status int, form map[string]string, e *api.Error) error {
	deps, err := p.all(c, "/departamentos")
	if err != nil {
		return p.fail(c, err)
	}
	escalas, err := p.all(c, "/escalatrabalhos")
	if err != nil {
		return p.fail(c, err)
	}
	ests, err := p.activeEstablishments(c)
	if err != nil {
		return p.fail(c, err)
	}
	return p.render(c, status, "funcionario-novo.html", view{Title: "Novo funcionário", Nav: "funcionarios", Form: form, Err: e,
		Data: employeesView{Departamentos: deps, Escalas: escalas, Estabelecimentos: ests}})
}

// createEmployee posts the form to the API; numbers are sent as numbers,
// and a field the API names comes back next to its input.
func (p *Pages) createEmployee(c *fiber.Ctx) error {
	form := formValues(c.FormValue, employeeFields...)
	body := map[string]any{"empresaId": sess(c).EmpresaID, "password": c.FormValue("password")}
	for _, k := range []string{"nome", "email", "cpf", "dataNascimento", "cargo", "telefone"} {
		body[k] = form[k]
	}
	if form["fusoHorario"] != "" { // empty: the company's zone
		body["fusoHorario"] = form["fusoHorario"]
	}
	bad := map[string]string{}
	for _, k := range []string{"escalaTrabalhoId", "departamentoId", "segmento", "estabelecimentoId"} {
		if form[k] == "" {
			continue
		}
		n, err := strconv.ParseInt(form[k], 10, 64)
		if err != nil {
			bad[k] = "deve ser um número inteiro"
			continue
		}
		body[k] = n
	}
	if len(bad) > 0 {
		return p.employeeFormWith(c, http.StatusBadRequest, form, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "dados inválidos", Fields: bad})
	}
	err := p.call(c, api.Call{Method: http.MethodPost, Path: "/funcionarios", Body: body}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.employeeFormWith(c, e.Status, form, e)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/funcionarios?ok=criado", http.StatusSeeOther)
}

func (p *Pages) deactivateEmployee(c *fiber.Ctx) error {
	err := p.call(c, api.Call{Method: http.MethodPatch, Path: "/funcionarios/" + c.Params("id"), Body: map[string]any{"ativo": false}}, nil)
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/funcionarios?ok=desativado", http.StatusSeeOther)
}

// listPage renders a "list and create" page: the list from path, and the
// form refilled with e when a create failed.
func (p *Pages) listPage(c *fiber.Ctx, status int, path, page, title, nav string, form map[string]string, e *api.Error) error {
	var out struct {
		Itens []record `json:"itens"`
		Ano   any      `json:"ano"`
	}
	if err := p.get(c, path, &out); err != nil {
		return p.fail(c, err)
	}
	v := view{Title: title, Nav: nav, Form: form, Err: e, Data: out}
	if ok := c.Query("ok"); ok != "" && e == nil {
		v.Msg = okMessages[ok]
	}
	return p.render(c, status, page, v)
}

// okMessages are the confirmations a redirect after a change may ask for.
var okMessages = map[string]string{
	"criado": "Cadastrado com sucesso.", "removido": "Removido.", "salvo": "Alterações salvas.",
	"incluida": "Marcação incluída.", "desconsiderar": "Marcação desconsiderada.", "reconsiderar": "Marcação reconsiderada.",
	"falta": "Falta registrada.", "aprovar": "Ajuste aprovado.", "reprovar": "Ajuste reprovado.",
	"falta-desfeita": "Falta desfeita.", "abono": "Abono registrado.", "abono-cancelado": "Abono cancelado.",
	"reaberto": "Período reaberto.", "solicitacao-aprovar": "Inclusão aprovada: a marcação foi incluída.",
	"solicitacao-reprovar":  "Pedido de inclusão reprovado.",
	"afastamento-cancelado": "Afastamento cancelado.", "documento": "Documento anexado.",
}

// create posts body to path and redirects back, or re-renders the list
// page with the API's error next to the fields.
func (p *Pages) create(c *fiber.Ctx, path string, body any, back string, form map[string]string, rerender func(int, *api.Error) error) error {
	err := p.call(c, api.Call{Method: http.MethodPost, Path: path, Body: body}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return rerender(e.Status, e)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect(back+"ok=criado", http.StatusSeeOther)
}

func (p *Pages) departments(c *fiber.Ctx) error {
	return p.listPage(c, http.StatusOK, "/departamentos?tamanho=100", "departamentos.html", "Departamentos", "departamentos", nil, nil)
}

func (p *Pages) createDepartment(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "nome", "segmentos")
	segs := []string{}
	for _, line := range strings.Split(form["segmentos"], "\n") {
		if s := strings.TrimSpace(line); s != "" {
			segs = append(segs, s)
		}
	}
	return p.create(c, "/departamentos", map[string]any{"nome": form["nome"], "segmentos": segs}, "/empresa/departamentos?", form,
		func(status int, e *api.Error) error {
			return p.listPage(c, status, "/departamentos?tamanho=100", "departamentos.html", "Departamentos", "departamentos", form, e)
		})
}

func (p *Pages) schedules(c *fiber.Ctx) error {
	return p.listPage(c, http.StatusOK, "/escalatrabalhos?tamanho=100", "escalas.html", "Escalas de trabalho", "escalas", map[string]string{"dias": "5"}, nil)
}

// createSchedule turns the form's clock times into the API's minutes after
// entrada, the same for each of the first `dias` weekdays.
func (p *Pages) createSchedule(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "nome", "entrada", "saidaAlmoco", "retornoAlmoco", "saida", "dias")
	rerender := func(status int, e *api.Error) error {
		return p.listPage(c, status, "/escalatrabalhos?tamanho=100", "escalas.html", "Escalas de trabalho", "escalas", form, e)
	}
	horario, bad := scheduleDay(form)
	dias, err := strconv.Atoi(form["dias"])
	if err != nil || dias < 1 || dias > 7 {
		bad["dias"] = "de 1 a 7 dias"
	}
	if len(bad) > 0 {
		return rerender(http.StatusBadRequest, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "dados inválidos", Fields: bad})
	}
	horarios := make([]map[string]any, dias)
	for i := range horarios {
		horarios[i] = horario
	}
	body := map[string]any{"empresaId": sess(c).EmpresaID, "nome": form["nome"], "horarios": horarios}
	return p.create(c, "/escalatrabalhos", body, "/empresa/escalas?", form, rerender)
}

// scheduleDay converts HH:MM fields to one `horarios` entry.
func scheduleDay(form map[string]string) (map[string]any, map[string]string) {
	bad := map[string]string{}
	start, err := time.Parse("15:04", form["entrada"])
	if err != nil {
		bad["entrada"] = "use HH:MM"
	}
	h := map[string]any{"entrada": form["entrada"]}
	for _, k := range []string{"saidaAlmoco", "retornoAlmoco", "saida"} {
		t, err := time.Parse("15:04", form[k])
		if err != nil {
			bad[k] = "use HH:MM"
			continue
		}
		after := int(t.Sub(start).Minutes())
		if after <= 0 {
			after += 24 * 60 // past midnight: a night shift
		}
		h[k] = after
	}
	return h, bad
}

func (p *Pages) workPlaces(c *fiber.Ctx) error {
	return p.listPage(c, http.StatusOK, "/registropontos/locais-trabalho", "locais.html", "Locais de trabalho", "locais", map[string]string{"raioMetros": "150"}, nil)
}

func (p *Pages) createWorkPlace(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "nome", "endereco", "latitude", "longitude", "raioMetros")
	body := map[string]any{"nome": form["nome"], "endereco": form["endereco"]}
	bad := map[string]string{}
	for _, k := range []string{"latitude", "longitude", "raioMetros"} {
		n, err := strconv.ParseFloat(strings.ReplaceAll(form[k], ",", "."), 64)
		if err != nil {
			bad[k] = "deve ser um número"
			continue
		}
		body[k] = n
	}
	rerender := func(status int, e *api.Error) error {
		return p.listPage(c, status, "/registropontos/locais-trabalho", "locais.html", "Locais de trabalho", "locais", form, e)
	}
	if len(bad) > 0 {
		return rerender(http.StatusBadRequest, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "dados inválidos", Fields: bad})
	}
	return p.create(c, "/registropontos/locais-trabalho", body, "/empresa/locais?", form, rerender)
}

func (p *Pages) removeWorkPlace(c *fiber.Ctx) error {
	return p.remove(c, "/registropontos/locais-trabalho/"+c.Params("id"), "/empresa/locais?ok=removido")
}

func (p *Pages) remove(c *fiber.Ctx, path, back string) error {
	if err := p.call(c, api.Call{Method: http.MethodDelete, Path: path}, nil); err != nil {
		return p.fail(c, err)
	}
	return c.Redirect(back, http.StatusSeeOther)
}

func (p *Pages) holidaysPath(c *fiber.Ctx) string {
	ano := c.QueryInt("ano", p.clock.Today(location(p.tz(c))).Year())
	return "/registropontos/feriados?ano=" + strconv.Itoa(ano)
}

func (p *Pages) holidays(c *fiber.Ctx) error {
	return p.listPage(c, http.StatusOK, p.holidaysPath(c), "feriados.html", "Feriados", "feriados", nil, nil)
}

func (p *Pages) createHoliday(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "data", "nome")
	return p.create(c, "/registropontos/feriados", form, "/empresa/feriados?ano="+firstN(form["data"], 4)+"&", form,
		func(status int, e *api.Error) error {
			return p.listPage(c, status, p.holidaysPath(c), "feriados.html", "Feriados", "feriados", form, e)
		})
}

func firstN(s string, n int) string {
	if len(s) < n {
		return s
	}
	return s[:n]
}

func (p *Pages) removeHoliday(c *fiber.Ctx) error {
	d := c.Params("data")
	if !isoDate.MatchString(d) {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "data inválida"})
	}
	return p.remove(c, "/registropontos/feriados/"+d, "/empresa/feriados?ano="+d[:4]+"&ok=removido")
}

// requestStatus is an inclusion request's status for an adjustment's.
var requestStatus = map[string]string{"pendente": "pendente", "aprovado": "aprovada", "reprovado": "reprovada"}

type adjustmentsView struct {
	Status       string
	Itens        []record
	Solicitacoes []record
	Nomes        map[string]string
	Fusos        map[string]string
}

// adjustments is the queue: pending requests first, with the employee's
// name beside each.
func (p *Pages) adjustments(c *fiber.Ctx) error {
	status := c.Query("status", "pendente")
	if status != "aprovado" && status != "reprovado" {
		status = "pendente"
	}
	var out page
	if err := p.get(c, "/registropontos/ajustes?tamanho=100&status="+status, &out); err != nil {
		return p.fail(c, err)
	}
	// The employees' requests to include a forgotten punch share the
	// queue; their statuses are the feminine forms (solicitação).
	var requests page
	if err := p.get(c, "/registropontos/solicitacoes?tamanho=100&status="+requestStatus[status], &requests); err != nil {
		return p.fail(c, err)
	}
	nomes, fusos, err := p.employeeNames(c, p.tz(c))
	if err != nil {
		return p.fail(c, err)
	}
	v := view{Title: "Ajustes e inclusões", Nav: "ajustes", Data: adjustmentsView{Status: status, Itens: out.Itens,
		Solicitacoes: requests.Itens, Nomes: nomes, Fusos: fusos}}
	v.Msg = okMessages[c.Query("ok")]
	return p.render(c, http.StatusOK, "ajustes.html", v)
}

// employeeNames answers each employee's name and time zone by id; the
// zone is the company's (tz) when the employee has none of his own. The
// queue shows each request's times in its employee's zone, as he asked.
func (p *Pages) employeeNames(c *fiber.Ctx, tz string) (names, zones map[string]string, err error) {
	list, err := p.all(c, "/funcionarios")
	names, zones = map[string]string{}, map[string]string{}
	for _, f := range list {
		id := str(f["id"])
		names[id], zones[id] = str(f["nome"]), tz
		if z := str(f["fusoHorario"]); z != "" {
			zones[id] = z
		}
	}
	return names, zones, err
}

func (p *Pages) decideAdjustment(c *fiber.Ctx) error {
	d := c.Params("decisao")
	if err := p.call(c, api.Call{Method: http.MethodPut, Path: "/registropontos/" + c.Params("id") + "/" + d}, nil); err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/ajustes?ok="+d, http.StatusSeeOther)
}

type reportView struct {
	Departamentos []record
	Relatorio     map[string]any
	CSV           string
}

// reportQuery is the report's period and department from the query.
func reportQuery(c *fiber.Ctx) (map[string]string, url.Values) {
	form := formValues(c.Query, "departamento", "inicio", "fim")
	q := url.Values{}
	for _, k := range []string{"inicio", "fim"} {
		if isoDate.MatchString(form[k]) {
			q.Set(k, form[k])
		}
	}
	return form, q
}

func (p *Pages) report(c *fiber.Ctx) error {
	form, q := reportQuery(c)
	deps, err := p.all(c, "/departamentos")
	if err != nil {
		return p.fail(c, err)
	}
	v := view{Title: "Relatório por departamento", Nav: "relatorio", Form: form}
	data := reportView{Departamentos: deps}
	if form["departamento"] != "" {
		q.Set("tamanho", "100")
		var rel map[string]any
		err := p.get(c, "/registropontos/departamento/"+url.PathEscape(form["departamento"])+"?"+q.Encode(), &rel)
		if e, ok := api.AsError(err); ok && e.Status < 500 {
			v.Err = e
		} else if err != nil {
			return p.fail(c, err)
		}
		data.Relatorio = rel
		q.Del("tamanho")
		q.Set("departamento", form["departamento"])
		data.CSV = "/empresa/relatorio.csv?" + q.Encode()
	}
	v.Data = data
	return p.render(c, http.StatusOK, "relatorio.html", v)
}

func (p *Pages) reportCSV(c *fiber.Ctx) error {
	form, q := reportQuery(c)
	q.Set("formato", "csv")
	return p.stream(c, "/registropontos/departamento/"+url.PathEscape(form["departamento"])+"?"+q.Encode())
}

// timesheets lets the company pick an employee and a month.
func (p *Pages) timesheets(c *fiber.Ctx) error {
	list, err := p.all(c, "/funcionarios")
	if err != nil {
		return p.fail(c, err)
	}
	id, _ := strconv.ParseInt(c.Query("funcionario"), 10, 64)
	if id <= 0 {
		mes, _ := p.month(c)
		return p.render(c, http.StatusOK, "espelhos.html", view{Title: "Espelhos de ponto", Nav: "espelhos",
			Data: timesheetView{Mes: mes, Funcionarios: list}})
	}
	mes, _ := p.month(c)
	var sheet map[string]any
	if err := p.get(c, fmt.Sprintf("/registropontos/funcionario/%d/espelho?mes=%s", id, mes), &sheet); err != nil {
		return p.fail(c, err)
	}
	return p.render(c, http.StatusOK, "espelhos.html", view{Title: "Espelhos de ponto", Nav: "espelhos", Data: timesheetView{
		Mes: mes, Funcionarios: list, FuncionarioID: strconv.FormatInt(id, 10), Sheet: sheet, TZ: str(sheet["fusoHorario"]), Tratar: true,
		PDF: fmt.Sprintf("/empresa/espelho.pdf?mes=%s&funcionario=%d", mes, id),
	}})
}

func (p *Pages) timesheetPDF(c *fiber.Ctx) error {
	id, err := strconv.ParseInt(c.Query("funcionario"), 10, 64)
	if err != nil || id <= 0 {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "escolha um funcionário"})
	}
	mes, _ := p.month(c)
	return p.stream(c, fmt.Sprintf("/registropontos/funcionario/%d/espelho?formato=pdf&mes=%s", id, mes))
}

func (p *Pages) afdForm(c *fiber.Ctx) error {
	return p.render(c, http.StatusOK, "afd.html", view{Title: "AFD e AEJ", Nav: "afd"})
}

// afd and aej pass the period through, and formato=zip for the file with
// its detached CAdES signature (the API answers 409 without a certificate).
func (p *Pages) afd(c *fiber.Ctx) error { return p.legalFile(c, "/registropontos/afd?") }

func (p *Pages) aej(c *fiber.Ctx) error { return p.legalFile(c, "/registropontos/aej?") }

func (p *Pages) legalFile(c *fiber.Ctx, path string) error {
	_, q := reportQuery(c)
	if c.Query("formato") == "zip" {
		q.Set("formato", "zip")
	}
	return p.stream(c, path+q.Encode())
}

func (p *Pages) closings(c *fiber.Ctx) error {
	return p.listPage(c, http.StatusOK, "/registropontos/fechamentos?tamanho=100", "fechamentos.html", "Fechamentos de período", "fechamentos", nil, nil)
}

// closePeriod closes inicio..fim: no treatment may touch it until reopened,
// and employees may then acknowledge their timesheets of its months.
func (p *Pages) closePeriod(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "inicio", "fim")
	return p.create(c, "/registropontos/fechamentos", form, "/empresa/fechamentos?", form, func(status int, e *api.Error) error {
		return p.listPage(c, status, "/registropontos/fechamentos?tamanho=100", "fechamentos.html", "Fechamentos de período", "fechamentos", form, e)
	})
}

// settings shows the company's record and lets it change its time zone
// (PATCH /empresas/me), which decides its workdays and local times.
func (p *Pages) settings(c *fiber.Ctx) error {
	return p.settingsWith(c, http.StatusOK, nil, okMessages[c.Query("ok")])
}

func (p *Pages) settingsWith(c *fiber.Ctx, status int, e *api.Error, msg string) error {
	var me map[string]any
	if err := p.get(c, "/empresas/me", &me); err != nil {
		return p.fail(c, err)
	}
	form := map[string]string{"fusoHorario": str(me["fusoHorario"])}
	if e != nil {
		form["fusoHorario"] = c.FormValue("fusoHorario")
	}
	return p.render(c, status, "configuracoes.html", view{Title: "Dados da empresa", Nav: "painel", Data: me, Form: form, Err: e, Msg: msg})
}

func (p *Pages) saveSettings(c *fiber.Ctx) error {
	tz := strings.TrimSpace(c.FormValue("fusoHorario"))
	var me struct {
		FusoHorario string `json:"fusoHorario"`
	}
	err := p.call(c, api.Call{Method: http.MethodPatch, Path: "/empresas/me", Body: map[string]string{"fusoHorario": tz}}, &me)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.settingsWith(c, e.Status, e, "")
	}
	if err != nil {
		return p.fail(c, err)
	}
	if me.FusoHorario != "" {
		sess(c).TZ = me.FusoHorario
	}
	return c.Redirect("/empresa/configuracoes?ok=salvo", http.StatusSeeOther)
}
