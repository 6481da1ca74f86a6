package core

import (
	"fmt"
	"time"
)

// Turno is one working day of a schedule: Entrada in minutes after local
// midnight, the rest in minutes after Entrada (the contract's horarios).
// A shift may cross midnight: Entrada 22:00 with Saida 450 ends at 05:30
// the next morning.
type Turno struct {
	Entrada, SaidaAlmoco, RetornoAlmoco, Saida int
	// PreAssinalado marks the break as pre-assigned (Portaria 671 art.
	// 83): the employee punches only in and out, and the workday counts
	// the scheduled break without punches (Treat).
	PreAssinalado bool
}

// Marcas are the turno's scheduled marks (entrada, lunch out, lunch back,
// saída; entrada and saída alone for a shift without a lunch break) in
// minutes after its workday's local midnight; saída may pass 24:00.
func (t Turno) Marcas() []int {
	if t.SaidaAlmoco == t.RetornoAlmoco {
		return []int{t.Entrada, t.Entrada + t.Saida}
	}
	return []int{t.Entrada, t.Entrada + t.SaidaAlmoco, t.Entrada + t.RetornoAlmoco, t.Entrada + t.Saida}
}

// Previstos are the turno's expected minutes of work: the shift minus the
// lunch break.
func (t Turno) Previstos() int { return t.Saida - (t.RetornoAlmoco - t.SaidaAlmoco) }

// Escala is a weekly schedule: Semana[0] is Monday ... Semana[6] Sunday,
// nil on a rest day; or, when Ciclo is set, a 12x36 schedule.
type Escala struct {
	Semana [7]*Turno
	// Ciclo, when set, makes the schedule a 12x36: Semana is ignored.
	Ciclo *Ciclo12x36
	// DescansoSemanal are the weekly rest days (indices of Semana: 0
	// Monday ... 6 Sunday) of a weekly schedule; none means Sunday (Lei
	// 605/49 art. 1: "preferentemente aos domingos"). See Descanso.
	DescansoSemanal []int
}

// Ciclo12x36 is a 12x36 schedule: the shift Turno (12 hours, the break
// inside) on its anchor date Base and every second day from it, 36 hours
// of rest between two shifts; no shift before Base.
type Ciclo12x36 struct {
	Base  time.Time // civil date
	Turno *Turno
}

// Weekday is d's index in Semana (0 Monday ... 6 Sunday).
func Weekday(d time.Time) int { return (int(d.Weekday()) + 6) % 7 }

// Turno is the shift that starts on civil date d, nil on a rest day or
// without a schedule.
func (e *Escala) Turno(d time.Time) *Turno {
	if e == nil {
		return nil
	}
	if c := e.Ciclo; c != nil {
		days := civilDays(c.Base, d)
		if days < 0 || days%2 != 0 {
			return nil
		}
		return c.Turno
	}
	return e.Semana[Weekday(d)]
}

// civilDays counts the dates from a to b (negative when b is before a),
// from their own year, month and day whatever their zones.
func civilDays(a, b time.Time) int {
	ua := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	ub := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(ub.Sub(ua).Hours() / 24)
}

// Validate refuses a schedule whose shifts overlap: each day's shift must
// end no later than the next day's starts (Sunday's against Monday's).
func (e *Escala) Validate() error {
	if c := e.Ciclo; c != nil {
		if t := c.Turno; t == nil || t.Saida <= 0 || t.Saida > minutosDia/2 || t.SaidaAlmoco > t.RetornoAlmoco ||
			t.RetornoAlmoco > t.Saida {
			return fmt.Errorf("core: the 12x36 shift is malformed or longer than 12 hours")
		}
		return nil
	}
	for i, t := range e.Semana {
		if t == nil {
			continue
		}
		if t.Saida <= 0 || t.Saida > minutosDia || t.SaidaAlmoco > t.RetornoAlmoco || t.RetornoAlmoco > t.Saida {
			return fmt.Errorf("core: shift of weekday %d is malformed", i)
		}
		if next := e.Semana[(i+1)%7]; next != nil && t.Entrada+t.Saida > minutosDia+next.Entrada {
			return fmt.Errorf("core: shift of weekday %d overlaps the next day's", i)
		}
	}
	return nil
}

const minutosDia = 24 * 60

// The window of a workday around its scheduled shift: a punch belongs to
// the shift it falls in, or to one it is close enough to (an early
// arrival, overtime after the saída). See Jornada.
const (
	JanelaAntes  = 4 * 60 // minutes before the scheduled entrada
	JanelaDepois = 6 * 60 // minutes after the scheduled saída
)

// Jornada is the workday, a civil date (midnight UTC), that a punch at t
// belongs to, for an employee in zone loc on schedule e:
//
//   - the date of the scheduled shift whose window (from JanelaAntes
//     before its entrada to JanelaDepois after its saída) holds t, so a
//     22:00→05:30 shift is one workday, dated by its start; when two
//     windows hold t, the shift nearer to t;
//   - otherwise (no schedule, a rest day, far from any shift) t's local
//     calendar date.
func Jornada(t time.Time, loc *time.Location, e *Escala) time.Time {
	local := t.In(loc)
	y, m, d := local.Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if e == nil {
		return day
	}
	// Seconds after the local midnight of day, on the wall clock.
	at := local.Hour()*3600 + local.Minute()*60 + local.Second()
	best, bestDist := day, -1
	for k := -1; k <= 1; k++ {
		cand := day.AddDate(0, 0, k)
		turno := e.Turno(cand)
		if turno == nil {
			continue
		}
		start := (k*minutosDia + turno.Entrada) * 60
		end := start + turno.Saida*60
		if at < start-JanelaAntes*60 || at > end+JanelaDepois*60 {
			continue
		}
		dist := max(0, start-at, at-end)
		if bestDist < 0 || dist < bestDist {
			best, bestDist = cand, dist
		}
	}
	return best
}

// Offset is the UTC offset, in minutes, of zone loc at t: what every
// record stores so that changing a zone never rewrites history.
func Offset(t time.Time, loc *time.Location) int {
	_, off := t.In(loc).Zone()
	return off / 60
}
