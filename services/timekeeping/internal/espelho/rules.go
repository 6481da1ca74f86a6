package espelho

import (
	"fmt"
	"sort"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/abono"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/estabelecimento"
	"github.com/ponto/ponto/services/timekeeping/internal/tratamento"
)

// Origins of a treated punch (art. 84 V): original of the REP, included
// by the company (directly, or by approving an adjustment), or the
// schedule's pre-assigned break.
const (
	OrigemOriginal      = "original"
	OrigemIncluida      = "incluída"
	OrigemPreAssinalada = "pré-assinalada"
)

// diasSemana names the weekdays, Monday first (the schedule's order).
var diasSemana = [7]string{"segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"}

// Espelho is the timesheet of one employee and month.
type Espelho struct {
	Empregador Empregador `json:"empregador"`
	// Estabelecimento is the employee's establishment (null while
	// company-billing has not told timekeeping of it).
	Estabelecimento   *estabelecimento.Estabelecimento `json:"estabelecimento"`
	Funcionario       Funcionario                      `json:"funcionario"`
	Periodo           Periodo                          `json:"periodo"`
	FusoHorario       string                           `json:"fusoHorario"`
	HorarioContratual []HorarioContratual              `json:"horarioContratual"`
	Dias              []Dia                            `json:"dias"`
	Totais            apuracao.Totais                  `json:"totais"`
	// DSR are the month's weekly rest days, lost or not; BancoHoras the
	// hour bank at the month's last computed day, with the month's
	// movements.
	DSR        []apuracao.DSR `json:"dsr"`
	BancoHoras apuracao.Saldo `json:"bancoHoras"`
}

// Empregador is the employer.
type Empregador struct {
	RazaoSocial string `json:"razaoSocial"`
	Nome        string `json:"nome"`
	CNPJ        string `json:"cnpj"`
}

// Funcionario is the employee.
type Funcionario struct {
	ID    int64  `json:"id"`
	Nome  string `json:"nome"`
	CPF   string `json:"cpf"`
	Cargo string `json:"cargo"`
	// DataAdmissao is the admission date (YYYY-MM-DD) of the employee
	// record, null when it has none.
	DataAdmissao *string `json:"dataAdmissao"`
}

// Periodo is the month; computed up to today when the month is current.
type Periodo struct {
	Mes          string `json:"mes"`
	Inicio       string `json:"inicio"`
	Fim          string `json:"fim"`
	ApuradoAte   string `json:"apuradoAte"`
	EscalaNome   string `json:"escala"`
	EscalaID     int64  `json:"escalaId"`
	GeradoEm     string `json:"geradoEm"`
	TotalDeDias  int    `json:"totalDeDias"`
	DiasApurados int    `json:"diasApurados"`
}

// HorarioContratual is the schedule of one weekday, in local times.
type HorarioContratual struct {
	DiaSemana        string `json:"diaSemana"`
	Entrada          string `json:"entrada"`
	SaidaAlmoco      string `json:"saidaAlmoco"`
	RetornoAlmoco    string `json:"retornoAlmoco"`
	Saida            string `json:"saida"`
	MinutosPrevistos int    `json:"minutosPrevistos"`
	// IntervaloPreAssinalado: the break is pre-assigned (counted without
	// punches).
	IntervaloPreAssinalado bool `json:"intervaloPreAssinalado"`
	// MinutosAEJ is the shift's duration as the AEJ's type-04 record
	// writes it: night minutes reduced (art. 73 §1), so a 22:00-05:30
	// shift of 390 clock minutes (MinutosPrevistos) is longer here.
	MinutosAEJ int `json:"minutosAEJ"`
}

// Original is a punch as the REP recorded it.
type Original struct {
	RegistroID      int64   `json:"registroId"`
	NSR             int64   `json:"nsr"`
	Tipo            string  `json:"tipo"`
	Horario         string  `json:"horario"`
	HorarioRegistro string  `json:"horarioRegistro"`
	Ajuste          *string `json:"ajuste"`
	// Desconsiderada: the company disregarded it (it stays in the AFD).
	Desconsiderada bool `json:"desconsiderada"`
}

