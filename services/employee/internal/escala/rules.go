// Package escala keeps work schedules (escalas de trabalho): what a
// company expects of an employee on each working day.
//
// A schedule's horarios has one entry per working day of the week, in
// order from Monday: entry 0 is Monday, entry 1 Tuesday... up to entry 6,
// Sunday. Days past the last entry are rest days, so five entries describe
// Monday to Friday. Each entry starts at entrada (HH:MM, company local
// time) and gives saidaAlmoco, retornoAlmoco and saida in minutes after
// entrada, strictly increasing, the whole shift within 24 hours (a shift
// may cross midnight: entrada 22:00 with saida 480 ends at 06:00).
package escala

import (
	"fmt"
	"strings"

	"github.com/ponto/ponto/pkg/validate"
)

// Limits of a schedule.
const (
	MaxHorarios   = 7    // one entry per weekday
	MaxShift      = 1440 // minutes: a shift lasts at most 24 hours
	nomeMinLength = 1
	nomeMaxLength = 100
)

// Horario is one working day of a schedule.
type Horario struct {
	Entrada       string `json:"entrada"`
	SaidaAlmoco   int    `json:"saidaAlmoco"`
	RetornoAlmoco int    `json:"retornoAlmoco"`
	Saida         int    `json:"saida"`
}

// Escala is a stored schedule, as every route answers it: the three
// fields the contract names, exactly as sent, plus the new id.
type Escala struct {
	ID        int64     `json:"id"`
	EmpresaID int64     `json:"empresaId"`
	Nome      string    `json:"nome"`
	Horarios  []Horario `json:"horarios"`
}

// createInput is the body of POST /escalatrabalhos. Pointers tell a
// missing value from a zero one, so each gets its own message.
type createInput struct {
	EmpresaID int64          `json:"empresaId"`
	Nome      string         `json:"nome"`
	Horarios  []horarioInput `json:"horarios"`
}

// Empresa is the company the body names (request.CompanyBody).
func (in *createInput) Empresa() int64 { return in.EmpresaID }

type horarioInput struct {
	Entrada       *string `json:"entrada"`
	SaidaAlmoco   *int    `json:"saidaAlmoco"`
	RetornoAlmoco *int    `json:"retornoAlmoco"`
	Saida         *int    `json:"saida"`
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
	return out, v.Err()
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
