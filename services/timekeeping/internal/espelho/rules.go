package espelho

import (
	"fmt"
	"time"

	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
	"github.com/ponto/ponto/services/timekeeping/internal/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/relatorio"
)

// Origins of a treated punch (as the AEJ names them: original of the REP,
// or included by the company's approval of an adjustment).
const (
	OrigemOriginal = "original"
	OrigemIncluida = "incluída"
)

// diasSemana names the weekdays, Monday first (the schedule's order).
var diasSemana = [7]string{"segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"}

// Espelho is the timesheet of one employee and month.
type Espelho struct {
	Empregador        Empregador          `json:"empregador"`
	Funcionario       Funcionario         `json:"funcionario"`
	Periodo           Periodo             `json:"periodo"`
	FusoHorario       string              `json:"fusoHorario"`
	HorarioContratual []HorarioContratual `json:"horarioContratual"`
	Dias              []Dia               `json:"dias"`
	Totais            relatorio.Totais    `json:"totais"`
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
}

// Original is a punch as the REP recorded it.
type Original struct {
	RegistroID      int64   `json:"registroId"`
	NSR             int64   `json:"nsr"`
	Tipo            string  `json:"tipo"`
	Horario         string  `json:"horario"`
	HorarioRegistro string  `json:"horarioRegistro"`
	Ajuste          *string `json:"ajuste"`
}

// Tratada is a punch the day's figures use.
type Tratada struct {
	RegistroID int64   `json:"registroId"`
	Tipo       string  `json:"tipo"`
	Horario    string  `json:"horario"`
	Origem     string  `json:"origem"`
	Motivo     *string `json:"motivo"`
}

// Desconsiderada is an original punch replaced by an approved adjustment.
type Desconsiderada struct {
	RegistroID int64  `json:"registroId"`
	Horario    string `json:"horario"`
	Motivo     string `json:"motivo"`
}

// Dia is one day of the timesheet: the punches, original and treated, and
// the report's figures for it (package clt's rules applied).
type Dia struct {
	relatorio.Dia
	DiaSemana          string           `json:"diaSemana"`
	MarcacoesOriginais []Original       `json:"marcacoesOriginais"`
	MarcacoesTratadas  []Tratada        `json:"marcacoesTratadas"`
	Desconsideradas    []Desconsiderada `json:"desconsideradas"`
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
		out = append(out, HorarioContratual{DiaSemana: diasSemana[i], Entrada: h.Entrada,
			SaidaAlmoco: clockTime(entrada + h.SaidaAlmoco), RetornoAlmoco: clockTime(entrada + h.RetornoAlmoco),
			Saida: clockTime(entrada + h.Saida), MinutosPrevistos: h.Saida - (h.RetornoAlmoco - h.SaidaAlmoco)})
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

// tratar splits a day's original punches into what the REP recorded,
// what the figures use and what an approved adjustment replaced, with its
// reason. Pending and rejected requests leave the original standing.
func tratar(ps []punch, zone *time.Location) ([]Original, []Tratada, []Desconsiderada) {
	orig, trat, desc := []Original{}, []Tratada{}, []Desconsiderada{}
	for _, p := range ps {
		hora := p.Horario.In(zone).Format("15:04")
		orig = append(orig, Original{RegistroID: p.ID, NSR: p.NSR, Tipo: p.Tipo, Horario: hora,
			HorarioRegistro: clock.FormatISO(p.Horario), Ajuste: p.Ajuste})
		if p.Ajuste != nil && *p.Ajuste == registro.StatusAprovado && p.DataSolicitar != nil {
			desc = append(desc, Desconsiderada{RegistroID: p.ID, Horario: hora, Motivo: deref(p.Motivo)})
			trat = append(trat, Tratada{RegistroID: p.ID, Tipo: p.Tipo, Horario: p.DataSolicitar.In(zone).Format("15:04"),
				Origem: OrigemIncluida, Motivo: p.Motivo})
			continue
		}
		trat = append(trat, Tratada{RegistroID: p.ID, Tipo: p.Tipo, Horario: hora, Origem: OrigemOriginal})
	}
	return orig, trat, desc
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
