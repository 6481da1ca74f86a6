package pages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/web/internal/api"
	"github.com/ponto/ponto/services/web/internal/session"
)

// coletor is the collector code the web client punches with: "02" (a
// browser), as the AFD's type-7 record distinguishes it from the app.
const coletor = "02"

// maxPhotoBytes is the API's photo limit; a larger upload is refused here
// before it is sent on.
const maxPhotoBytes = 5 << 20

func (p *Pages) employeeRoutes(app *fiber.App) {
	app.Get("/funcionario/entrar", p.employeeLoginForm)
	app.Post("/funcionario/codigo", p.employeeAskCode)
	app.Post("/funcionario/entrar", p.employeeLogin)
	g := app.Group("/ponto", requireRole(session.RoleFuncionario, "/funcionario/entrar"))
	g.Get("/", p.clockPage)
	g.Post("/registrar", p.punch)
	g.Post("/dispositivos", p.registerDevice)
	g.Post("/offline", p.sendOffline)
	g.Post("/dispositivos/:id<int>/revogar", p.revokeDevice)
	g.Get("/comprovante/:id<int>", p.receiptPDF)
	g.Get("/registros", p.myRecords)
	g.Get("/ajuste/:id<int>", p.adjustForm)
	g.Post("/ajuste/:id<int>", p.askAdjustment)
	g.Get("/esquecida", p.forgottenForm)
	g.Post("/esquecida", p.askInclusion)
	g.Get("/perfil", p.profile)
	g.Get("/lembretes", p.myReminders)
	g.Post("/lembretes", p.setMyReminders)
	g.Post("/foto", p.uploadPhoto)
	g.Get("/foto", p.photo)
	g.Get("/espelho", p.myTimesheet)
	g.Get("/espelho.pdf", p.myTimesheetPDF)
	g.Post("/espelho/ciencia", p.acknowledge)
	g.Get("/banco-horas", p.myHourBank)
	g.Get("/afastamentos", p.myLeaves)
	g.Get("/afastamentos/:id<int>/documento", p.leaveDoc)
}

func (p *Pages) employeeLoginForm(c *fiber.Ctx) error {
	return p.loginForm(c, "funcionario-entrar.html", "Entrar — funcionário")
}

// employeeAskCode asks the API to e-mail a login code; the API answers
// the same for any well-formed e-mail, so the page does too.
func (p *Pages) employeeAskCode(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "email")
	err := p.anon(c, api.Call{Method: http.MethodPost, Path: "/auth/login/funcionario/codigo", Body: form}, nil)
	if err != nil {
		return p.formError(c, "funcionario-entrar.html", "Entrar — funcionário", form, err)
	}
	return p.render(c, http.StatusOK, "funcionario-codigo.html", view{Title: "Código de acesso", Form: form,
		Msg: "Se o e-mail for de um funcionário ativo, enviamos um código de 6 dígitos para ele."})
}

// loginAnswer is the API's login answer, for companies and employees.
type loginAnswer struct {
	Token        string `json:"token"`
	RefreshToken string `json:"refreshToken"`
	User         struct {
		ID          json.Number `json:"id"`
		EmpresaID   json.Number `json:"empresaId"`
		Nome        string      `json:"nome"`
		Role        string      `json:"role"`
		FusoHorario string      `json:"fusoHorario"`
	} `json:"user"`
}

func (p *Pages) employeeLogin(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "email", "codeVerify")
	var out loginAnswer
	err := p.anon(c, api.Call{Method: http.MethodPost, Path: "/auth/login/funcionario", Body: form}, &out)
	if err != nil {
		return p.formError(c, "funcionario-codigo.html", "Código de acesso", form, err)
	}
	id, _ := out.User.ID.Int64()
	empresa, _ := out.User.EmpresaID.Int64()
	s := p.codec.New()
	s.Role, s.Token, s.Refresh = session.RoleFuncionario, out.Token, out.RefreshToken
	s.FuncionarioID, s.EmpresaID, s.Nome, s.TZ = id, empresa, out.User.Nome, out.User.FusoHorario
	*sess(c) = *s
	if sess(c).TZ == "" {
		sess(c).TZ = p.timesheetTZ(c)
	}
	return c.Redirect("/ponto", http.StatusSeeOther)
}

// timesheetTZ is the employee's time zone as his timesheet states it, for
// an API whose login answer does not carry fusoHorario.
func (p *Pages) timesheetTZ(c *fiber.Ctx) string {
	var out struct {
		FusoHorario string `json:"fusoHorario"`
	}
	path := fmt.Sprintf("/registropontos/funcionario/%d/espelho", sess(c).FuncionarioID)
	if err := p.get(c, path, &out); err != nil || out.FusoHorario == "" {
		return p.cfg.DefaultTZ
	}
	return out.FusoHorario
}

