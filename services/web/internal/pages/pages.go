// Package pages is the web client: server-rendered pages for employees
// (punch, records, adjustments, photo, timesheet) and companies (console).
// Every page calls the public API server-side with the session's token;
// the browser only ever holds the encrypted session cookie.
package pages

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/services/web/internal/api"
	"github.com/ponto/ponto/services/web/internal/assets"
	"github.com/ponto/ponto/services/web/internal/session"
)

//go:embed templates
var templateFS embed.FS

// Config is the part of the service's configuration the pages use.
type Config struct {
	// SecureCookies: the site is served over HTTPS. The session cookie is
	// then "__Host-ponto" with Secure, and HSTS is sent. Off only for local
	// http (make run), where browsers would drop a Secure cookie.
	SecureCookies bool
	// DefaultTZ is the time zone when the API names none.
	DefaultTZ string
	// Plans are the plan names offered at company registration.
	Plans []string
	// LimitPosts, when set, runs before every unsafe request: the per-IP
	// budget of form posts and punches (pkg/ratelimit).
	LimitPosts fiber.Handler
	// LimitLogins, when set, runs before the login posts: each client
	// address's own login budget, kept here in front of the API, whose
	// per-address limit sees this service's address for every person:
	// one abuser must run out of his budget, not of everyone's.
	LimitLogins fiber.Handler
}

// Pages holds what every handler needs.
type Pages struct {
	cfg    Config
	api    *api.Client
	codec  *session.Codec
	clock  *clock.Clock
	assets *assets.Assets
	log    *slog.Logger
	views  map[string]*template.Template
	cookie string
}

// New parses every template once. clk tells the pages today's date and
// the server's time.
func New(cfg Config, client *api.Client, codec *session.Codec, clk *clock.Clock, a *assets.Assets,
	log *slog.Logger) (*Pages, error) {
	p := &Pages{cfg: cfg, api: client, codec: codec, clock: clk, assets: a, log: log, cookie: "ponto"}
	if cfg.SecureCookies {
		// __Host- makes browsers insist on Secure, Path=/ and no Domain.
		p.cookie = "__Host-ponto"
	}
	views, err := parseViews(a)
	if err != nil {
		return nil, err
	}
	p.views = views
	return p, nil
}

// CookieName is the session cookie's name.
func (p *Pages) CookieName() string { return p.cookie }

// loginPaths are the posts that try credentials or ask for a code.
var loginPaths = []string{"/empresa/entrar", "/funcionario/entrar", "/funcionario/codigo"}

// limited runs limit (which calls c.Next when the budget allows) and
// turns an exhausted budget into a page with Retry-After.
func (p *Pages) limited(c *fiber.Ctx, limit fiber.Handler) error {
	err := limit(c)
	if e, ok := apierr.As(err); ok && e.Status == http.StatusTooManyRequests {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(e.RetryAfter))
		return p.errorPage(c, &api.Error{Status: e.Status, Code: e.Code,
			Message: "muitas tentativas em pouco tempo; aguarde um minuto e tente de novo"})
	}
	return err
}

// Routes registers every page on app.
func (p *Pages) Routes(app *fiber.App) {
	app.Use(p.headers)
	app.Get(assets.Prefix+":file", p.assets.Handler)
	app.Get("/manifest.webmanifest", p.manifest)
	app.Get("/icone-192.png", p.icon)
	app.Get("/sw.js", p.serviceWorker)
	app.Use(p.sessionMiddleware)
	if p.cfg.LimitPosts != nil {
		app.Use(func(c *fiber.Ctx) error {
			if c.Method() == fiber.MethodGet || c.Method() == fiber.MethodHead {
				return c.Next()
			}
			return p.limited(c, p.cfg.LimitPosts)
		})
	}
	if p.cfg.LimitLogins != nil {
		for _, path := range loginPaths {
			app.Post(path, func(c *fiber.Ctx) error { return p.limited(c, p.cfg.LimitLogins) })
		}
	}
	app.Use(p.csrf)
	app.Get("/", p.home)
	app.Get("/tempo", p.serverTime)
	app.Get("/entrar", p.loginChoice)
	app.Post("/sair", p.logout)
	p.employeeRoutes(app)
	p.companyRoutes(app)
	p.kioskRoutes(app)
	app.Use(func(c *fiber.Ctx) error {
		return p.errorPage(c, &api.Error{Status: http.StatusNotFound, Code: "nao_encontrado", Message: "página não encontrada"})
	})
}

