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
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/arquivo"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/falta"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
	"github.com/ponto/ponto/services/timekeeping/internal/tratamento"
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
	pontos    *tratamento.Store
	faltas    *falta.Store
	employees *employee.Client
	files     arquivo.Files
	rep       core.REP
	ptrp      core.AEJPTRP
	// apuracao computes the workdays (the one absence rule, the DSR)
	// and the hour bank the type-07 records report (SetJornadas).
	apuracao *apuracao.Apuracao
}

// SetJornadas gives the handlers the workday engine the type-07 records
// are computed with. Without it only the company's absence marks are
// written.
func (h *Handlers) SetJornadas(a *apuracao.Apuracao) *Handlers {
	h.apuracao = a
	return h
}

// NewHandlers returns the handlers: pontos reads the period's treated
// punches, faltas its absences, rep identifies the REP-P, ptrp the
// treatment program (type 08), signer (nil without a certificate) signs
// the zip's .p7s.
func NewHandlers(pontos *tratamento.Store, faltas *falta.Store, employees *employee.Client, clk *clock.Clock,
	zones *fuso.Zones, rep core.REP, ptrp core.AEJPTRP, signer *signature.Signer) *Handlers {
	return &Handlers{pontos: pontos, faltas: faltas, employees: employees,
		files: arquivo.Files{Clock: clk, Zones: zones, Signer: signer}, rep: rep, ptrp: ptrp}
}

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/aej", request.Empresa, h.files.Handler("o AEJ", maxDays, h.export))
}

// export is the route (default period: this month; format txt): 200 with
// the AEJ, ISO-8859-1 text with CR LF line ends, as an attachment; with
// formato=zip an application/zip holding it and its CAdES signature
// <name>.p7s (409 sem_certificado without a certificate).
func (h *Handlers) export(c *fiber.Ctx, x arquivo.Export, now time.Time) (name string, file []byte, err error) {
	ctx, emp, inicio, fim := c.UserContext(), x.Empresa, x.Inicio, x.Fim
	ps, err := h.pontos.Tratadas(ctx, x.EmpresaID, inicio, fim, maxPunches)
	if errors.Is(err, tratamento.ErrTooMany) {
		return "", nil, domainerr.InvalidField("fim", "o período tem mais de "+strconv.Itoa(maxPunches)+
			" marcações: divida-o em arquivos menores")
	}
	if err != nil {
		return "", nil, err
	}
	fs, err := h.faltas.Unexcused(ctx, x.EmpresaID, inicio, fim)
	if err != nil {
		return "", nil, err
	}
	funcs, err := h.funcionarios(c, x.EmpresaID, ps, fs)
	if err != nil {
		return "", nil, err
	}
	a := core.AEJ{
		Cabecalho: core.AEJCabecalho{Empregador: emp.CNPJ, RazaoSocial: emp.RazaoSocial, Inicio: inicio, Fim: fim,
			Geracao: now, OffsetMinutes: core.Offset(now, emp.Zone)},
		REPs: []core.AEJREP{{ID: repID, Tipo: core.REPTipoP, Numero: h.rep.INPI}},
		PTRP: h.ptrp,
	}
	assemble(&a, funcs, ps, fs)
	if h.apuracao != nil {
		today := time.Date(now.In(emp.Zone).Year(), now.In(emp.Zone).Month(), now.In(emp.Zone).Day(), 0, 0, 0, 0, time.UTC)
		if a.Ausencias, err = h.ausencias(c, x.EmpresaID, funcs, inicio, fim, today); err != nil {
			return "", nil, err
		}
	}
	file, err = core.FormatAEJ(a)
	return core.NomeArquivoAEJ(emp.CNPJ, inicio, fim), file, err
}

