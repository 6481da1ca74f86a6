package core

import (
	"fmt"
	"sort"
	"time"
)

// MarcacaoTratada is one punch of a workday as the treatment program left it.
type MarcacaoTratada struct {
	Horario       time.Time
	OffsetMinutes int
	// Original is a REP punch; otherwise the company included it, for
	// Motivo.
	Original bool
	Motivo   string
	// Desconsiderada: the company disregarded it, for MotivoDesc.
	Desconsiderada bool
	MotivoDesc     string
	// Ajustado is the time an approved adjustment gave an original, for
	// Motivo: the original is then disregarded and the adjusted time
	// included.
	Ajustado *time.Time
}

// MarcacoesDoDia are the type-05 records of one workday (date data) of
// bond vinculo, in time order: the punches the day counts, each an
// entrada or a saída by its place and numbered by its pair, the first
// entrada naming the schedule codHorario; the REP's originals with
// source O and REP rep, the inclusions (and adjusted times) I with their
// reason, the schedule's pre-assigned break P when the day has only an
// entrada and a saída holding it (as Treat counts it); and the punches
// that do not count, D with their reason and the pair number their place
// among the day's punches gave them.
func MarcacoesDoDia(vinculo, rep int, data time.Time, ps []MarcacaoTratada, turno *Turno, codHorario string) []AEJMarcacao {
	var kept, out []AEJMarcacao
	for i, p := range ps {
		m := AEJMarcacao{Vinculo: vinculo, Horario: p.Horario, OffsetMinutes: p.OffsetMinutes, Fonte: FonteIncluida,
			Motivo: p.Motivo}
		if p.Original {
			m.Fonte, m.REP, m.Motivo = FonteOriginal, rep, ""
		}
		switch {
		case p.Desconsiderada:
			m.Tipo, m.Seq, m.Motivo = MarcDesconsiderada, i/2+1, p.MotivoDesc
			out = append(out, m)
		case p.Original && p.Ajustado != nil:
			m.Tipo, m.Seq, m.Motivo = MarcDesconsiderada, i/2+1, "ajuste aprovado: "+p.Motivo
			out = append(out, m)
			kept = append(kept, AEJMarcacao{Vinculo: vinculo, Horario: *p.Ajustado, OffsetMinutes: p.OffsetMinutes,
				Fonte: FonteIncluida, Motivo: p.Motivo})
		default:
			kept = append(kept, m)
		}
	}
	sort.SliceStable(kept, func(a, b int) bool { return kept[a].Horario.Before(kept[b].Horario) })
	if s, r, ok := turno.Intervalo(); ok && turno.PreAssinalado && len(kept) == 2 {
		zone := fixed(kept[0].OffsetMinutes)
		midnight := time.Date(data.Year(), data.Month(), data.Day(), 0, 0, 0, 0, zone)
		marks := []int{int(kept[0].Horario.Sub(midnight).Minutes()), int(kept[1].Horario.Sub(midnight).Minutes())}
		if len(Treat(marks, Tratamento{}, turno)) == 4 {
			pre := func(m int) AEJMarcacao {
				return AEJMarcacao{Vinculo: vinculo, Horario: midnight.Add(time.Duration(m) * time.Minute),
					OffsetMinutes: kept[0].OffsetMinutes, Fonte: FontePreAssinalada}
			}
			kept = []AEJMarcacao{kept[0], pre(s), pre(r), kept[1]}
		}
	}
	for i := range kept {
		kept[i].Tipo, kept[i].Seq = MarcEntrada, i/2+1
		if i%2 == 1 {
			kept[i].Tipo = MarcSaida
		}
	}
	if len(kept) > 0 {
		kept[0].CodHorario = codHorario
	}
	out = append(out, kept...)
	sort.SliceStable(out, func(a, b int) bool { return out[a].Horario.Before(out[b].Horario) })
	return out
}

// SemJornada is the code of the type-04 record that a workday of an
// employee without any schedule names on its first entrada (a rest day
// names the contractual shift: TurnoContratual), which the layout requires: no pair of hours and
// no duration, written 0000 to 0000 and 0.
const SemJornada = "SEM_JORNADA"

// TurnoContratual is the shift a workday's first entrada names in the
// AEJ: the day's own shift, or on a day without one (a worked rest day)
// the schedule's contractual shift, its first working day's (the 12x36's
// one shift); nil only without any schedule (then SemJornada). Anexo VI
// asks for "o horário contratual", which a rest day does not change.
func TurnoContratual(e *Escala, turno *Turno) *Turno {
	if turno != nil || e == nil {
		return turno
	}
	if e.Ciclo != nil {
		return e.Ciclo.Turno
	}
	for _, t := range e.Semana {
		if t != nil {
			return t
		}
	}
	return nil
}

// HorarioAEJ is the type-04 record of a shift (nil: SemJornada). Its code
// is its hours, e.g. "0800-1200-1300-1700", so that equal shifts of
// different schedules share one record; the duration reduces its night
// minutes (art. 73 §1), as the layout asks of a night shift.
func HorarioAEJ(t *Turno) AEJHorario {
	if t == nil {
		return AEJHorario{Codigo: SemJornada, Pares: [][2]int{{0, 0}}}
	}
	m := t.Marcas()
	h := AEJHorario{}
	for i := 0; i+1 < len(m); i += 2 {
		h.Pares = append(h.Pares, [2]int{m[i], m[i+1]})
		if h.Codigo != "" {
			h.Codigo += "-"
		}
		h.Codigo += hhmm(m[i]) + "-" + hhmm(m[i+1])
	}
	noturnos := MinutosNoturnos(m)
	h.Duracao = t.Previstos() - noturnos + NoturnosReduzidos(noturnos)
	return h
}

// String is the shift for messages.
func (h AEJHorario) String() string { return fmt.Sprintf("%s (%d min)", h.Codigo, h.Duracao) }
