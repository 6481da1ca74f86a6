// Package clt holds the CLT (Consolidação das Leis do Trabalho) rules the
// reports and the timesheet apply to a workday, one small function per
// rule, and ComputeApuracao, which applies them all to one day. Every limit is a
// constant here; the choices the law leaves open are explained in
// docs/compliance.md, and changing one means changing only this package.
//
// Times are minutes: a day's punches ("marcas") are minutes after the
// workday's local midnight, in punch order, each pair (0,1), (2,3), ... a
// period of work.
package core

// Art. 58 §1: variations of up to 5 minutes per punch, at most 10 a day,
// are neither overtime nor lateness.
const (
	ToleranciaMarcacao = 5
	ToleranciaDiaria   = 10
)

// Art. 71: more than 6 hours of work need a break of at least 1 hour;
// more than 4 hours (up to 6), a break of 15 minutes.
const (
	JornadaIntervaloLongo = 6 * 60
	IntervaloLongo        = 60
	JornadaIntervaloCurto = 4 * 60
	IntervaloCurto        = 15
)

// Art. 66: at least 11 consecutive hours of rest between two workdays.
const DescansoMinimo = 11 * 60

// Art. 73: night work is from 22:00 to 05:00, and its hour counts 52
// minutes and 30 seconds.
const (
	NoturnoInicio = 22 * 60
	NoturnoFim    = 5 * 60
)

// Art. 59: at most 2 hours of overtime a day.
const LimiteExtras = 2 * 60

// Alert codes of a day, in the order ComputeApuracao reports them.
const (
	AlertaIntervalo = "intervalo_insuficiente" // art. 71
	AlertaDescanso  = "descanso_insuficiente"  // art. 66
	AlertaExtras    = "extras_acima_do_limite" // art. 59
	AlertaLocal     = "fora_do_local"          // a punch outside every work place
)

// Tolerada reports whether a day's punches are within art. 58 §1's
// tolerance of its schedule: as many punches as scheduled marks, each
// within ToleranciaMarcacao minutes of its mark, and the variations adding
// up to at most ToleranciaDiaria. A day without schedule, with missing or
// extra punches, has no tolerance: everything counts.
func Tolerada(marcas, programadas []int) bool {
	if len(programadas) == 0 || len(marcas) != len(programadas) {
		return false
	}
	total := 0
	for i, m := range marcas {
		v := abs(m - programadas[i])
		if v > ToleranciaMarcacao {
			return false
		}
		total += v
	}
	return total <= ToleranciaDiaria
}

// MaiorIntervalo is the longest break between two periods of work of a
// day (0 with fewer than two periods).
func MaiorIntervalo(marcas []int) int {
	maior := 0
	for i := 2; i+1 < len(marcas); i += 2 {
		maior = max(maior, marcas[i]-marcas[i-1])
	}
	return maior
}

// IntervaloExigido is art. 71's minimum break for a day of trabalhados
// minutes: 60 above 6 hours, 15 above 4 hours, none up to 4 hours.
func IntervaloExigido(trabalhados int) int {
	switch {
	case trabalhados > JornadaIntervaloLongo:
		return IntervaloLongo
	case trabalhados > JornadaIntervaloCurto:
		return IntervaloCurto
	}
	return 0
}

// IntervaloInsuficiente applies art. 71: the longest break of the day is
// shorter than the day's work requires.
func IntervaloInsuficiente(trabalhados int, marcas []int) bool {
	return MaiorIntervalo(marcas) < IntervaloExigido(trabalhados)
}

// IntervaloSuprimido is art. 71 §4's suppressed break: the minutes by
// which the day's longest break falls short of the break its work
// requires (0 when it is long enough).
func IntervaloSuprimido(trabalhados int, marcas []int) int {
	return max(0, IntervaloExigido(trabalhados)-MaiorIntervalo(marcas))
}

// DescansoInsuficiente applies art. 66 to the minutes between the end of
// the previous workday (its last punch, after midnight for a night shift)
// and the first punch of this one.
func DescansoInsuficiente(descanso int) bool { return descanso < DescansoMinimo }