// contentSecurityPolicy allows nothing inline and nothing from another
// origin: scripts, styles and fetches come from this site only.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// headers sets the security headers of every answer; private pages are
// never cached (the static handler overrides Cache-Control for assets).
func (p *Pages) headers(c *fiber.Ctx) error {
	c.Set("Content-Security-Policy", contentSecurityPolicy)
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set("X-Frame-Options", "DENY")
	c.Set("Referrer-Policy", "same-origin")
	c.Set("Cross-Origin-Opener-Policy", "same-origin")
	c.Set("Cross-Origin-Resource-Policy", "same-origin")
	c.Set("Permissions-Policy", "geolocation=(self), camera=(), microphone=(), payment=()")
	if p.cfg.SecureCookies {
		c.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
	}
	err := c.Next()
	c.Set(fiber.HeaderCacheControl, cacheControl(c))
	return err
}

func cacheControl(c *fiber.Ctx) string {
	if cc := string(c.Response().Header.Peek(fiber.HeaderCacheControl)); cc != "" {
		return cc
	}
	return "no-store"
}

// sessKey is the Locals key of the request's session.
const sessKey = "web.session"

// sessionMiddleware opens the session cookie (or starts an anonymous
// session) and writes it back when the handler changed it: a login, a
// logout, or an access token renewed on the way.
func (p *Pages) sessionMiddleware(c *fiber.Ctx) error {
	s, err := p.codec.Open(c.Cookies(p.cookie))
	fresh := err != nil
	if fresh {
		s = p.codec.New()
	}
	before := *s
	c.Locals(sessKey, s)
	err = c.Next()
	if fresh || *s != before {
		p.writeCookie(c, s)
	}
	return err
}

func (p *Pages) writeCookie(c *fiber.Ctx, s *session.Session) {
	value, err := p.codec.Seal(s)
	if err != nil {
		p.log.Error("web: sealing the session", "err", err)
		return
	}
	c.Cookie(&fiber.Cookie{
		Name: p.cookie, Value: value, Path: "/", HTTPOnly: true, Secure: p.cfg.SecureCookies,
		SameSite: fiber.CookieSameSiteStrictMode, MaxAge: int(p.codec.TTL().Seconds()),
	})
}

func sess(c *fiber.Ctx) *session.Session { return c.Locals(sessKey).(*session.Session) }

// csrf refuses an unsafe request that does not echo the session's token
// (form field _csrf or header X-CSRF-Token), or that the browser says came
// from another site. SameSite=Strict already keeps the cookie off
// cross-site requests; the token also covers same-site subdomains.
func (p *Pages) csrf(c *fiber.Ctx) error {
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return c.Next()
	}
	site := c.Get("Sec-Fetch-Site")
	token := c.Get("X-CSRF-Token")
	if token == "" {
		token = c.FormValue("_csrf")
	}
	if (site != "" && site != "same-origin" && site != "none") || !sess(c).CheckCSRF(token) {
		return p.errorPage(c, &api.Error{Status: http.StatusForbidden, Code: "csrf",
			Message: "a página expirou; recarregue-a e tente de novo"})
	}
	return c.Next()
}

// call runs an API call as the session's user with the request's id and
// the client's address.
func (p *Pages) call(c *fiber.Ctx, call api.Call, out any) error {
	call.ClientIP, call.RequestID = httpserver.ClientIP(c), httpserver.RequestID(c)
	return p.api.Do(c.UserContext(), sess(c), call, out)
}

func (p *Pages) get(c *fiber.Ctx, path string, out any) error {
	return p.call(c, api.Call{Method: http.MethodGet, Path: path}, out)
}

// maxDownload bounds a file passed through (a year's AFD or CSV of a large
// company stays well below it).
const maxDownload = 64 << 20

// stream passes a download (PDF, CSV, AFD, photo) through from the API,
// keeping its type and file name. The file is read whole before answering:
// the API call's context ends with the handler, so it cannot be streamed
// after the handler returns.
func (p *Pages) stream(c *fiber.Ctx, path string) error { return p.streamOr(c, path, nil) }

// streamOr is stream, handing the API's refusal (a 4xx) to refused when
// set, so that a form page can show it next to its fields.
func (p *Pages) streamOr(c *fiber.Ctx, path string, refused func(*api.Error) error) error {
	resp, err := p.api.Open(c.UserContext(), sess(c), api.Call{Method: http.MethodGet, Path: path,
		ClientIP: httpserver.ClientIP(c), RequestID: httpserver.RequestID(c)})
	if e, ok := api.AsError(err); ok && e.Status < 500 && refused != nil {
		return refused(e)
	}
	if err != nil {
		return p.fail(c, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDownload+1))
	if err != nil {
		return p.fail(c, api.Unavailable())
	}
	if len(data) > maxDownload {
		return p.errorPage(c, &api.Error{Status: http.StatusBadGateway, Code: "arquivo_grande_demais",
			Message: "o arquivo é grande demais para baixar por aqui; escolha um período menor"})
	}
	for _, h := range []string{fiber.HeaderContentType, fiber.HeaderContentDisposition} {
		if v := resp.Header.Get(h); v != "" {
			c.Set(h, v)
		}
	}
	c.Set(fiber.HeaderCacheControl, "private, no-store")
	// A file is never a page: nothing in it may run or load.
	c.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; sandbox")
	return c.Status(resp.StatusCode).Send(data)
}