// Tratada is a punch the day's figures use.
type Tratada struct {
	RegistroID int64   `json:"registroId"`
	Tipo       string  `json:"tipo"`
	Horario    string  `json:"horario"`
	Origem     string  `json:"origem"`
	Motivo     *string `json:"motivo"`
	// DiaSeguinte: the punch is on the calendar day after the workday's
	// date (a night shift after midnight).
	DiaSeguinte bool `json:"diaSeguinte"`
}

// Desconsiderada is a punch the day does not count: an original replaced
// by an approved adjustment, or a punch (original or included) the
// company disregarded.
type Desconsiderada struct {
	RegistroID int64  `json:"registroId"`
	Horario    string `json:"horario"`
	Motivo     string `json:"motivo"`
}

// Dia is one day of the timesheet: the punches, original and treated, and
// the report's figures for it (package clt's rules applied).
type Dia struct {
	apuracao.Dia
	DiaSemana          string           `json:"diaSemana"`
	MarcacoesOriginais []Original       `json:"marcacoesOriginais"`
	MarcacoesTratadas  []Tratada        `json:"marcacoesTratadas"`
	Desconsideradas    []Desconsiderada `json:"desconsideradas"`
	Abonos             []Abono          `json:"abonos"`
}

// Abono is an excused absence of the day: a range (local HH:MM) or the
// whole day (inicio and fim null).
type Abono struct {
	Tipo   string  `json:"tipo"`
	Inicio *string `json:"inicio"`
	Fim    *string `json:"fim"`
	Motivo string  `json:"motivo"`
}

// horarios lists the schedule's working weekdays with local times ("HH:MM",
// a time past midnight marked "+1").
func horarios(e employee.Escala) []HorarioContratual {
	out := make([]HorarioContratual, 0, len(e.Horarios))
	for i, h := range e.Horarios {
		if i > 6 {
			break
		}
		entrada, _ := validate.ClockTime(h.Entrada)
		turno := core.Turno{Entrada: entrada, SaidaAlmoco: h.SaidaAlmoco, RetornoAlmoco: h.RetornoAlmoco, Saida: h.Saida}
		dia := diasSemana[i]
		if e.Tipo == "12x36" && e.DataInicio != nil { // one shift, every second day
			dia = "12x36 a partir de " + *e.DataInicio
		}
		out = append(out, HorarioContratual{DiaSemana: dia, Entrada: h.Entrada,
			SaidaAlmoco: clockTime(entrada + h.SaidaAlmoco), RetornoAlmoco: clockTime(entrada + h.RetornoAlmoco),
			Saida: clockTime(entrada + h.Saida), MinutosPrevistos: h.Saida - (h.RetornoAlmoco - h.SaidaAlmoco),
			IntervaloPreAssinalado: h.IntervaloPreAssinalado, MinutosAEJ: core.HorarioAEJ(&turno).Duracao})
	}
	return out
}

// clockTime writes minutes after midnight as HH:MM, "+1" past midnight.
func clockTime(m int) string {
	s := fmt.Sprintf("%02d:%02d", m%1440/60, m%60)
	if m >= 1440 {
		s += " (+1)"
	}
	return s
}

