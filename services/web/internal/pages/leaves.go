package pages

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// Leaves (afastamentos, férias included): the company records, lists and
// cancels an employee's, attaches a document, and sees the month's leaves
// of a department; the employee sees his own. The API holds the rules.

// leaveKinds name the leave kinds for people, in the API's order.
var leaveKinds = []struct{ Tipo, Nome string }{
	{"ferias", "Férias"}, {"doenca", "Doença (atestado; INSS a partir do 16º dia)"},
	{"acidente_trabalho", "Acidente de trabalho"}, {"maternidade", "Licença-maternidade"},
	{"paternidade", "Licença-paternidade"}, {"casamento", "Casamento (gala)"}, {"falecimento", "Falecimento (nojo)"},
	{"doacao_sangue", "Doação de sangue"}, {"servico_militar", "Serviço militar"},
	{"suspensao", "Suspensão disciplinar"}, {"nao_remunerada", "Licença não remunerada"}, {"outro", "Outro"},
}

func leaveKind(tipo any) string {
	for _, k := range leaveKinds {
		if k.Tipo == str(tipo) {
			return k.Nome
		}
	}
	return str(tipo)
}

// maxLeaveDocBytes is the API's limit of a leave's document.
const maxLeaveDocBytes = 3 << 20

type leavesView struct {
	Funcionarios  []record
	Departamentos []record
	FuncionarioID string
	Departamento  string
	Nome          string
	Mes           string
	// Itens are the employee's leaves (FuncionarioID set) or the month's
	// of the department, each with its employee's nome.
	Itens []record
	Tipos []struct{ Tipo, Nome string }
	// NovoForm and NovoErr refill the new leave's form after the API
	// refused it (a row's form uses the view's Form and Err).
	NovoForm map[string]string
	NovoErr  *api.Error
}

func (p *Pages) leaveRoutes(g fiber.Router) {
	g.Get("/afastamentos", p.leaves)
	g.Post("/afastamentos", p.createLeave)
	g.Post("/afastamentos/:id<int>/cancelar", p.cancelLeave)
	g.Post("/afastamentos/:id<int>/documento", p.uploadLeaveDoc)
	g.Get("/afastamentos/:id<int>/documento", p.leaveDoc)
}

func (p *Pages) leaves(c *fiber.Ctx) error {
	return p.leavesWith(c, http.StatusOK, c.Query("funcionario"), nil, nil, okMessages[c.Query("ok")])
}

// leavesWith renders the page: one employee's leaves and the forms when
// funcionario is set, else the month's leaves of the chosen department.
func (p *Pages) leavesWith(c *fiber.Ctx, status int, funcionario string, form map[string]string, e *api.Error, msg string) error {
	list, err := p.all(c, "/funcionarios")
	if err != nil {
		return p.fail(c, err)
	}
	deps, err := p.all(c, "/departamentos")
	if err != nil {
		return p.fail(c, err)
	}
	mes, first := p.month(c)
	v := leavesView{Funcionarios: list, Departamentos: deps, Mes: mes, Departamento: c.Query("departamento"), Tipos: leaveKinds,
		NovoForm: map[string]string{}}
	if form != nil && form["form"] == "" {
		v.NovoForm, v.NovoErr = form, e
	}
	names := map[string]record{}
	for _, f := range list {
		names[str(f["id"])] = f
	}
	var out struct {
		Itens []record `json:"itens"`
	}
	if id, _ := strconv.ParseInt(funcionario, 10, 64); id > 0 {
		v.FuncionarioID, v.Nome = strconv.FormatInt(id, 10), str(names[strconv.FormatInt(id, 10)]["nome"])
		if err := p.get(c, fmt.Sprintf("/registropontos/funcionario/%d/afastamentos", id), &out); err != nil {
			return p.fail(c, err)
		}
		v.Itens = out.Itens
	} else {
		q := url.Values{"inicio": {first.Format("2006-01-02")}, "fim": {first.AddDate(0, 1, -1).Format("2006-01-02")}}
		if err := p.get(c, "/registropontos/afastamentos?"+q.Encode(), &out); err != nil {
			return p.fail(c, err)
		}
		for _, a := range out.Itens {
			f := names[str(a["funcionarioId"])]
			if v.Departamento != "" && str(f["departamentoId"]) != v.Departamento {
				continue
			}
			a["nome"] = f["nome"]
			v.Itens = append(v.Itens, a)
		}
	}
	return p.render(c, status, "afastamentos.html", view{Title: "Afastamentos e férias", Nav: "afastamentos", Data: v,
		Form: form, Err: e, Msg: msg})
}