// anon calls the API without the session's token (logins, registration).
func (p *Pages) anon(c *fiber.Ctx, call api.Call, out any) error {
	call.ClientIP, call.RequestID = httpserver.ClientIP(c), httpserver.RequestID(c)
	return p.api.Do(c.UserContext(), nil, call, out)
}

// formError re-renders a form with the API's error next to its fields;
// anything that is not an API answer goes to the error page.
func (p *Pages) formError(c *fiber.Ctx, page, title string, form map[string]string, err error) error {
	e, ok := api.AsError(err)
	if !ok || e.Status >= 500 && wantsJSON(c) {
		return p.fail(c, err)
	}
	return p.render(c, e.Status, page, view{Title: title, Form: form, Err: e})
}

// record is one time record as the API writes it.
type record = map[string]any

type page struct {
	Itens []record    `json:"itens"`
	Total json.Number `json:"total"`
}

// sequence is the workday's punch order (timekeeping's rule: after saída
// it starts again with entrada).
var sequence = [...]string{"entrada", "almoço", "retorno almoço", "saída"}

// nextTipo is the tipo the next punch will get, from the workday's punches.
func nextTipo(records []record) string {
	n := 0
	for _, r := range records {
		if str(r["tipo"]) != "falta" {
			n++
		}
	}
	return sequence[n%len(sequence)]
}

func (p *Pages) today(c *fiber.Ctx) string {
	return p.clock.Today(location(p.tz(c))).Format(clock.DateFormat)
}

func (p *Pages) tz(c *fiber.Ctx) string {
	if tz := sess(c).TZ; tz != "" {
		return tz
	}
	return p.cfg.DefaultTZ
}

// clockView is the punch page.
type clockView struct {
	TZ          string
	Hoje        []record
	ProximoTipo string
	Chave       string
	Semana      weekView
}

func (p *Pages) clockPage(c *fiber.Ctx) error {
	var today page
	d := p.today(c)
	if err := p.get(c, "/registropontos/me?inicio="+d+"&fim="+d+"&tamanho=100", &today); err != nil {
		return p.fail(c, err)
	}
	semana, err := p.week(c, sess(c).FuncionarioID, p.clock.Today(location(p.tz(c))))
	if err != nil {
		return p.fail(c, err)
	}
	return p.render(c, http.StatusOK, "ponto.html", view{Title: "Registrar ponto", Nav: "ponto", Data: clockView{
		TZ: p.tz(c), Hoje: today.Itens, ProximoTipo: nextTipo(today.Itens), Chave: session.RandomToken(), Semana: semana,
	}})
}

// receipt is what the page shows after a punch.
type receipt struct {
	ID          string `json:"id"`
	NSR         string `json:"nsr"`
	Tipo        string `json:"tipo"`
	Data        string `json:"data"`
	Hora        string `json:"hora"`
	Hash        string `json:"hash"`
	Comprovante string `json:"comprovante"`
	Localizacao string `json:"localizacao"`
}

// punch registers a punch. The page's script sends the position (empty
// when the browser gave none) and an Idempotency-Key it keeps across
// retries, so a retry after a network failure never punches twice.
func (p *Pages) punch(c *fiber.Ctx) error {
	key := c.FormValue("chave")
	if !validate.IdempotencyKey(key) { // what timekeeping accepts
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "chave de idempotência inválida; recarregue a página",
			Fields: map[string]string{"chave": validate.IdempotencyKeyMessage}})
	}
	body := map[string]any{"funcionarioId": sess(c).FuncionarioID, "coletor": coletor}
	pos := strings.TrimSpace(c.FormValue("endereco"))
	if pos != "" {
		body["endereco"] = pos
	}
	var rec record
	err := p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos", Body: body,
		Header: http.Header{"Idempotency-Key": {key}}}, &rec)
	if e, ok := api.AsError(err); ok && pos == "" && e.Field("endereco") != "" {
		// The API wants a position this browser did not give: say what to do.
		return p.errorPage(c, &api.Error{Status: e.Status, Code: e.Code, Fields: e.Fields,
			Message: "O ponto não foi registrado sem a sua localização. Permita o acesso à localização no navegador e tente novamente."})
	}
	if err != nil {
		return p.fail(c, err)
	}
	r := receipt{ID: str(rec["id"]), NSR: str(rec["nsr"]), Tipo: str(rec["tipo"]), Data: dateBR(rec["data"]),
		Hora: localClock(rec["horarioRegistro"], p.tz(c)), Hash: str(rec["hash"]), Localizacao: str(rec["localizacao"])}
	r.Comprovante = "/ponto/comprovante/" + r.ID
	earlier, _ := rec["funcionario"].(map[string]any)
	done, _ := earlier["registrosPonto"].([]any)
	next := sequence[(len(done)+1)%len(sequence)]
	if wantsJSON(c) {
		return c.JSON(fiber.Map{"registro": r, "proximoTipo": next, "novaChave": session.RandomToken()})
	}
	return p.render(c, http.StatusOK, "recibo.html", view{Title: "Ponto registrado", Nav: "ponto", Data: r})
}

