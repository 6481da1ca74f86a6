package apuracao

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// Marcacoes are a report day's punches in NSR order, as the SQL's
// parallel arrays (marcacoesColumns). The JSON answers spell each one out
// as a Marcacao; the CSV writes its column straight from the arrays, so a
// whole department's punches become neither objects nor JSON on the way.
type Marcacoes struct {
	ids         []int64
	tipos       []string
	registradas []time.Time
	efetivas    []time.Time
	status      []string
	// locais are the effective times as the day's marcas (Dia.marcas):
	// minutes after the workday's local midnight.
	locais []int
	// incluidas and desconsideradas are the day's treatment of each punch.
	incluidas, desconsideradas []bool
}

// Marcacao is one punch of a report day, as the contract spells it.
type Marcacao struct {
	ID              int64  `json:"id"`
	Tipo            string `json:"tipo"`
	HorarioRegistro string `json:"horarioRegistro"`
	// HorarioEfetivo is the approved adjustment's time, else the
	// original, to the minute.
	HorarioEfetivo string `json:"horarioEfetivo"`
	// HoraLocal is the effective time in the company's zone, HH:MM.
	HoraLocal string `json:"horaLocal"`
	Status    string `json:"status"`
	// Origem is "original" (the REP's) or "incluída" (by the company,
	// status "marcação incluída pela empresa", no NSR); Desconsiderada
	// marks a punch the workday does not count.
	Origem         string `json:"origem"`
	Desconsiderada bool   `json:"desconsiderada"`
}

const minutesPerDay = 24 * 60

var errMarcacoes = errors.New("punch arrays of different lengths")

// check refuses arrays that do not describe the same punches: the SQL
// builds them together, and a change to it should fail here rather than
// panic while rendering. Rows without punches (the totals' rows) have no
// arrays but still their marcas.
func (m Marcacoes) check() error {
	n := len(m.ids)
	if len(m.tipos) != n || len(m.registradas) != n || len(m.efetivas) != n || len(m.status) != n ||
		(n > 0 && len(m.locais) != n) {
		return errMarcacoes
	}
	return nil
}

// list spells the punches out, an empty list when there are none.
func (m Marcacoes) list() []Marcacao {
	out := make([]Marcacao, len(m.ids))
	for i := range out {
		out[i] = Marcacao{ID: m.ids[i], Tipo: m.tipo(i), HorarioRegistro: clock.FormatISO(m.registradas[i]),
			HorarioEfetivo: clock.FormatISO(m.efetivas[i]), HoraLocal: string(appendHora(nil, m.locais[i])),
			Status: m.status[i], Origem: origemOriginal, Desconsiderada: at(m.desconsideradas, i)}
		if at(m.incluidas, i) {
			out[i].Origem = origemIncluida
		}
	}
	return out
}

// Origins of a punch.
const (
	origemOriginal = "original"
	origemIncluida = "incluída"
)

// tipo is punch i's tipo: the REP's for an original; for an inclusion,
// its place among the day's counted punches by time (core.NextTipo).
func (m Marcacoes) tipo(i int) string {
	if !at(m.incluidas, i) {
		return m.tipos[i]
	}
	pos := 0
	for j, l := range m.locais {
		if j != i && !at(m.desconsideradas, j) && (l < m.locais[i] || (l == m.locais[i] && j < i)) {
			pos++
		}
	}
	return core.NextTipo(pos)
}

func at(bs []bool, i int) bool { return i < len(bs) && bs[i] }

// MarshalJSON writes the punches as the contract's array of Marcacao.
func (m Marcacoes) MarshalJSON() ([]byte, error) { return json.Marshal(m.list()) }

// AppendText appends the report CSV's marcacoes column to buf: "08:02 entrada |
// 12:00 almoço (ajustada)", local effective times, marking adjusted and
// pending punches.
func (m Marcacoes) AppendText(buf []byte) []byte {
	for i, tipo := range m.tipos {
		if i > 0 {
			buf = append(buf, " | "...)
		}
		buf = appendHora(buf, m.locais[i])
		buf = append(buf, ' ')
		if tipo == "" {
			tipo = m.tipo(i)
		}
		buf = append(buf, tipo...)
		switch {
		case at(m.desconsideradas, i):
			buf = append(buf, " (desconsiderada)"...)
			continue
		case at(m.incluidas, i):
			buf = append(buf, " (incluída)"...)
			continue
		}
		switch m.status[i] {
		case "ajuste aprovado pela empresa":
			buf = append(buf, " (ajustada)"...)
		case "ajuste solicitado":
			buf = append(buf, " (ajuste pendente)"...)
		}
	}
	return buf
}

// appendHora appends the local clock time (HH:MM) of a mark, whichever
// date it falls on: a mark is minutes after the workday's local midnight,
// below 0 or past a day when an approved adjustment moved the punch to
// another date, and local times are whole minutes (the effective time is
// truncated to the minute), so this is what PostgreSQL's to_char(efetivo
// AT TIME ZONE zone, 'HH24:MI') gives.
func appendHora(buf []byte, mark int) []byte {
	m := (mark%minutesPerDay + minutesPerDay) % minutesPerDay
	h, mi := m/60, m%60
	return append(buf, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10))
}