// createLeave records the form's leave for the employee it names.
func (p *Pages) createLeave(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "funcionario", "tipo", "inicio", "fim", "motivo")
	id, _ := strconv.ParseInt(form["funcionario"], 10, 64)
	body := map[string]string{"tipo": form["tipo"], "inicio": form["inicio"], "fim": form["fim"], "motivo": form["motivo"]}
	return p.create(c, fmt.Sprintf("/registropontos/funcionario/%d/afastamentos", id), body,
		"/empresa/afastamentos?funcionario="+strconv.FormatInt(id, 10)+"&", form, func(status int, e *api.Error) error {
			return p.leavesWith(c, status, form["funcionario"], form, e, "")
		})
}

func (p *Pages) cancelLeave(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "funcionario", "motivo")
	err := p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos/afastamentos/" + c.Params("id") + "/cancelar",
		Body: map[string]string{"motivo": form["motivo"]}}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.leavesWith(c, e.Status, form["funcionario"],
			map[string]string{"form": "cancelar-" + c.Params("id"), "motivo": form["motivo"]}, e, "")
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/afastamentos?ok=afastamento-cancelado&funcionario="+url.QueryEscape(form["funcionario"]), http.StatusSeeOther)
}

// uploadLeaveDoc sends the file on to the API as the part "documento";
// the API checks its type by the bytes and its size.
func (p *Pages) uploadLeaveDoc(c *fiber.Ctx) error {
	funcionario := c.FormValue("funcionario")
	fail := func(status int, msg string) error {
		return p.leavesWith(c, status, funcionario, map[string]string{"form": "documento-" + c.Params("id")},
			&api.Error{Status: status, Code: "validacao", Message: msg, Fields: map[string]string{"documento": msg}}, "")
	}
	fh, err := c.FormFile("documento")
	if err != nil || fh.Size == 0 {
		return fail(http.StatusBadRequest, "escolha um arquivo PDF, JPEG ou PNG")
	}
	if fh.Size > maxLeaveDocBytes {
		return fail(http.StatusRequestEntityTooLarge, "o documento deve ter no máximo 3 MiB")
	}
	f, err := fh.Open()
	if err != nil {
		return p.fail(c, err)
	}
	defer f.Close()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="documento"; filename="documento"`)
	h.Set("Content-Type", "application/octet-stream")
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = io.Copy(part, io.LimitReader(f, maxLeaveDocBytes))
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return p.fail(c, err)
	}
	err = p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos/afastamentos/" + c.Params("id") + "/documento",
		Body: &api.Raw{ContentType: w.FormDataContentType(), Data: body.Bytes()}}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return fail(e.Status, e.Message)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/afastamentos?ok=documento&funcionario="+url.QueryEscape(funcionario), http.StatusSeeOther)
}

func (p *Pages) leaveDoc(c *fiber.Ctx) error {
	return p.stream(c, "/registropontos/afastamentos/"+c.Params("id")+"/documento")
}

// myLeaves is the employee's own leaves.
func (p *Pages) myLeaves(c *fiber.Ctx) error {
	var out struct {
		Itens []record `json:"itens"`
	}
	if err := p.get(c, fmt.Sprintf("/registropontos/funcionario/%d/afastamentos", sess(c).FuncionarioID), &out); err != nil {
		return p.fail(c, err)
	}
	return p.render(c, http.StatusOK, "meus-afastamentos.html", view{Title: "Meus afastamentos", Nav: "afastamentos",
		Data: leavesView{Itens: out.Itens}})
}
