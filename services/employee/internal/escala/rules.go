// Package escala keeps work schedules (escalas de trabalho): what a
// company expects of an employee on each working day.
//
// A schedule's horarios has one entry per working day of the week, in
// order from Monday: entry 0 is Monday, entry 1 Tuesday... up to entry 6,
// Sunday. Days past the last entry are rest days, so five entries describe
// Monday to Friday. Each entry starts at entrada (HH:MM, company local
// time) and gives saidaAlmoco, retornoAlmoco and saida in minutes after
// entrada, strictly increasing, the whole shift within 24 hours (a shift
// may cross midnight: entrada 22:00 with saida 480 ends at 06:00). A
// day's shift must end before the next day's starts (see Overlap).
package escala

import (
	"fmt"
	"strings"
	"time"

	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/employee/internalapi"
)

// Limits of a schedule.
const (
	MaxHorarios   = 7    // one entry per weekday
	MaxShift      = 1440 // minutes: a shift lasts at most 24 hours
	MaxShift12x36 = 720  // minutes: the shift of a 12x36
	nomeMinLength = 1
	nomeMaxLength = 100
)

// Horario is one working day of a schedule, as the internal API defines
// it.
type Horario = internalapi.Horario

// Escala is a stored schedule, as every route answers it: the three
// fields the contract names, exactly as sent, plus the new id (the
// internal API's type: timekeeping reads it with every employee).
type Escala = internalapi.Escala

// Tipos of schedule.
const (
	TipoSemanal = "semanal"
	Tipo12x36   = "12x36"
)

// createInput is the body of POST /escalatrabalhos. Pointers tell a
// missing value from a zero one, so each gets its own message.
type createInput struct {
	EmpresaID int64          `json:"empresaId"`
	Nome      string         `json:"nome"`
	Horarios  []horarioInput `json:"horarios"`
	// Tipo ("semanal", the default, or "12x36") and DataInicio, the 12x36's
	// anchor date, are optional additions to the contract's body.
	Tipo       *string `json:"tipo"`
	DataInicio *string `json:"dataInicio"`
	// DescansoSemanal names the weekly rest days (optional, Sunday).
	DescansoSemanal []int `json:"descansoSemanal"`
}

// Empresa is the company the body names (request.CompanyBody).
func (in *createInput) Empresa() int64 { return in.EmpresaID }

type horarioInput struct {
	Entrada       *string `json:"entrada"`
	SaidaAlmoco   *int    `json:"saidaAlmoco"`
	RetornoAlmoco *int    `json:"retornoAlmoco"`
	Saida         *int    `json:"saida"`
	// IntervaloPreAssinalado is optional (false).
	IntervaloPreAssinalado *bool `json:"intervaloPreAssinalado"`
}

// check validates the body and returns the schedule to store.
func (in createInput) check() (Escala, error) {
	v := validate.Errors{}
	v.Check(in.EmpresaID > 0, "empresaId", "campo obrigatório")
	if v.Required(in.Nome, "nome") {
		v.Length(in.Nome, "nome", nomeMinLength, nomeMaxLength)
		v.Check(trimmed(in.Nome), "nome", "não pode começar nem terminar com espaços")
	}
	v.Check(len(in.Horarios) > 0, "horarios", "informe ao menos um horário")
	v.Check(len(in.Horarios) <= MaxHorarios, "horarios", fmt.Sprintf("no máximo %d horários, um por dia da semana", MaxHorarios))
	out := Escala{EmpresaID: in.EmpresaID, Nome: in.Nome, Horarios: make([]Horario, 0, len(in.Horarios))}
	for i, h := range in.Horarios {
		if i >= MaxHorarios {
			break
		}
		out.Horarios = append(out.Horarios, h.check(v, fmt.Sprintf("horarios[%d].", i)))
	}
	if in.Tipo != nil && *in.Tipo == Tipo12x36 {
		out.Tipo, out.DataInicio = Tipo12x36, in.DataInicio
		v.Check(in.DescansoSemanal == nil, "descansoSemanal",
			"a escala 12x36 já inclui o descanso semanal (CLT art. 59-A): não informe dias de descanso")
		return out, in.check12x36(v, out)
	}
	v.Check(in.Tipo == nil || *in.Tipo == TipoSemanal, "tipo", "use semanal ou 12x36")
	v.Check(in.DataInicio == nil, "dataInicio", "só a escala 12x36 tem data de início")
	out.DescansoSemanal = checkDescanso(v, in.DescansoSemanal, len(in.Horarios))
	if len(v) == 0 {
		if i, overlap := Overlap(out.Horarios); overlap {
			v.Check(false, fmt.Sprintf("horarios[%d]", i), fmt.Sprintf(
				"o turno de %s termina depois do início do turno de %s", weekdays[i], weekdays[(i+1)%MaxHorarios]))
		}
	}
	return out, v.Err()
}

// check12x36 adds a 12x36's rules to v: one entry, a shift of at most
// 12 hours, and the anchor date (2000-01-01 to 2100-12-31).
func (in createInput) check12x36(v validate.Errors, out Escala) error {
	v.Check(len(in.Horarios) == 1, "horarios", "a escala 12x36 tem um único horário, o do turno de 12 horas")
	if len(out.Horarios) == 1 {
		v.Check(out.Horarios[0].Saida <= MaxShift12x36, "horarios[0].saida", "o turno da escala 12x36 dura no máximo 12 horas (720 minutos)")
	}
	if in.DataInicio == nil {
		v.Check(false, "dataInicio", "obrigatória para a escala 12x36: a data do primeiro turno (AAAA-MM-DD)")
	} else {
		d, err := time.Parse(time.DateOnly, *in.DataInicio)
		v.Check(err == nil && d.Year() >= 2000 && d.Year() <= 2100, "dataInicio", "data inválida (use AAAA-MM-DD, de 2000 a 2100)")
	}
	return v.Err()
}

