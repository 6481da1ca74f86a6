package folha

import (
	"sort"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the export, the mapping and the layouts.
type Handlers struct {
	Store  *Store
	Totais Totais
	Zones  *fuso.Zones
	Clock  *clock.Clock
}

// maxDias is the longest period exported at once.
const maxDias = 366

var errLayoutNaoEncontrado = domainerr.NotFound("layout não encontrado")

// Public mounts the company routes on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	empresa := jwtauth.RequireRole(jwtauth.RoleEmpresa)
	r.Get("/registropontos/folha", empresa, h.exportar)
	r.Get("/registropontos/folha/eventos", empresa, request.Answer(h.getEventos))
	r.Put("/registropontos/folha/eventos", empresa, request.Answer(h.putEventos))
	r.Get("/registropontos/folha/layouts", empresa, request.Answer(h.getLayouts))
	r.Get("/registropontos/folha/layouts/:nome", empresa, request.Answer(h.getLayout))
	r.Put("/registropontos/folha/layouts/:nome", empresa, request.Answer(h.putLayout))
}

// getEventos is GET /registropontos/folha/eventos: {"<evento>": "<codigo>"}.
func (h *Handlers) getEventos(c *fiber.Ctx, caller *jwtauth.Claims) (map[string]string, error) {
	return h.Store.Mapa(c.UserContext(), caller.EmpresaID)
}

