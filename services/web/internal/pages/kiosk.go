package pages

import (
	"encoding/json"
	"html/template"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/services/web/internal/api"
	"github.com/ponto/ponto/services/web/internal/session"
)

// The shared kiosk (coletor compartilhado): the kiosk's own page, which
// holds the kiosk's credential in the browser and relays its calls; the
// company's page that registers and revokes kiosks, prints badges and
// resets PINs; and the employee's page that sets his PIN.

// kioskHeader carries the kiosk's credential from its page to the relays.
const kioskHeader = "X-Quiosque-Credencial"

// maxKioskBody bounds a relayed kiosk request (a CPF and PIN, or a badge).
const maxKioskBody = 4 << 10

// maxKioskBatch bounds a relayed batch of off-line punches (up to 100).
const maxKioskBatch = 64 << 10

func (p *Pages) kioskRoutes(app *fiber.App) {
	app.Get("/quiosque", p.kioskPage)
	app.Get("/quiosque/estado", p.kioskRelay(http.MethodGet, "/registropontos/quiosque"))
	app.Post("/quiosque/identificar", p.kioskRelay(http.MethodPost, "/registropontos/quiosque/identificar"))
	app.Post("/quiosque/marcar", p.kioskRelay(http.MethodPost, "/registropontos/quiosque/marcar"))
	app.Put("/quiosque/chave", p.kioskRelay(http.MethodPut, "/registropontos/quiosque/chave"))
	app.Post("/quiosque/offline", p.kioskRelaySized(http.MethodPost, "/registropontos/quiosque/offline", maxKioskBatch))
	company := requireRole(session.RoleEmpresa, "/empresa/entrar")
	app.Get("/empresa/quiosques", company, p.kiosks)
	app.Post("/empresa/quiosques", company, p.createKiosk)
	app.Post("/empresa/quiosques/:id<int>/revogar", company, p.revokeKiosk)
	app.Post("/empresa/quiosques/cracha", company, p.printBadge)
	app.Post("/empresa/quiosques/pin", company, p.resetPIN)
	employee := requireRole(session.RoleFuncionario, "/funcionario/entrar")
	app.Get("/ponto/pin", employee, p.pinForm)
	app.Post("/ponto/pin", employee, p.setPIN)
}

// withImagesAndCamera lets a page show the API's QR codes (data: URLs)
// and, for the kiosk, use the camera to read badges.
func withImagesAndCamera(c *fiber.Ctx, camera bool) {
	c.Set("Content-Security-Policy", strings.Replace(contentSecurityPolicy, "img-src 'self'", "img-src 'self' data:", 1))
	if camera {
		c.Set("Permissions-Policy", "geolocation=(self), camera=(self), microphone=(), payment=()")
	}
}

// kioskPage is GET /quiosque: the kiosk (quiosque.js does the rest).
func (p *Pages) kioskPage(c *fiber.Ctx) error {
	withImagesAndCamera(c, true)
	return p.render(c, http.StatusOK, "quiosque.html", view{Title: "Quiosque de ponto"})
}

// kioskRelay passes the kiosk page's call on to the API with the kiosk's
// credential (never a user's token) and answers the API's JSON as is.
func (p *Pages) kioskRelay(method, path string) fiber.Handler {
	return p.kioskRelaySized(method, path, maxKioskBody)
}