// view is what every template gets.
type view struct {
	Title string
	Nav   string
	Sess  *session.Session
	// Err is the API's error, shown at the top and next to the fields it
	// names; Form refills the form that failed.
	Err  *api.Error
	Form map[string]string
	Msg  string
	Data any
}

// render writes page with status.
func (p *Pages) render(c *fiber.Ctx, status int, page string, v view) error {
	t, ok := p.views[page]
	if !ok {
		return errors.New("pages: unknown view " + page)
	}
	v.Sess = sess(c)
	if v.Form == nil {
		v.Form = map[string]string{}
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(status).Send(buf.Bytes())
}

// fail shows an API failure: an ended session goes back to the login, a
// JSON caller gets JSON, anyone else the error page.
func (p *Pages) fail(c *fiber.Ctx, err error) error {
	if errors.Is(err, api.ErrSessionEnded) {
		return p.sessionEnded(c)
	}
	e, ok := api.AsError(err)
	if !ok {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			e = api.Unavailable()
		} else {
			p.log.ErrorContext(c.UserContext(), "web: request failed", "err", err, "request_id", httpserver.RequestID(c))
			e = &api.Error{Status: http.StatusInternalServerError, Code: "erro_interno", Message: "erro interno; tente novamente"}
		}
	}
	return p.errorPage(c, e)
}

func (p *Pages) errorPage(c *fiber.Ctx, e *api.Error) error {
	if wantsJSON(c) {
		return c.Status(e.Status).JSON(e)
	}
	return p.render(c, e.Status, "erro.html", view{Title: "Erro", Err: e})
}

// sessionEnded clears the session and sends the user to log in again.
func (p *Pages) sessionEnded(c *fiber.Ctx) error {
	role := sess(c).Role
	*sess(c) = *p.codec.New()
	target := "/entrar?expirou=1"
	if role == session.RoleFuncionario {
		target = "/funcionario/entrar?expirou=1"
	} else if role == session.RoleEmpresa {
		target = "/empresa/entrar?expirou=1"
	}
	if wantsJSON(c) {
		return c.Status(http.StatusUnauthorized).JSON(fiber.Map{"message": "sua sessão expirou; entre de novo", "code": "sessao_expirada", "redirect": target})
	}
	return c.Redirect(target, http.StatusSeeOther)
}

func wantsJSON(c *fiber.Ctx) bool {
	return strings.Contains(c.Get(fiber.HeaderAccept), "application/json")
}

// requireRole lets only a logged-in user of role through; anyone else is
// sent to that role's login.
func requireRole(role, login string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		s := sess(c)
		if s.LoggedIn() && s.Role == role {
			return c.Next()
		}
		if wantsJSON(c) {
			return c.Status(http.StatusUnauthorized).JSON(fiber.Map{"message": "entre para continuar", "code": "nao_autenticado", "redirect": login})
		}
		return c.Redirect(login, http.StatusSeeOther)
	}
}

func (p *Pages) home(c *fiber.Ctx) error {
	switch s := sess(c); {
	case s.LoggedIn() && s.Role == session.RoleFuncionario:
		return c.Redirect("/ponto", http.StatusSeeOther)
	case s.LoggedIn() && s.Role == session.RoleEmpresa:
		return c.Redirect("/empresa", http.StatusSeeOther)
	}
	return c.Redirect("/entrar", http.StatusSeeOther)
}

// serverTime is the clock the employee's page corrects itself to.
func (p *Pages) serverTime(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"agora": p.clock.Now().UnixMilli()})
}

func (p *Pages) loginChoice(c *fiber.Ctx) error {
	return p.loginForm(c, "entrar.html", "Entrar")
}

// loginForm shows a login page, saying why when an ended session led here.
func (p *Pages) loginForm(c *fiber.Ctx, page, title string) error {
	v := view{Title: title}
	if c.Query("expirou") != "" {
		v.Msg = "Sua sessão expirou. Entre de novo."
	}
	return p.render(c, http.StatusOK, page, v)
}

// logout revokes the refresh token at the API (best effort: the cookie is
// cleared either way) and starts an anonymous session.
func (p *Pages) logout(c *fiber.Ctx) error {
	s := sess(c)
	if s.Refresh != "" {
		err := p.call(c, api.Call{Method: http.MethodPost, Path: "/auth/logout", Body: map[string]string{"refreshToken": s.Refresh}}, nil)
		if err != nil {
			p.log.WarnContext(c.UserContext(), "web: logout at the API failed", "err", err)
		}
	}
	*s = *p.codec.New()
	return c.Redirect("/entrar", http.StatusSeeOther)
}
