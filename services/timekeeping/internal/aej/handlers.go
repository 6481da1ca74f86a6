// Package aej serves the AEJ (Arquivo Eletrônico de Jornada, Portaria 671
// art. 83, Anexo VI) of a company: GET /registropontos/aej?inicio=&fim=
// &formato=txt|zip. The file format is the core's (core/aej.go); this
// package gathers the treated data of the period's workdays: the punches,
// original and treated (included, disregarded, pre-assigned), the
// unexcused absences, the employees and their contractual schedules, the
// employer and the REP-P's identification; with formato=zip it adds the
// detached CAdES signature (pkg/signature), as the AFD does.
package aej

import (
	"errors"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/arquivo"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
)

// Limits of one file, as the AFD's: a year, and punches enough for a
// thousand employees' month many times over.
const (
	maxDays    = 366
	maxPunches = 300_000
)

// repID is the one REP of every file: ponto's REP-P.
const repID = 1

// Handlers serve the AEJ.
type Handlers struct {
	store     *Store
	employees *employee.Client
	clock     *clock.Clock
	zones     *fuso.Zones
	rep       core.REP
	ptrp      core.AEJPTRP
	signer    *signature.Signer // nil: no certificate, no zip
}

// NewHandlers returns the handlers: rep identifies the REP-P, ptrp the
// treatment program (type 08), signer (nil without a certificate) signs
// the zip's .p7s.
func NewHandlers(store *Store, employees *employee.Client, clk *clock.Clock, zones *fuso.Zones, rep core.REP,
	ptrp core.AEJPTRP, signer *signature.Signer) *Handlers {
	return &Handlers{store: store, employees: employees, clock: clk, zones: zones, rep: rep, ptrp: ptrp, signer: signer}
}

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/aej", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.export)
}

// export is the route (default period: this month; format txt): 200 with
// the AEJ, ISO-8859-1 text with CR LF line ends, as an attachment; with
// formato=zip an application/zip holding it and its CAdES signature
// <name>.p7s (409 sem_certificado without a certificate).
func (h *Handlers) export(c *fiber.Ctx) error {
	x, err := arquivo.ReadExport(c, h.signer, h.zones, h.clock, "o AEJ", maxDays)
	if err != nil {
		return err
	}
	ctx, emp, inicio, fim := c.UserContext(), x.Empresa, x.Inicio, x.Fim
	ps, err := h.store.pontos(ctx, x.EmpresaID, inicio, fim, maxPunches)
	if errors.Is(err, errTooMany) {
		return domainerr.InvalidField("fim", "o período tem mais de "+strconv.Itoa(maxPunches)+
			" marcações: divida-o em arquivos menores")
	}
	if err != nil {
		return err
	}
	fs, err := h.store.faltas(ctx, x.EmpresaID, inicio, fim)
	if err != nil {
		return err
	}
	funcs, err := h.funcionarios(c, x.EmpresaID, ps, fs)
	if err != nil {
		return err
	}
	now := h.clock.Now()
	a := core.AEJ{
		Cabecalho: core.AEJCabecalho{Empregador: emp.CNPJ, RazaoSocial: emp.RazaoSocial, Inicio: inicio, Fim: fim,
			Geracao: now, OffsetMinutes: core.Offset(now, emp.Zone)},
		REPs: []core.AEJREP{{ID: repID, Tipo: core.REPTipoP, Numero: h.rep.INPI}},
		PTRP: h.ptrp,
	}
	assemble(&a, funcs, ps, fs)
	file, err := core.FormatAEJ(a)
	if err != nil {
		return err
	}
	name := core.NomeArquivoAEJ(emp.CNPJ, inicio, fim)
	return arquivo.Send(c, name, file, x.Zipped, h.signer, now)
}

// funcionarios are the employees the period's punches and absences name,
// in id order, from the employee service (the bonds of the file).
func (h *Handlers) funcionarios(c *fiber.Ctx, empresaID int64, ps []ponto, fs []falta) ([]employee.Funcionario, error) {
	var ids []int64
	for _, p := range ps {
		ids = append(ids, p.FuncionarioID)
	}
	for _, f := range fs {
		ids = append(ids, f.FuncionarioID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make([]employee.Funcionario, 0, len(ids))
	for chunk := range slices.Chunk(ids, employee.MaxFuncionarios) {
		got, err := h.employees.Funcionarios(c.UserContext(), chunk)
		if err != nil {
			return nil, err
		}
		for _, id := range chunk {
			f, ok := got[id]
			if !ok || f.EmpresaID != empresaID {
				return nil, domainerr.BadDependency("employee", errors.New("aej: employee "+strconv.FormatInt(id, 10)+
					" of the records is unknown to the employee service"))
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// assemble fills a's bonds (03), schedules (04), punches (05) and absences
// (07): bonds numbered from 1 in employee id order; the schedules every
// employee's weekly shifts, equal shifts sharing one record, and
// core.SemJornada when a worked day has no shift; each workday's punches
// as the treatment left them (core.MarcacoesDoDia).
func assemble(a *core.AEJ, funcs []employee.Funcionario, ps []ponto, fs []falta) {
	seen := map[string]bool{}
	horario := func(t *core.Turno) string {
		hc := core.HorarioAEJ(t)
		if !seen[hc.Codigo] {
			seen[hc.Codigo] = true
			a.Horarios = append(a.Horarios, hc)
		}
		return hc.Codigo
	}
	vinculo := map[int64]int{}
	escalas := map[int64]*core.Escala{}
	for i, f := range funcs {
		vinculo[f.ID] = i + 1
		a.Vinculos = append(a.Vinculos, core.AEJVinculo{ID: i + 1, CPF: f.CPF, Nome: f.Nome})
		escalas[f.ID] = f.Escala.Core()
		if e := escalas[f.ID]; e != nil && e.Ciclo != nil {
			horario(e.Ciclo.Turno)
		} else if e != nil {
			for _, t := range e.Semana {
				if t != nil {
					horario(t)
				}
			}
		}
	}
	for i := 0; i < len(ps); {
		j := i
		for j < len(ps) && ps[j].FuncionarioID == ps[i].FuncionarioID && ps[j].Jornada.Equal(ps[i].Jornada) {
			j++
		}
		day := make([]core.PontoAEJ, 0, j-i)
		for _, p := range ps[i:j] {
			day = append(day, p.pontoAEJ())
		}
		turno := escalas[ps[i].FuncionarioID].Turno(ps[i].Jornada)
		a.Marcacoes = append(a.Marcacoes, core.MarcacoesDoDia(vinculo[ps[i].FuncionarioID], repID, ps[i].Jornada,
			day, turno, horario(turno))...)
		i = j
	}
	for _, f := range fs {
		a.Ausencias = append(a.Ausencias, core.AEJAusencia{Vinculo: vinculo[f.FuncionarioID], Tipo: core.AusenciaFalta,
			Data: f.Data})
	}
}
