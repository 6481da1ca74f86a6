package hoje

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/errgroup"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the day at a glance.
type Handlers struct {
	Store     *Store
	Apuracao  *apuracao.Apuracao
	Employees *employee.Client
	Zones     *fuso.Zones
	Clock     *clock.Clock
	// Signer is the signing certificate's holder, nil without one.
	Signer *signature.Signer

	// days keeps each company's pending days (odd punches, alerts) of
	// the open period for pendingTTL: reading weeks of punches on every
	// refresh would cost far more than the day itself, and those days
	// change only when someone treats them.
	days     *expirable.LRU[string, pendingDays]
	daysOnce sync.Once
}

// pendingTTL is how long the open period's pending days are reused.
const pendingTTL = time.Minute

// pendingDays are the open period's lists.
type pendingDays struct{ impares, alertas []DiaPendente }

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/hoje", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.get)
}

// Filtro narrows the day at a glance: Departamento a department's name
// (any case, "" for all), Estabelecimento an establishment's id (nil for
// all; 0 or the principal's own id the principal).
type Filtro struct {
	Departamento    string
	Estabelecimento *int64
}

// get is GET /registropontos/hoje?departamento=&estabelecimento=: 200 Hoje
// for the caller's company (its listed employees: the department's, any
// case, of the establishment, or all); an establishment the company does
// not have lists nobody (see Store.estabelecimento).
func (h *Handlers) get(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	var f Filtro
	f.Departamento = c.Query("departamento")
	if utf8.RuneCountInString(f.Departamento) > 100 || !utf8.ValidString(f.Departamento) {
		return domainerr.InvalidField("departamento", "informe um departamento de até 100 caracteres")
	}
	if s := c.Query("estabelecimento"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id < 0 {
			return domainerr.InvalidField("estabelecimento", "identificador de estabelecimento: inteiro não negativo")
		}
		f.Estabelecimento = &id
	}
	out, err := h.Build(c.UserContext(), caller.EmpresaID, f)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// Build computes company empresaID's day at a glance now, for the
// employees filter f lists: the roster, the summary, the chain audit and
// the establishment read at once, then today's facts and the open
// period's (reused, see pendingDays) at once; nothing per employee.
func (h *Handlers) Build(ctx context.Context, empresaID int64, f Filtro) (Hoje, error) {
	zone, err := h.Zones.Empresa(ctx, empresaID)
	if err != nil {
		return Hoje{}, err
	}
	now, hoje := h.Clock.Now(), h.Clock.Today(zone)
	mes := time.Date(hoje.Year(), hoje.Month(), 1, 0, 0, 0, 0, zone)
	var (
		roster employee.Empresa
		r      resumo
		cadeia chainaudit.Estado
		estab  *int64
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { roster, err = h.Employees.Empresa(gctx, empresaID); return err })
	g.Go(func() (err error) { r, err = h.Store.read(gctx, empresaID, mes); return err })
	g.Go(func() (err error) { cadeia, err = chainaudit.Read(gctx, h.Store.db, empresaID); return err })
	if f.Estabelecimento != nil {
		g.Go(func() error {
			id, err := h.Store.estabelecimento(gctx, empresaID, *f.Estabelecimento)
			estab = &id
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return Hoje{}, err
	}
	escalas, err := apuracao.EscalasOf(roster.Escalas)
	if err != nil {
		return Hoje{}, err
	}
	membros, funcs, err := listed(roster, escalas, f.Departamento, estab, zone)
	if err != nil {
		return Hoje{}, err
	}
	out := Hoje{Data: hoje.Format(time.DateOnly), Agora: clock.FormatISO(now), FusoHorario: zone.String(),
		Funcionarios: make([]Pessoa, 0, len(membros)), Saude: h.health(cadeia, r), Estabelecimento: f.Estabelecimento}
	if dep := f.Departamento; dep != "" {
		out.Departamento = &dep
	}
	g, gctx = errgroup.WithContext(ctx)
	g.Go(func() error { return h.today(gctx, empresaID, hoje, now, membros, funcs, escalas, &out) })
	g.Go(func() (err error) {
		out.Pendencias, err = h.pending(gctx, empresaID, hoje, r, membros, funcs, escalas)
		return err
	})
	if err := g.Wait(); err != nil {
		return Hoje{}, err
	}
	out.Contagens = Count(out.Funcionarios)
	return out, nil
}

// listed are roster's employees of department dep and establishment
// estab (nil: any; as the employee service names it, 0 the principal), as
// Membro and as the report reads them; escalas are roster's schedules read
// once (EscalasOf), shared rather than read again per employee.
func listed(roster employee.Empresa, escalas map[int64]*core.Escala, dep string, estab *int64, zone *time.Location) ([]Membro, []employee.Funcionario, error) {
	membros := make([]Membro, 0, len(roster.Funcionarios))
	funcs := make([]employee.Funcionario, 0, len(roster.Funcionarios))
	for i, f := range roster.Funcionarios {
		if !inDepartamento(roster.Departamentos[i], dep) || (estab != nil && roster.Estabelecimentos[i] != *estab) {
			continue
		}
		loc := zone
		if z := f.FusoHorario; z != nil && *z != "" {
			l, err := fuso.Load(*z)
			if err != nil {
				return nil, nil, domainerr.BadDependency("employee", err)
			}
			loc = l
		}
		var e *core.Escala
		if f.Escala != nil {
			e = escalas[f.EscalaTrabalhoID]
		}
		membros = append(membros, Membro{ID: f.ID, Nome: f.Nome, Departamento: roster.Departamentos[i], Escala: e, Zona: loc})
		funcs = append(funcs, f)
	}
	return membros, funcs, nil
}

// today places every listed employee from one read of today's facts.
func (h *Handlers) today(ctx context.Context, empresaID int64, hoje, now time.Time, membros []Membro,
	funcs []employee.Funcionario, escalas map[int64]*core.Escala, out *Hoje) error {
	res, err := h.Apuracao.Apurar(ctx, apuracao.Consulta{EmpresaID: empresaID, Funcionarios: funcs, Escalas: escalas,
		Inicio: hoje, Fim: hoje, EmCurso: true})
	if err != nil {
		return err
	}
	data := hoje.Format(time.DateOnly)
	for i, a := range res.Each() {
		var dia *apuracao.Dia
		for j := range a.Dias {
			if a.Dias[j].Data == data {
				dia = &a.Dias[j]
			}
		}
		out.Funcionarios = append(out.Funcionarios, Situacao(membros[i], hoje, now, dia))
	}
	return nil
}

// pending lists the open period's odd days and alerts (one read of its
// facts, up to yesterday) and who has not acknowledged the closed month.
func (h *Handlers) pending(ctx context.Context, empresaID int64, hoje time.Time, r resumo, membros []Membro,
	funcs []employee.Funcionario, escalas map[int64]*core.Escala) (Pendencias, error) {
	inicio := hoje.AddDate(0, 0, -maxAberto)
	if !r.fimFechado.IsZero() && r.fimFechado.AddDate(0, 0, 1).After(inicio) {
		inicio = r.fimFechado.AddDate(0, 0, 1)
	}
	p := Pendencias{Ajustes: r.ajustes, Solicitacoes: r.solicitacoes, PeriodoAberto: inicio.Format(time.DateOnly),
		DiasImpares: []DiaPendente{}, Alertas: []DiaPendente{}, SemCiencia: []Nome{}}
	if ontem := hoje.AddDate(0, 0, -1); !inicio.After(ontem) && len(funcs) > 0 {
		d, err := h.pendingDays(ctx, empresaID, inicio, ontem, membros, funcs, escalas)
		if err != nil {
			return Pendencias{}, err
		}
		p.DiasImpares, p.Alertas = d.impares, d.alertas
	}
	if !r.mesFechado.IsZero() {
		m := r.mesFechado.Format("2006-01")
		p.MesFechado = &m
		for _, mb := range membros {
			if !r.cientes[mb.ID] && len(p.SemCiencia) < maxLista {
				p.SemCiencia = append(p.SemCiencia, Nome{ID: mb.ID, Nome: mb.Nome})
			}
		}
	}
	return p, nil
}

// pendingDays reads the odd days and alerts of [inicio, ontem] for the
// listed employees (one read of their facts), or reuses those read less
// than pendingTTL ago for the same company, employees and period.
func (h *Handlers) pendingDays(ctx context.Context, empresaID int64, inicio, ontem time.Time, membros []Membro,
	funcs []employee.Funcionario, escalas map[int64]*core.Escala) (pendingDays, error) {
	h.daysOnce.Do(func() { h.days = expirable.NewLRU[string, pendingDays](1024, nil, pendingTTL) })
	key := fmt.Sprintf("%d|%s|%s|%d|%d", empresaID, inicio.Format(time.DateOnly), ontem.Format(time.DateOnly),
		len(funcs), idsSum(funcs))
	if d, ok := h.days.Get(key); ok {
		return d, nil
	}
	res, err := h.Apuracao.Apurar(ctx, apuracao.Consulta{EmpresaID: empresaID, Funcionarios: funcs, Escalas: escalas,
		Inicio: inicio, Fim: ontem})
	if err != nil {
		return pendingDays{}, err
	}
	p := Pendencias{DiasImpares: []DiaPendente{}, Alertas: []DiaPendente{}}
	for i, a := range res.Each() {
		for j := range a.Dias {
			p.Pendente(membros[i], &a.Dias[j])
		}
	}
	d := pendingDays{impares: p.DiasImpares, alertas: p.Alertas}
	h.days.Add(key, d)
	return d, nil
}

// idsSum tells one list of employees from another in a cache key.
func idsSum(funcs []employee.Funcionario) int64 {
	var n int64
	for i, f := range funcs {
		n += int64(i+1) * f.ID
	}
	return n
}

// health is the records' health: the last chain audit, the
// certificate's days left, the month's unavailability events.
func (h *Handlers) health(cadeia chainaudit.Estado, r resumo) Saude {
	s := Saude{Cadeia: cadeia, EventosIndisponibilidade: r.indisponibilidades}
	if h.Signer != nil {
		d := int(h.Signer.DaysLeft())
		s.CertificadoDiasRestantes = &d
	}
	return s
}