func (p *Pages) receiptPDF(c *fiber.Ctx) error {
	return p.stream(c, "/registropontos/"+c.Params("id")+"/comprovante")
}

// month reads ?mes=YYYY-MM, defaulting to the current month in tz.
func (p *Pages) month(c *fiber.Ctx) (string, time.Time) {
	loc := location(p.tz(c))
	if m, err := time.ParseInLocation("2006-01", c.Query("mes"), loc); err == nil {
		return m.Format("2006-01"), m
	}
	now := p.clock.Now().In(loc)
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
	return first.Format("2006-01"), first
}

type recordsView struct {
	TZ       string
	Mes      string
	Anterior string
	Itens    []record
	Total    string
}

func (p *Pages) myRecords(c *fiber.Ctx) error {
	mes, first := p.month(c)
	last := first.AddDate(0, 1, -1)
	var out page
	q := url.Values{"inicio": {first.Format("2006-01-02")}, "fim": {last.Format("2006-01-02")}, "tamanho": {"100"}}
	if err := p.get(c, "/registropontos/me?"+q.Encode(), &out); err != nil {
		return p.fail(c, err)
	}
	v := view{Title: "Meus registros", Nav: "registros", Data: recordsView{
		TZ: p.tz(c), Mes: mes, Anterior: first.AddDate(0, -1, 0).Format("2006-01"), Itens: out.Itens, Total: out.Total.String(),
	}}
	switch c.Query("ok") {
	case "ajuste":
		v.Msg = "Pedido de ajuste enviado. A empresa vai analisar."
	case "solicitacao":
		v.Msg = "Pedido de inclusão enviado. A empresa vai analisar."
	}
	return p.render(c, http.StatusOK, "registros.html", v)
}

var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

type adjustView struct {
	ID   string
	Data string
}

func (p *Pages) adjustForm(c *fiber.Ctx) error {
	data := c.Query("data")
	if !isoDate.MatchString(data) {
		data = p.today(c)
	}
	return p.render(c, http.StatusOK, "ajuste.html", view{Title: "Solicitar ajuste", Nav: "registros",
		Data: adjustView{ID: c.Params("id"), Data: data}, Form: map[string]string{"data": data}})
}

// askAdjustment sends the time the punch should have had, entered as the
// employee's local date and time, to the API as UTC.
func (p *Pages) askAdjustment(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "data", "hora", "motivo")
	v := adjustView{ID: c.Params("id"), Data: form["data"]}
	at, err := time.ParseInLocation("2006-01-02 15:04", form["data"]+" "+form["hora"], location(p.tz(c)))
	if err != nil {
		return p.render(c, http.StatusBadRequest, "ajuste.html", view{Title: "Solicitar ajuste", Nav: "registros", Data: v, Form: form,
			Err: &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "dados inválidos",
				Fields: map[string]string{"dataSolicitar": "informe a data e a hora corretas (HH:MM)"}}})
	}
	body := map[string]any{"dataSolicitar": clock.FormatISO(at),
		"funcionarioId": sess(c).FuncionarioID, "motivo": form["motivo"]}
	err = p.call(c, api.Call{Method: http.MethodPut, Path: "/registropontos/solicitar/" + c.Params("id"), Body: body}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.render(c, e.Status, "ajuste.html", view{Title: "Solicitar ajuste", Nav: "registros", Data: v, Form: form, Err: e})
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/ponto/registros?mes="+form["data"][:7]+"&ok=ajuste", http.StatusSeeOther)
}

func (p *Pages) profile(c *fiber.Ctx) error {
	var f map[string]any
	if err := p.get(c, fmt.Sprintf("/funcionarios/%d", sess(c).FuncionarioID), &f); err != nil {
		return p.fail(c, err)
	}
	// The devices that punch off-line: listed to be revoked (a lost phone).
	var devices struct{ Itens []map[string]any }
	if err := p.get(c, "/registropontos/dispositivos", &devices); err != nil {
		return p.fail(c, err)
	}
	var ativos []map[string]any
	for _, d := range devices.Itens {
		if d["revogadoEm"] == nil {
			ativos = append(ativos, d)
		}
	}
	f["dispositivos"] = ativos
	v := view{Title: "Meu perfil", Nav: "perfil", Data: f}
	switch c.Query("ok") {
	case "foto":
		v.Msg = "Foto atualizada."
	case "dispositivo":
		v.Msg = "Aparelho revogado: as marcações off-line dele não serão mais aceitas."
	}
	return p.render(c, http.StatusOK, "perfil.html", v)
}