// treat splits a day's punches (of workday data) into what the REP
// recorded, what the figures use and what does not count, with the
// reasons: an approved adjustment replaces the original (disregarded, the
// adjusted time included), a disregarded punch leaves, an inclusion joins,
// and when the schedule's break is pre-assigned and the day has only an
// entrada and a saída holding it, the break joins as pré-assinalada (as
// core.Treat counts it). The treated punches are in time order, each
// with its tipo by its place. Pending and rejected requests leave the
// original standing.
func treat(ps []tratamento.MarcacaoTratada, zone *time.Location, data time.Time, turno *core.Turno) ([]Original, []Tratada, []Desconsiderada) {
	orig, trat, desc := []Original{}, []Tratada{}, []Desconsiderada{}
	var at []time.Time // the effective time of each of trat
	for _, p := range ps {
		hora := p.Horario.In(zone).Format("15:04")
		if p.NSR != nil {
			orig = append(orig, Original{RegistroID: p.ID, NSR: *p.NSR, Tipo: p.Tipo, Horario: hora,
				HorarioRegistro: clock.FormatISO(p.Horario), Ajuste: p.Ajuste, Desconsiderada: p.Desconsiderada})
		}
		switch {
		case p.Desconsiderada:
			desc = append(desc, Desconsiderada{RegistroID: p.ID, Horario: hora, Motivo: deref(p.MotivoDesc)})
		case p.NSR == nil:
			trat, at = append(trat, Tratada{RegistroID: p.ID, Horario: hora, Origem: OrigemIncluida, Motivo: p.Motivo}), append(at, p.Horario)
		case p.Ajustado() != nil:
			desc = append(desc, Desconsiderada{RegistroID: p.ID, Horario: hora, Motivo: deref(p.Motivo)})
			trat = append(trat, Tratada{RegistroID: p.ID, Horario: p.DataSolicitar.In(zone).Format("15:04"),
				Origem: OrigemIncluida, Motivo: p.Motivo})
			at = append(at, *p.DataSolicitar)
		default:
			trat, at = append(trat, Tratada{RegistroID: p.ID, Horario: hora, Origem: OrigemOriginal}), append(at, p.Horario)
		}
	}
	idx := make([]int, len(trat))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return at[idx[a]].Before(at[idx[b]]) })
	sorted := make([]Tratada, 0, len(trat)+2)
	seguinte := time.Date(data.Year(), data.Month(), data.Day()+1, 0, 0, 0, 0, zone)
	for _, i := range idx {
		t := trat[i]
		t.DiaSeguinte = !at[i].Before(seguinte)
		sorted = append(sorted, t)
	}
	if s, r, ok := turno.Intervalo(); ok && turno.PreAssinalado && len(sorted) == 2 {
		midnight := time.Date(data.Year(), data.Month(), data.Day(), 0, 0, 0, 0, zone)
		marks := []int{int(at[idx[0]].Sub(midnight).Minutes()), int(at[idx[1]].Sub(midnight).Minutes())}
		if len(core.Treat(marks, core.Tratamento{}, turno)) == 4 {
			sorted = []Tratada{sorted[0], {Horario: clockTime(s), Origem: OrigemPreAssinalada},
				{Horario: clockTime(r), Origem: OrigemPreAssinalada}, sorted[1]}
		}
	}
	for i := range sorted {
		sorted[i].Tipo = core.NextTipo(i)
	}
	return orig, sorted, desc
}

// abonosDoDia renders a day's standing abonos.
func abonosDoDia(as []abono.Abono) []Abono {
	out := make([]Abono, 0, len(as))
	for _, a := range as {
		if a.Cancelamento == nil {
			out = append(out, Abono{Tipo: a.Tipo, Inicio: a.Inicio, Fim: a.Fim, Motivo: a.Motivo})
		}
	}
	return out
}

// admissao is the employee record's dataAdmissao as YYYY-MM-DD (the
// employee service answers it as an ISO timestamp), nil without one.
func admissao(f employee.Funcionario) *string {
	d, ok := f.Admissao()
	if !ok {
		return nil
	}
	s := d.Format(time.DateOnly)
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// weekday is 0 (Monday) to 6 (Sunday) of a YYYY-MM-DD date.
func weekday(data string) int {
	d, _ := time.Parse(time.DateOnly, data)
	return (int(d.Weekday()) + 6) % 7
}