// putEventos is PUT /registropontos/folha/eventos: the company's codes
// (events left out go back to their defaults; "" leaves one out of the
// export), answered as GET does.
func (h *Handlers) putEventos(c *fiber.Ctx, caller *jwtauth.Claims) (map[string]string, error) {
	var in map[string]string
	if err := request.DecodeJSON(c, &in); err != nil {
		return nil, err
	}
	v := validate.Errors{}
	for ev, cod := range in {
		if !Conhecido(ev) {
			v.Check(false, ev, "evento desconhecido")
			continue
		}
		v.Check(CodigoValido(cod), ev, "código de até 20 letras, dígitos, '.', '-' ou '_' (vazio: não exportar)")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := h.Store.SetMapa(c.UserContext(), caller.EmpresaID, in, h.Clock.Now()); err != nil {
		return nil, err
	}
	return h.Store.Mapa(c.UserContext(), caller.EmpresaID)
}

// getLayouts is GET /registropontos/folha/layouts: the presets (or the
// company's edits of them) and its own, by name.
func (h *Handlers) getLayouts(c *fiber.Ctx, caller *jwtauth.Claims) ([]Layout, error) {
	return h.Store.Layouts(c.UserContext(), caller.EmpresaID)
}

// nome reads the layout's name from the path.
func nome(c *fiber.Ctx) (string, error) {
	n := c.Params("nome")
	if !NomeValido(n) {
		return "", domainerr.InvalidField("nome", "de 1 a 40 letras minúsculas, dígitos ou '-'")
	}
	return n, nil
}

// getLayout is GET /registropontos/folha/layouts/{nome}.
func (h *Handlers) getLayout(c *fiber.Ctx, caller *jwtauth.Claims) (Layout, error) {
	n, err := nome(c)
	if err != nil {
		return Layout{}, err
	}
	l, ok, err := h.Store.Layout(c.UserContext(), caller.EmpresaID, n)
	if err == nil && !ok {
		err = errLayoutNaoEncontrado
	}
	return l, err
}

// putLayout is PUT /registropontos/folha/layouts/{nome} with
// {"descricao", "campos": [...]}: creates or replaces the company's
// layout (a preset's name edits the preset for the company).
func (h *Handlers) putLayout(c *fiber.Ctx, caller *jwtauth.Claims) (Layout, error) {
	n, err := nome(c)
	if err != nil {
		return Layout{}, err
	}
	var in Layout
	if err := request.DecodeJSON(c, &in); err != nil {
		return Layout{}, err
	}
	l := Layout{Nome: n, Descricao: in.Descricao, Campos: in.Campos}
	v := validate.Errors{}
	l.Check(v)
	if err := v.Err(); err != nil {
		return Layout{}, err
	}
	sort.SliceStable(l.Campos, func(i, j int) bool { return l.Campos[i].Inicio < l.Campos[j].Inicio })
	return l, h.Store.SaveLayout(c.UserContext(), caller.EmpresaID, l, h.Clock.Now())
}

// pedido is a validated export request.
type pedido struct {
	inicio, fim time.Time
	layout      string // "" for the CSV
	filtro      Filtro
}

// readPedido reads inicio and fim (YYYY-MM-DD, default this month, at
// most a year), formato (csv or layout), layout (a name, default
// generico) and estabelecimento (an id, 0 the principal).
func readPedido(c *fiber.Ctx, today time.Time) (pedido, error) {
	var p pedido
	var err error
	if p.inicio, p.fim, err = request.Period(c, today, maxDias); err != nil {
		return p, err
	}
	switch c.Query("formato", "csv") {
	case "csv":
	case "layout":
		p.layout = c.Query("layout", "generico")
		if !NomeValido(p.layout) {
			return p, domainerr.InvalidField("layout", "nome de layout inválido")
		}
	default:
		return p, domainerr.InvalidField("formato", "use csv ou layout")
	}
	if s := c.Query("estabelecimento"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id < 0 {
			return p, domainerr.InvalidField("estabelecimento", "identificador de estabelecimento: inteiro não negativo")
		}
		p.filtro.Estabelecimento = &id
	}
	return p, nil
}

// exportar is GET /registropontos/folha?inicio=&fim=&formato=csv|layout
// &layout=&estabelecimento=: the file, as an attachment, with headers
// Folha-Situacao (final or provisoria) and Folha-Pendencias (how many
// requests are pending); a provisional export, or one with pending
// requests, opens with lines saying so ("# ...").
func (h *Handlers) exportar(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	zone, err := h.Zones.Empresa(ctx, caller.EmpresaID)
	if err != nil {
		return err
	}
	p, err := readPedido(c, h.Clock.Today(zone))
	if err != nil {
		return err
	}
	mapa, err := h.Store.Mapa(ctx, caller.EmpresaID)
	if err != nil {
		return err
	}
	var layout Layout
	if p.layout != "" {
		var ok bool
		if layout, ok, err = h.Store.Layout(ctx, caller.EmpresaID, p.layout); err != nil {
			return err
		} else if !ok {
			return domainerr.InvalidField("layout", "layout não encontrado: "+p.layout)
		}
		if err := layout.CheckCodigos(mapa); err != nil {
			return err
		}
	}
	totais, err := h.Totais.Periodo(ctx, caller.EmpresaID, p.filtro, p.inicio, p.fim)
	if err != nil {
		return err
	}
	cab, err := h.cabecalho(c, caller.EmpresaID, p, totais)
	if err != nil {
		return err
	}
	var body []byte
	ext, tipo := ".csv", "text/csv; charset=utf-8"
	if p.layout == "" {
		body, err = CSV(cab, totais, mapa)
	} else {
		ext, tipo = ".txt", "text/plain; charset=utf-8"
		body, err = FixedWidth(cab, totais, mapa, layout)
	}
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, tipo)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="folha-`+p.inicio.Format(time.DateOnly)+"-"+
		p.fim.Format(time.DateOnly)+ext+`"`)
	c.Set("Folha-Situacao", cab.Situacao())
	c.Set("Folha-Pendencias", strconv.Itoa(len(cab.Pendencias)))
	return c.Send(body)
}

// cabecalho reads whether the period is closed and its pending requests.
func (h *Handlers) cabecalho(c *fiber.Ctx, empresaID int64, p pedido, totais []TotaisFuncionario) (Cabecalho, error) {
	cab := Cabecalho{Inicio: p.inicio, Fim: p.fim}
	ctx := c.UserContext()
	var err error
	if cab.Fechado, err = h.Store.Fechado(ctx, empresaID, p.inicio, p.fim); err != nil {
		return cab, err
	}
	ids := make([]int64, len(totais))
	for i := range totais {
		ids[i] = totais[i].FuncionarioID
	}
	cab.Pendencias, err = h.Store.Pendencias(ctx, empresaID, ids, p.inicio, p.fim)
	return cab, err
}
