package core

import (
	"errors"
	"slices"
	"time"
)

// The time-treatment program (programa de tratamento de ponto, Portaria
// 671 arts. 82-84) may only add information to the REP's originals:
// punches the employee forgot (incluídas), punches that are wrong
// (desconsideradas), breaks marked in advance (pré-assinaladas) and
// excused absences (abonos). Tratamento is that information for one
// workday; Treat and ComputeApuracao apply it, and the originals are never
// changed.
type Tratamento struct {
	// Incluidas and Desconsideradas are parallel to Dia.Marcas (nil for
	// none): Incluidas[i] says Marcas[i] was included by the company
	// (not a REP punch); Desconsideradas[i] that it is disregarded and
	// counts nothing.
	Incluidas       []bool
	Desconsideradas []bool
	// AbonoDiaInteiro excuses the whole scheduled shift.
	AbonoDiaInteiro bool
	// Abonos are the excused time ranges of the day.
	Abonos []Abono
}

// Abono is an excused range, in minutes after the workday's local
// midnight, Inicio < Fim.
type Abono struct{ Inicio, Fim int }

// Empty reports whether t changes nothing.
func (t Tratamento) Empty() bool {
	return len(t.Incluidas) == 0 && len(t.Desconsideradas) == 0 && !t.AbonoDiaInteiro && len(t.Abonos) == 0
}

func at(bs []bool, i int) bool { return i < len(bs) && bs[i] }

// Treat is the workday's treated punches: the originals that are not
// disregarded, in their order (NSR), with the included punches that are
// not disregarded merged in by time (an included punch goes before the
// first kept punch later than it), then the break of a shift whose break
// is pre-assigned (Turno.PreAssinalado) when the day has exactly one
// period of work holding it (the employee punched only in and out). The
// result is a new slice; marcas is left as it is.
func Treat(marcas []int, t Tratamento, turno *Turno) []int {
	out := make([]int, 0, len(marcas)+2)
	var incluidas []int
	for i, m := range marcas {
		switch {
		case at(t.Desconsideradas, i):
		case at(t.Incluidas, i):
			incluidas = append(incluidas, m)
		default:
			out = append(out, m)
		}
	}
	slices.Sort(incluidas)
	for _, m := range incluidas {
		pos := len(out)
		for j, o := range out {
			if o > m {
				pos = j
				break
			}
		}
		out = slices.Insert(out, pos, m)
	}
	if s, r, ok := turno.Intervalo(); ok && turno.PreAssinalado && len(out) == 2 && out[0] <= s && r <= out[1] {
		out = []int{out[0], s, r, out[1]}
	}
	return out
}

// Intervalo is the shift's scheduled break, in minutes after its
// workday's local midnight, and false for a shift without one (or nil).
func (t *Turno) Intervalo() (saida, retorno int, ok bool) {
	if t == nil || t.SaidaAlmoco >= t.RetornoAlmoco {
		return 0, 0, false
	}
	return t.Entrada + t.SaidaAlmoco, t.Entrada + t.RetornoAlmoco, true
}

// periodos are the scheduled periods of work of a shift: [entrada, break)
// and [return, saída), or the whole shift without a break.
func (t *Turno) periodos() [][2]int {
	m := t.Marcas()
	out := make([][2]int, 0, len(m)/2)
	for i := 0; i+1 < len(m); i += 2 {
		out = append(out, [2]int{m[i], m[i+1]})
	}
	return out
}

// Abonados are the minutes an abono excuses: the scheduled minutes of the
// shift (turno) that the abonos cover and that were not worked (marcas,
// treated). They count as worked for pay and for the balance, never as
// overtime: they fill the schedule, they cannot pass it. Nothing is
// scheduled on a rest day or holiday (turno nil), so nothing is excused.
func Abonados(marcas []int, t Tratamento, turno *Turno) int {
	if turno == nil || (!t.AbonoDiaInteiro && len(t.Abonos) == 0) {
		return 0
	}
	total := 0
	for _, p := range turno.periodos() {
		for m := p[0]; m < p[1]; m++ {
			if excused(m, t) && !worked(m, marcas) {
				total++
			}
		}
	}
	return total
}

// excused reports whether minute m is under an abono.
func excused(m int, t Tratamento) bool {
	if t.AbonoDiaInteiro {
		return true
	}
	for _, a := range t.Abonos {
		if a.Inicio <= m && m < a.Fim {
			return true
		}
	}
	return false
}

// worked reports whether minute m is inside a period of work of marcas.
func worked(m int, marcas []int) bool {
	for i := 0; i+1 < len(marcas); i += 2 {
		if marcas[i] <= m && m < marcas[i+1] {
			return true
		}
	}
	return false
}

// atrasoAbonado is the part of a late arrival (from the scheduled entrada
// to the first punch) that an abono excuses.
func atrasoAbonado(entrada, primeira int, t Tratamento) int {
	n := 0
	for m := entrada; m < primeira; m++ {
		if excused(m, t) {
			n++
		}
	}
	return n
}

// GuardaAnos is how long the records are kept (the "prazo mínimo legal"
// of Portaria 671 Anexo IX item 7: five years, CLT art. 11's limitation
// period): nothing older may be treated.
const GuardaAnos = 5

// Errors of CheckInclusao, in pt-BR as the API shows them.
var (
	ErrInclusaoFutura = errors.New("não é possível incluir marcação no futuro")
	ErrInclusaoAntiga = errors.New("marcação anterior ao prazo legal de guarda (5 anos)")
)

// CheckInclusao refuses an included punch at horario in the future of now,
// or older than the keeping period.
func CheckInclusao(horario, now time.Time) error {
	switch {
	case horario.After(now):
		return ErrInclusaoFutura
	case horario.Before(now.AddDate(-GuardaAnos, 0, 0)):
		return ErrInclusaoAntiga
	}
	return nil
}
