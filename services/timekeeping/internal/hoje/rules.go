// Package hoje is the manager's day at a glance, GET /registropontos/hoje:
// where each active employee stands now (core.SituacaoDe), what waits for
// treatment in the open period, and the health of the records.
package hoje

import (
	"fmt"
	"strings"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
)

// Hoje is the JSON answer.
type Hoje struct {
	Data         string  `json:"data"`
	Agora        string  `json:"agora"`
	FusoHorario  string  `json:"fusoHorario"`
	Departamento *string `json:"departamento"`
	// Estabelecimento is the establishment filter as asked, null without.
	Estabelecimento *int64                `json:"estabelecimento"`
	Contagens       map[core.Situacao]int `json:"contagens"`
	Funcionarios    []Pessoa              `json:"funcionarios"`
	Pendencias      Pendencias            `json:"pendencias"`
	Saude           Saude                 `json:"saude"`
}

// Pessoa is one employee now.
type Pessoa struct {
	ID           int64         `json:"id"`
	Nome         string        `json:"nome"`
	Departamento string        `json:"departamento"`
	Situacao     core.Situacao `json:"situacao"`
	// EntradaPrevista is today's scheduled entrada ("HH:MM"), null
	// without a shift; Marcacoes the punches that count, "HH:MM" local.
	EntradaPrevista *string  `json:"entradaPrevista"`
	Marcacoes       []string `json:"marcacoes"`
}

// Pendencias are what waits for the company's treatment.
type Pendencias struct {
	// Ajustes and Solicitacoes count the adjustment and inclusion
	// requests not decided yet.
	Ajustes      int `json:"ajustes"`
	Solicitacoes int `json:"solicitacoes"`
	// PeriodoAberto is the open period's first date (the day after the
	// latest standing closing, at most maxAberto days back); DiasImpares
	// and Alertas its days before today with an odd number of punches or
	// alerts (at most maxLista each).
	PeriodoAberto string        `json:"periodoAberto"`
	DiasImpares   []DiaPendente `json:"diasImpares"`
	Alertas       []DiaPendente `json:"alertas"`
	// MesFechado is the latest closed month ("YYYY-MM", null: none);
	// SemCiencia the listed employees who have not acknowledged it.
	MesFechado *string `json:"mesFechado"`
	SemCiencia []Nome  `json:"semCiencia"`
}

// DiaPendente is one employee's day needing treatment.
type DiaPendente struct {
	FuncionarioID int64    `json:"funcionarioId"`
	Nome          string   `json:"nome"`
	Data          string   `json:"data"`
	Marcacoes     int      `json:"marcacoes"`
	Alertas       []string `json:"alertas"`
}

// Nome names an employee.
type Nome struct {
	ID   int64  `json:"id"`
	Nome string `json:"nome"`
}

// Saude is the health of the company's records.
type Saude struct {
	// Cadeia is the last chain audit (GET /registropontos/cadeia's).
	Cadeia any `json:"cadeia"`
	// CertificadoDiasRestantes: whole days the signing certificate stays
	// valid, null without one.
	CertificadoDiasRestantes *int `json:"certificadoDiasRestantes"`
	// EventosIndisponibilidade counts this month's REP unavailability
	// events (AFD type 6, code 07).
	EventosIndisponibilidade int `json:"eventosIndisponibilidade"`
}

// Limits of the lists of pending days.
const (
	maxLista  = 100
	maxAberto = 62 // days
)

// Membro is one listed employee: id, name, department and zone.
type Membro struct {
	ID           int64
	Nome         string
	Departamento string
	Escala       *core.Escala
	Zona         *time.Location
}

// Situacao places employee m now, at instant now, on date hoje from his
// row of today (nil: no row, a day without shift, punch or record).
func Situacao(m Membro, hoje, now time.Time, dia *apuracao.Dia) Pessoa {
	turno := m.Escala.Turno(hoje)
	a := core.Agora{Turno: turno, Minuto: minutoDe(hoje, now, m.Zona)}
	if dia != nil {
		a.Marcas, a.Feriado, a.Falta = dia.Contadas(), dia.Feriado != nil, dia.Falta
		a.Afastado = dia.AbonoDiaInteiro() || dia.Afastamento != nil
	}
	p := Pessoa{ID: m.ID, Nome: m.Nome, Departamento: m.Departamento, Situacao: core.SituacaoDe(a),
		Marcacoes: make([]string, len(a.Marcas))}
	for i, v := range a.Marcas {
		p.Marcacoes[i] = hhmm(v)
	}
	if turno != nil {
		e := hhmm(turno.Entrada)
		p.EntradaPrevista = &e
	}
	return p
}

// minutoDe is now in minutes after date hoje's local midnight in loc.
func minutoDe(hoje, now time.Time, loc *time.Location) int {
	y, mo, d := hoje.Date()
	return int(now.Sub(time.Date(y, mo, d, 0, 0, 0, 0, loc)) / time.Minute)
}

// hhmm spells minutes after midnight as the clock shows them (past 24:00
// for a night shift's next morning).
func hhmm(m int) string {
	h, mm := m/60, ((m%60)+60)%60
	if h < 0 || h > 99 { // out of the two digits the fast path writes
		return fmt.Sprintf("%02d:%02d", h, mm)
	}
	return string([]byte{byte('0' + h/10), byte('0' + h%10), ':', byte('0' + mm/10), byte('0' + mm%10)})
}

// Count sums the people by situation, every situation present.
func Count(ps []Pessoa) map[core.Situacao]int {
	out := make(map[core.Situacao]int, len(core.Situacoes))
	for _, s := range core.Situacoes {
		out[s] = 0
	}
	for _, p := range ps {
		out[p.Situacao]++
	}
	return out
}

// Pendente adds employee m's day d of the open period to the lists it
// belongs to: an odd number of counted punches, alerts.
func (p *Pendencias) Pendente(m Membro, d *apuracao.Dia) {
	n := len(d.Contadas())
	item := DiaPendente{FuncionarioID: m.ID, Nome: m.Nome, Data: d.Data, Marcacoes: n, Alertas: d.Alertas}
	if item.Alertas == nil {
		item.Alertas = []string{}
	}
	if n%2 == 1 && len(p.DiasImpares) < maxLista {
		p.DiasImpares = append(p.DiasImpares, item)
	}
	if len(d.Alertas) > 0 && len(p.Alertas) < maxLista {
		p.Alertas = append(p.Alertas, item)
	}
}

// inDepartamento reports whether department name dep is the filter's
// (any case; an empty filter takes all).
func inDepartamento(dep, filtro string) bool {
	return filtro == "" || strings.EqualFold(dep, filtro)
}