// funcionarios are the employees the period's punches and absences name,
// in id order, from the employee service (the bonds of the file).
func (h *Handlers) funcionarios(c *fiber.Ctx, empresaID int64, ps []tratamento.MarcacaoTratada, fs []falta.Ausencia) (
	[]employee.Funcionario, error) {
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
		got, err := h.employees.Funcionarios(c.UserContext(), chunk, nil)
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
// employee's weekly shifts, equal shifts sharing one record; a worked day
// without a shift (a rest day) names the schedule's contractual shift
// (core.TurnoContratual), core.SemJornada only without any schedule; each workday's punches
// as the treatment left them (core.MarcacoesDoDia).
func assemble(a *core.AEJ, funcs []employee.Funcionario, ps []tratamento.MarcacaoTratada, fs []falta.Ausencia) {
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
		day := make([]core.MarcacaoTratada, 0, j-i)
		for _, p := range ps[i:j] {
			day = append(day, marcacaoTratada(p))
		}
		escala := escalas[ps[i].FuncionarioID]
		turno := escala.Turno(ps[i].Jornada)
		a.Marcacoes = append(a.Marcacoes, core.MarcacoesDoDia(vinculo[ps[i].FuncionarioID], repID, ps[i].Jornada,
			day, turno, horario(core.TurnoContratual(escala, turno)))...)
		i = j
	}
	for _, f := range fs {
		a.Ausencias = append(a.Ausencias, core.AEJAusencia{Vinculo: vinculo[f.FuncionarioID], Tipo: core.AusenciaFalta,
			Data: f.Data})
	}
}

// ausencias are the type-07 records of funcs (bonds numbered from 1 in
// their order) from inicio to fim, computed up to the day before today
// (a day under way is no absence yet): the workday rules' absences, the
// paid weekly rest days within the bond and the hour-bank movements
// (core.AusenciasAEJ) — what the timesheet and the report show.
func (h *Handlers) ausencias(c *fiber.Ctx, empresaID int64, funcs []employee.Funcionario, inicio, fim, today time.Time) (
	[]core.AEJAusencia, error) {
	ate := fim
	if y := today.AddDate(0, 0, -1); y.Before(ate) {
		ate = y
	}
	out := []core.AEJAusencia{}
	if ate.Before(inicio) || len(funcs) == 0 {
		return out, nil
	}
	ctx := c.UserContext()
	escalas := map[int64]*core.Escala{}
	for _, f := range funcs {
		escalas[f.EscalaTrabalhoID] = f.Escala.Core()
	}
	res, err := h.apuracao.Apurar(ctx, apuracao.Consulta{EmpresaID: empresaID, Funcionarios: funcs, Escalas: escalas,
		Inicio: inicio, Fim: ate, DSR: true, Detalhe: func(int) bool { return true },
		Banco: &apuracao.ConsultaBanco{Ate: ate, ApurarAte: ate, Desde: inicio}})
	if err != nil {
		return nil, err
	}
	for i, a := range res.Each() {
		var faltas []time.Time
		for _, d := range a.Dias {
			if d.Falta {
				t, _ := time.Parse(time.DateOnly, d.Data)
				faltas = append(faltas, t)
			}
		}
		out = append(out, core.AusenciasAEJ(i+1, faltas, descansos(a.Funcionario, res.InicioUso(), a.DSR),
			movimentos(*a.Banco))...)
	}
	return out, nil
}

// descansos are rs as the core reads them, those outside f's employment
// bond or before the company's first day on ponto (inicioUso) left out.
func descansos(f employee.Funcionario, inicioUso *time.Time, rs []apuracao.DSR) []core.DSR {
	out := make([]core.DSR, 0, len(rs))
	for _, r := range rs {
		d, err := time.Parse(time.DateOnly, r.Data)
		if err == nil && !f.ForaDoVinculo(d) && !core.AntesDoUso(d, inicioUso) {
			out = append(out, core.DSR{Data: d, Perdido: r.Perdido})
		}
	}
	return out
}

// movimentos are s's movements as the core reads them.
func movimentos(s apuracao.Saldo) []core.MovimentoBanco {
	out := make([]core.MovimentoBanco, 0, len(s.Movimentos))
	for _, m := range s.Movimentos {
		if d, err := time.Parse(time.DateOnly, m.Data); err == nil {
			out = append(out, core.MovimentoBanco{Data: d, Tipo: m.Tipo, Minutos: m.Minutos})
		}
	}
	return out
}

// marcacaoTratada is p as the core reads it: an original's reason only with its
// approved adjustment.
func marcacaoTratada(p tratamento.MarcacaoTratada) core.MarcacaoTratada {
	motivo := ""
	if p.Motivo != nil && (p.NSR == nil || p.Aprovado()) {
		motivo = *p.Motivo
	}
	desc := ""
	if p.MotivoDesc != nil {
		desc = *p.MotivoDesc
	}
	return core.MarcacaoTratada{Horario: p.Horario, OffsetMinutes: int(p.Fuso), Original: p.NSR != nil, Motivo: motivo,
		Desconsiderada: p.Desconsiderada, MotivoDesc: desc, Ajustado: p.Ajustado()}
}