// checkDescanso validates the weekly rest days of a weekly schedule with
// working days entries: 1 to 7 distinct weekdays (0 Monday ... 6
// Sunday), none of them a working day (an entry of horarios); nil when
// absent (Sunday). The answer keeps them in weekday order.
func checkDescanso(v validate.Errors, dias []int, working int) []int {
	if dias == nil {
		return nil
	}
	const field = "descansoSemanal"
	if len(dias) < 1 || len(dias) > MaxHorarios {
		v.Check(false, field, "informe de 1 a 7 dias (0 = segunda-feira ... 6 = domingo)")
		return nil
	}
	var seen [MaxHorarios]bool
	for _, d := range dias {
		msg := ""
		switch {
		case d < 0 || d >= MaxHorarios:
			msg = "cada dia de 0 (segunda-feira) a 6 (domingo)"
		case seen[d]:
			msg = "dia de descanso repetido"
		case d < working:
			msg = "o dia de descanso (" + weekdays[d] + ") tem horário de trabalho na escala"
		}
		if msg != "" {
			v.Check(false, field, msg)
			return nil
		}
		seen[d] = true
	}
	out := make([]int, 0, len(dias))
	for d, ok := range seen {
		if ok {
			out = append(out, d)
		}
	}
	return out
}

// minutesPerDay and week place the shifts on one week's timeline.
const (
	minutesPerDay = 24 * 60
	week          = MaxHorarios * minutesPerDay
)

// weekdays names the entries in messages, from Monday.
var weekdays = [MaxHorarios]string{"segunda-feira", "terça-feira", "quarta-feira", "quinta-feira",
	"sexta-feira", "sábado", "domingo"}

// Overlap finds the first day whose shift runs into the next day's: on a
// timeline from Monday 00:00, day i's shift runs from i days plus its
// entrada to that plus saida (so past midnight, even into the next day,
// when entrada+saida passes 24 h), and it must end no later than day
// i+1's shift starts. With all seven days, Sunday's shift is checked
// against the next Monday's. Only neighbours can meet, since no shift
// lasts over 24 hours. hs must be valid entries (HH:MM entradas).
func Overlap(hs []Horario) (day int, overlap bool) {
	start := func(i int) int {
		m, _ := validate.ClockTime(hs[i%len(hs)].Entrada)
		return i*minutesPerDay + m
	}
	for i := range hs {
		next := i + 1
		if next == len(hs) && len(hs) < MaxHorarios {
			break // rest days follow: nothing to meet
		}
		if start(i)+hs[i].Saida > start(next) {
			return i, true
		}
	}
	return 0, false
}

// check records the entry's problems under prefix (e.g. "horarios[0].").
func (h horarioInput) check(v validate.Errors, prefix string) Horario {
	var out Horario
	if h.Entrada == nil {
		v.Check(false, prefix+"entrada", "campo obrigatório")
	} else {
		_, ok := validate.ClockTime(*h.Entrada)
		v.Check(ok, prefix+"entrada", "deve estar no formato HH:MM (00:00 a 23:59)")
		out.Entrada = *h.Entrada
	}
	out.SaidaAlmoco = minutes(v, h.SaidaAlmoco, prefix+"saidaAlmoco")
	out.RetornoAlmoco = minutes(v, h.RetornoAlmoco, prefix+"retornoAlmoco")
	out.Saida = minutes(v, h.Saida, prefix+"saida")
	out.IntervaloPreAssinalado = h.IntervaloPreAssinalado != nil && *h.IntervaloPreAssinalado
	if h.SaidaAlmoco != nil && h.RetornoAlmoco != nil && h.Saida != nil {
		v.Check(out.SaidaAlmoco < out.RetornoAlmoco, prefix+"retornoAlmoco", "deve ser maior que saidaAlmoco")
		v.Check(out.RetornoAlmoco < out.Saida, prefix+"saida", "deve ser maior que retornoAlmoco")
	}
	return out
}

// minutes checks one offset after entrada: 1 to MaxShift.
func minutes(v validate.Errors, m *int, field string) int {
	if m == nil {
		v.Check(false, field, "campo obrigatório")
		return 0
	}
	v.Check(*m >= 1 && *m <= MaxShift, field, fmt.Sprintf("deve ser um inteiro de minutos após a entrada, entre 1 e %d", MaxShift))
	return *m
}

// DailyMinutes is the work expected on a working day: the shift minus the
// lunch break, averaged over the schedule's entries (rounded down) when
// they differ. It is the employee record's horarioTrabalho.
func DailyMinutes(hs []Horario) int {
	if len(hs) == 0 {
		return 0
	}
	total := 0
	for _, h := range hs {
		total += h.Saida - (h.RetornoAlmoco - h.SaidaAlmoco)
	}
	return total / len(hs)
}

// trimmed reports whether s has no surrounding blanks; names are stored
// as sent, so " Comercial" would otherwise differ from "Comercial".
func trimmed(s string) bool { return strings.TrimSpace(s) == s }