// uploadPhoto sends the file on to the API as the multipart part "foto";
// the API checks the content (type, size, pixels) and answers in pt-BR.
func (p *Pages) uploadPhoto(c *fiber.Ctx) error {
	fh, err := c.FormFile("foto")
	if err != nil || fh.Size == 0 {
		return p.photoError(c, "escolha uma foto (JPEG, PNG ou WebP)")
	}
	if fh.Size > maxPhotoBytes {
		return p.photoError(c, "a foto deve ter no máximo 5 MiB")
	}
	f, err := fh.Open()
	if err != nil {
		return p.fail(c, err)
	}
	defer f.Close()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="foto"; filename="foto"`)
	h.Set("Content-Type", fh.Header.Get("Content-Type"))
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = io.Copy(part, io.LimitReader(f, maxPhotoBytes))
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return p.fail(c, err)
	}
	err = p.call(c, api.Call{Method: http.MethodPost, Path: fmt.Sprintf("/funcionarios/%d/foto", sess(c).FuncionarioID),
		Body: &api.Raw{ContentType: w.FormDataContentType(), Data: body.Bytes()}}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.photoError(c, e.Message)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/ponto/perfil?ok=foto", http.StatusSeeOther)
}

func (p *Pages) photoError(c *fiber.Ctx, msg string) error {
	var f map[string]any
	if err := p.get(c, fmt.Sprintf("/funcionarios/%d", sess(c).FuncionarioID), &f); err != nil {
		return p.fail(c, err)
	}
	return p.render(c, http.StatusBadRequest, "perfil.html", view{Title: "Meu perfil", Nav: "perfil", Data: f,
		Err: &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: msg, Fields: map[string]string{"foto": msg}}})
}

func (p *Pages) photo(c *fiber.Ctx) error {
	q := ""
	if c.Query("tamanho") == "thumb" {
		q = "?tamanho=thumb"
	}
	return p.stream(c, fmt.Sprintf("/funcionarios/%d/foto%s", sess(c).FuncionarioID, q))
}

func (p *Pages) myTimesheet(c *fiber.Ctx) error {
	return p.timesheet(c, sess(c).FuncionarioID, "espelho.html", "/ponto/espelho.pdf", "espelho")
}

func (p *Pages) myTimesheetPDF(c *fiber.Ctx) error {
	mes, _ := p.month(c)
	return p.stream(c, fmt.Sprintf("/registropontos/funcionario/%d/espelho?formato=pdf&mes=%s", sess(c).FuncionarioID, mes))
}

type timesheetView struct {
	Mes   string
	PDF   string
	TZ    string
	Sheet map[string]any
	// Funcionarios is the company's picker, Tratar links each day to its
	// treatment (company side only).
	Funcionarios  []record
	FuncionarioID string
	Tratar        bool
}

// timesheet renders one employee's month; the employee sees his own, the
// company any of its employees' (the API refuses another's with 404).
func (p *Pages) timesheet(c *fiber.Ctx, id int64, page, pdf, nav string) error {
	msg := ""
	if c.Query("ok") == "ciencia" {
		msg = "Ciência registrada."
	}
	return p.timesheetWith(c, id, page, pdf, nav, http.StatusOK, nil, msg)
}

func (p *Pages) timesheetWith(c *fiber.Ctx, id int64, page, pdf, nav string, status int, e *api.Error, msg string) error {
	mes, _ := p.month(c)
	var sheet map[string]any
	if err := p.get(c, fmt.Sprintf("/registropontos/funcionario/%d/espelho?mes=%s", id, mes), &sheet); err != nil {
		return p.fail(c, err)
	}
	tz := str(sheet["fusoHorario"])
	return p.render(c, status, page, view{Title: "Espelho de ponto", Nav: nav, Err: e, Msg: msg, Data: timesheetView{
		Mes: mes, PDF: pdf + "?mes=" + mes + "&funcionario=" + strconv.FormatInt(id, 10), TZ: tz, Sheet: sheet,
		FuncionarioID: strconv.FormatInt(id, 10),
	}})
}

// acknowledge records the employee's acknowledgement of a closed month's
// timesheet; a month the company has not closed is the API's 409, shown.
func (p *Pages) acknowledge(c *fiber.Ctx) error {
	mes, _ := p.month(c)
	path := fmt.Sprintf("/registropontos/funcionario/%d/espelho/ciencia?mes=%s", sess(c).FuncionarioID, url.QueryEscape(mes))
	err := p.call(c, api.Call{Method: http.MethodPut, Path: path}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.timesheetWith(c, sess(c).FuncionarioID, "espelho.html", "/ponto/espelho.pdf", "espelho", e.Status, e, "")
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/ponto/espelho?mes="+url.QueryEscape(mes)+"&ok=ciencia", http.StatusSeeOther)
}
