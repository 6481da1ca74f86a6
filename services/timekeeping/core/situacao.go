package core

// Situacao is where an employee stands now on his workday, as the
// manager's day at a glance counts him (the contract's spelling).
type Situacao string

// The situations, in the order the day at a glance lists them.
const (
	SituacaoTrabalhando Situacao = "trabalhando" // an odd number of punches: in
	SituacaoIntervalo   Situacao = "intervalo"   // out for the scheduled break
	SituacaoEncerrado   Situacao = "encerrado"   // punched out for the day
	SituacaoAguardando  Situacao = "aguardando"  // not arrived yet, within tolerance
	SituacaoAtrasado    Situacao = "atrasado"    // not arrived, past entrada + tolerance
	SituacaoAusente     Situacao = "ausente"     // no punch and the shift over, or an absence recorded
	SituacaoAfastado    Situacao = "afastado"    // on leave or a whole-day abono
	SituacaoFolga       Situacao = "folga"       // rest day or holiday
)

// Situacoes lists every situation in display order.
var Situacoes = []Situacao{SituacaoTrabalhando, SituacaoIntervalo, SituacaoEncerrado, SituacaoAguardando,
	SituacaoAtrasado, SituacaoAusente, SituacaoAfastado, SituacaoFolga}

// Agora is what the situation of one employee's workday is decided from.
type Agora struct {
	// Turno is the day's scheduled shift, nil on a rest day.
	Turno *Turno
	// Marcas are the punches that count (Treat's), in minutes after the
	// workday's local midnight; Minuto is now on the same scale.
	Marcas []int
	Minuto int
	// Feriado: a holiday; Afastado: a whole-day abono or leave; Falta: an
	// absence the company recorded.
	Feriado, Afastado, Falta bool
}

// SituacaoDe decides where the employee stands now. Punches decide first
// (odd: in; two with a scheduled break not over: on the break; otherwise
// out). Without punches: leave, a recorded absence, a rest day or
// holiday, then the clock against the shift: late once more than
// ToleranciaMarcacao minutes past its entrada (CLT art. 58 §1 excuses up
// to 5 minutes a mark), absent once the shift is over.
func SituacaoDe(a Agora) Situacao {
	if n := len(a.Marcas); n > 0 {
		switch {
		case n%2 == 1:
			return SituacaoTrabalhando
		case n == 2 && a.Turno != nil && a.Turno.SaidaAlmoco < a.Turno.RetornoAlmoco &&
			a.Minuto < a.Turno.Entrada+a.Turno.Saida:
			return SituacaoIntervalo
		default:
			return SituacaoEncerrado
		}
	}
	switch {
	case a.Afastado:
		return SituacaoAfastado
	case a.Falta:
		return SituacaoAusente
	case a.Turno == nil || a.Feriado:
		return SituacaoFolga
	case a.Minuto <= a.Turno.Entrada+ToleranciaMarcacao:
		return SituacaoAguardando
	case a.Minuto < a.Turno.Entrada+a.Turno.Saida:
		return SituacaoAtrasado
	default:
		return SituacaoAusente
	}
}