// Trabalhados are the minutes of the workday's complete periods of work:
// each punch that opens a period (entrada, retorno almoço: the even
// positions of the tipo sequence) paired with the next one. An unpaired
// last punch counts nothing (the day is incomplete).
func Trabalhados(marcas []int) int {
	total := 0
	for i := 0; i+1 < len(marcas); i += 2 {
		total += max(0, marcas[i+1]-marcas[i])
	}
	return total
}

// PrimeiraEntrada is the earliest entrada of the workday (positions 0, 4,
// ... of the tipo sequence), and false without punches.
func PrimeiraEntrada(marcas []int) (int, bool) {
	if len(marcas) == 0 {
		return 0, false
	}
	first := marcas[0]
	for i := 4; i < len(marcas); i += 4 {
		first = min(first, marcas[i])
	}
	return first, true
}

// noites are the night windows (art. 73) a workday's marks can meet, in
// minutes after its date's local midnight: the night before it, its own,
// and the next.
var noites = [...][2]int{
	{NoturnoInicio - 2*minutosDia, NoturnoFim - minutosDia},
	{NoturnoInicio - minutosDia, NoturnoFim},
	{NoturnoInicio, NoturnoFim + minutosDia},
	{NoturnoInicio + minutosDia, NoturnoFim + 2*minutosDia},
}

// MinutosNoturnos counts the clock minutes of the workday's periods of
// work that fall between 22:00 and 05:00 (art. 73), on whichever night
// they fall, plus the extension of TST Súmula 60 II: when the workday was
// carried out in the night period (most of its worked minutes are night
// minutes) and went on past 05:00, the minutes worked after that 05:00
// count as night minutes too.
func MinutosNoturnos(marcas []int) int {
	total := 0
	for i := 0; i+1 < len(marcas); i += 2 {
		for _, n := range noites {
			total += overlap(marcas[i], marcas[i+1], n[0], n[1])
		}
	}
	return total + Prorrogacao(marcas, total)
}

// Prorrogacao is Súmula 60 II's extension for a workday whose periods
// hold noturnos night minutes: the minutes worked after the end of a
// night that the work went on through, when night minutes are most of the
// workday's work. See MinutosNoturnos.
func Prorrogacao(marcas []int, noturnos int) int {
	if noturnos*2 <= Trabalhados(marcas) {
		return 0
	}
	for _, n := range noites {
		fim := n[1]
		through := false
		for i := 0; i+1 < len(marcas); i += 2 {
			if marcas[i] < fim && marcas[i+1] > fim {
				through = true
			}
		}
		if !through {
			continue
		}
		after := 0
		for i := 0; i+1 < len(marcas); i += 2 {
			after += overlap(marcas[i], marcas[i+1], fim, fim+minutosDia)
		}
		// Minutes after fim that are already night (the next night) were
		// counted once.
		for _, m := range noites {
			if m[0] >= fim {
				for i := 0; i+1 < len(marcas); i += 2 {
					after -= overlap(marcas[i], marcas[i+1], max(m[0], fim), min(m[1], fim+minutosDia))
				}
			}
		}
		return max(0, after)
	}
	return 0
}

// NoturnosReduzidos converts night clock minutes to night-hour minutes:
// an hour of 52 min 30 s counts 60 minutes, so each clock minute counts
// 60/52.5 = 8/7, rounded to the nearest minute (420 clock minutes, 22:00
// to 05:00, count 480).
func NoturnosReduzidos(minutos int) int { return (minutos*8 + 3) / 7 }

// DividirExtras splits a day's overtime: at 100% on a Sunday or holiday,
// at 50% on any other day. (ComputeApuracao adds the minutes worked on a
// holiday's calendar day at 100% on its own: FeriadoMinutos.)
func DividirExtras(extras int, domingoOuFeriado bool) (a50, a100 int) {
	if domingoOuFeriado {
		return 0, extras
	}
	return extras, 0
}

// ExtrasAcimaDoLimite applies art. 59: more than 2 hours of overtime in a
// day. It is given the 50% overtime only: art. 59 limits the extension of
// an ordinary workday, not the work of a Sunday or holiday (art. 70, Lei
// 605/49 art. 9) nor a 12x36 shift.
func ExtrasAcimaDoLimite(extras int) bool { return extras > LimiteExtras }

func overlap(a, b, lo, hi int) int { return max(0, min(b, hi)-max(a, lo)) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