// kioskRelaySized is kioskRelay for bodies up to maxBody bytes.
func (p *Pages) kioskRelaySized(method, path string, maxBody int) fiber.Handler {
	return func(c *fiber.Ctx) error {
		cred := strings.TrimSpace(c.Get(kioskHeader))
		if cred == "" || len(cred) > 100 || len(c.Body()) > maxBody {
			return c.Status(http.StatusUnauthorized).JSON(&api.Error{Code: "quiosque_invalido",
				Message: "este aparelho não está cadastrado como quiosque"})
		}
		call := api.Call{Method: method, Path: path, Header: http.Header{"Authorization": {"Bearer " + cred}},
			ClientIP: httpserver.ClientIP(c), RequestID: httpserver.RequestID(c)}
		if method == http.MethodPost || method == http.MethodPut {
			call.Body = &api.Raw{ContentType: fiber.MIMEApplicationJSON, Data: append([]byte(nil), c.Body()...)}
		}
		if key := c.Get("Idempotency-Key"); key != "" {
			call.Header.Set("Idempotency-Key", key)
		}
		var out json.RawMessage
		if err := p.api.Do(c.UserContext(), nil, call, &out); err != nil {
			e, ok := api.AsError(err)
			if !ok {
				e = api.Unavailable()
			}
			return c.Status(e.Status).JSON(e)
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(out)
	}
}

// kiosksView is the company's kiosks page.
type kiosksView struct {
	Itens []record
	// Criado is the kiosk just registered, with its credential shown once.
	Criado       record
	CriadoQR     template.URL
	Funcionarios []record
}

// kioskKinds are the kinds a company picks from, with the AFD's collector
// code each gets (Portaria 671, Anexo V).
var kioskKinds = []struct{ Valor, Rotulo string }{
	{"navegador", "Navegador (computador ou tablet com esta página) — coletor 02"},
	{"dispositivo_eletronico", "Dispositivo eletrônico dedicado — coletor 04"},
	{"aplicativo_movel", "Aplicativo móvel — coletor 01"},
	{"aplicativo_desktop", "Aplicativo desktop — coletor 03"},
	{"outro", "Outro dispositivo — coletor 05"},
}

// kiosks is GET /empresa/quiosques.
func (p *Pages) kiosks(c *fiber.Ctx) error {
	return p.kiosksPage(c, http.StatusOK, nil, nil, nil)
}

func (p *Pages) kiosksPage(c *fiber.Ctx, status int, form map[string]string, criado record, e *api.Error) error {
	var out struct {
		Itens []record `json:"itens"`
	}
	if err := p.get(c, "/registropontos/quiosques", &out); err != nil {
		return p.fail(c, err)
	}
	funcionarios, err := p.all(c, "/funcionarios")
	if err != nil {
		return p.fail(c, err)
	}
	v := kiosksView{Itens: out.Itens, Criado: criado, Funcionarios: funcionarios}
	if criado != nil {
		v.CriadoQR = dataURL(criado["qrCode"])
	}
	withImagesAndCamera(c, false)
	msg := okMessages[c.Query("ok")]
	if c.Query("ok") == "pin" {
		msg = "PIN liberado: o funcionário cadastra um novo em Perfil → PIN do quiosque."
	}
	return p.render(c, status, "quiosques.html", view{Title: "Quiosques", Nav: "quiosques", Form: form, Err: e,
		Msg: msg, Data: map[string]any{"V": v, "Tipos": kioskKinds, "TZ": p.tz(c)}})
}

// dataURL trusts the API's QR code (a PNG data URL) as an image source.
func dataURL(v any) template.URL {
	s, _ := v.(string)
	if !strings.HasPrefix(s, "data:image/png;base64,") {
		return ""
	}
	return template.URL(s) // #nosec G203 -- a PNG data URL made by the API
}

// createKiosk is POST /empresa/quiosques: the new kiosk's credential is
// shown on the answer page, once.
func (p *Pages) createKiosk(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "nome", "dispositivo")
	var out record
	err := p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos/quiosques",
		Body: map[string]string{"nome": form["nome"], "dispositivo": form["dispositivo"]}}, &out)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.kiosksPage(c, e.Status, form, nil, e)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return p.kiosksPage(c, http.StatusOK, nil, out, nil)
}

func (p *Pages) revokeKiosk(c *fiber.Ctx) error {
	return p.remove(c, "/registropontos/quiosques/"+c.Params("id"), "/empresa/quiosques?ok=removido")
}

// printBadge is POST /empresa/quiosques/cracha funcionarioId=: a new badge
// (the previous one stops working) on a page to print.
func (p *Pages) printBadge(c *fiber.Ctx) error {
	id := strings.TrimSpace(c.FormValue("funcionarioId"))
	var out record
	if err := p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos/quiosques/cracha/" + id}, &out); err != nil {
		return p.fail(c, err)
	}
	withImagesAndCamera(c, false)
	return p.render(c, http.StatusOK, "cracha.html", view{Title: "Crachá de ponto", Nav: "quiosques",
		Data: map[string]any{"C": out, "QR": dataURL(out["qrCode"])}})
}

// resetPIN is POST /empresa/quiosques/pin funcionarioId=: his PIN is
// removed (and unlocked); he sets a new one.
func (p *Pages) resetPIN(c *fiber.Ctx) error {
	id := strings.TrimSpace(c.FormValue("funcionarioId"))
	return p.remove(c, "/registropontos/quiosques/pin/"+id, "/empresa/quiosques?ok=pin")
}

// pinForm is GET /ponto/pin.
func (p *Pages) pinForm(c *fiber.Ctx) error {
	v := view{Title: "PIN do quiosque", Nav: "perfil"}
	if c.Query("ok") == "1" {
		v.Msg = "PIN salvo. Use-o com seu CPF no quiosque da empresa."
	}
	return p.render(c, http.StatusOK, "pin.html", v)
}

// setPIN is POST /ponto/pin pin= confirmacao=.
func (p *Pages) setPIN(c *fiber.Ctx) error {
	pin, confirm := c.FormValue("pin"), c.FormValue("confirmacao")
	if pin != confirm {
		e := &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "dados inválidos",
			Fields: map[string]string{"confirmacao": "a confirmação não é igual ao PIN"}}
		return p.render(c, e.Status, "pin.html", view{Title: "PIN do quiosque", Nav: "perfil", Err: e})
	}
	err := p.call(c, api.Call{Method: http.MethodPut, Path: "/registropontos/quiosques/pin", Body: map[string]string{"pin": pin}}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.render(c, e.Status, "pin.html", view{Title: "PIN do quiosque", Nav: "perfil", Err: e})
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/ponto/pin?ok=1", http.StatusSeeOther)
}
