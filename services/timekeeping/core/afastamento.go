package core

import (
	"time"
)

// Leaves (afastamentos, férias included) are date ranges over which the
// employee is away with the law's or the company's leave. Each kind has
// its rule (Regra): whether the day is still an expected workday, whether
// it counts as an absence, whether it costs the week's paid rest, and who
// pays it. The workday engine asks, for each civil day, which leave
// covers it (Afastamento.Cobre) and that day's rule (Afastamento.RegraDia).
//
// Contract interruption or suspension, by kind:
//   - férias: CLT arts. 129-130, paid (with the third of art. 7 XVII CF);
//   - doença and acidente de trabalho: the employer pays the first 15
//     days, the INSS from the 16th (Lei 8.213/91 art. 60 §3); neither is
//     an absence (CLT art. 131 III) nor costs the DSR (Lei 605/49 art. 6
//     §1 f);
//   - maternidade: 120 days (CLT art. 392), paid by the employer and
//     offset against its INSS contributions (Lei 8.213/91 art. 72 §1);
//   - paternidade: 5 days (ADCT art. 10 §1);
//   - casamento, falecimento, doação de sangue, serviço militar: CLT art.
//     473 II (3 consecutive days), I (2), IV (1 day in each 12 months), VI
//     (the days the enlistment requires); paid and justified (art. 131 I);
//   - suspensão disciplinar: at most 30 consecutive days (CLT art. 474),
//     unpaid, an absence for the vacation scale (it is not among art.
//     131's) and it costs the week's DSR (Lei 605/49 art. 6: not a
//     justified absence);
//   - não remunerada: an agreed suspension of the contract: unpaid, so
//     its weeks' rest is not paid either, but not an absence;
//   - outro: a leave the company grants: paid and justified (CLT art. 131
//     IV: an absence the company does not discount is justified).
//
// No kind touches the hour bank: a leave's days expect nothing (no debit)
// and punches made during one go to treatment (FlagTratamento), not to
// the bank.

// Leave kinds, as the routes name them.
const (
	AfastamentoFerias          = "ferias"
	AfastamentoDoenca          = "doenca"
	AfastamentoAcidente        = "acidente_trabalho"
	AfastamentoMaternidade     = "maternidade"
	AfastamentoPaternidade     = "paternidade"
	AfastamentoCasamento       = "casamento"
	AfastamentoFalecimento     = "falecimento"
	AfastamentoDoacaoSangue    = "doacao_sangue"
	AfastamentoServicoMilitar  = "servico_militar"
	AfastamentoSuspensao       = "suspensao"
	AfastamentoNaoRemunerada   = "nao_remunerada"
	AfastamentoOutro           = "outro"
	MaxDiasAfastamento         = 731 // two years (a leap year in them), both ends included
	MaxDiasSuspensao           = 30  // CLT art. 474
	DiasEmpregadorDoenca       = 15  // Lei 8.213/91 art. 60 §3
	IntervaloDoacaoSangueMeses = 12  // CLT art. 473 IV
)

// TiposAfastamento are the leave kinds in the order the routes list them.
var TiposAfastamento = []string{AfastamentoFerias, AfastamentoDoenca, AfastamentoAcidente, AfastamentoMaternidade,
	AfastamentoPaternidade, AfastamentoCasamento, AfastamentoFalecimento, AfastamentoDoacaoSangue,
	AfastamentoServicoMilitar, AfastamentoSuspensao, AfastamentoNaoRemunerada, AfastamentoOutro}

// Regra is what a leave day means to the workday figures.
type Regra struct {
	// ZeraPrevisto: the day expects no work (no lateness, no absence, no
	// hour-bank debit), even when the schedule names a shift.
	ZeraPrevisto bool
	// Falta: the day counts as an absence for the vacation scale (CLT
	// art. 130); art. 131 lists the leaves that do not.
	Falta bool
	// PerdeDSR: the week's paid rest is lost (Lei 605/49 art. 6), as for
	// an unexcused absence.
	PerdeDSR bool
	// Remunerado: the employer pays the day; INSS: the social security
	// pays it (a benefit) instead.
	Remunerado, INSS bool
	// DiasLegais is the law's length of the leave (0: none); a longer
	// leave is kept (agreements and Lei 11.770 extend several) and the
	// days past it are reported (Afastamento.AlemDoLegal).
	DiasLegais int
	// Artigo names the rule's legal basis, for the pages.
	Artigo string
}

var regras = map[string]Regra{
	AfastamentoFerias:         {ZeraPrevisto: true, Remunerado: true, Artigo: "CLT arts. 129-130"},
	AfastamentoDoenca:         {ZeraPrevisto: true, Remunerado: true, Artigo: "Lei 8.213/91 art. 60 §3; CLT art. 131 III"},
	AfastamentoAcidente:       {ZeraPrevisto: true, Remunerado: true, Artigo: "Lei 8.213/91 art. 60 §3; CLT art. 131 III"},
	AfastamentoMaternidade:    {ZeraPrevisto: true, Remunerado: true, DiasLegais: 120, Artigo: "CLT art. 392"},
	AfastamentoPaternidade:    {ZeraPrevisto: true, Remunerado: true, DiasLegais: 5, Artigo: "ADCT art. 10 §1"},
	AfastamentoCasamento:      {ZeraPrevisto: true, Remunerado: true, DiasLegais: 3, Artigo: "CLT art. 473 II"},
	AfastamentoFalecimento:    {ZeraPrevisto: true, Remunerado: true, DiasLegais: 2, Artigo: "CLT art. 473 I"},
	AfastamentoDoacaoSangue:   {ZeraPrevisto: true, Remunerado: true, DiasLegais: 1, Artigo: "CLT art. 473 IV"},
	AfastamentoServicoMilitar: {ZeraPrevisto: true, Remunerado: true, Artigo: "CLT art. 473 VI"},
	AfastamentoSuspensao: {ZeraPrevisto: true, Falta: true, PerdeDSR: true, DiasLegais: MaxDiasSuspensao,
		Artigo: "CLT art. 474; Lei 605/49 art. 6"},
	AfastamentoNaoRemunerada: {ZeraPrevisto: true, PerdeDSR: true, Artigo: "suspensão do contrato por acordo"},
	AfastamentoOutro:         {ZeraPrevisto: true, Remunerado: true, Artigo: "CLT art. 131 IV"},
}

// RegraAfastamento is kind tipo's rule, and false for an unknown kind.
// For doença and acidente de trabalho it is the rule of the days the
// employer pays; RegraDia gives the INSS days'.
func RegraAfastamento(tipo string) (Regra, bool) {
	r, ok := regras[tipo]
	return r, ok
}

// Afastamento is one leave: its kind and its civil dates, both included
// (dates at midnight UTC, as every civil date of the core).
type Afastamento struct {
	Tipo        string
	Inicio, Fim time.Time
}

// Cobre reports whether civil date d is one of the leave's days.
func (a Afastamento) Cobre(d time.Time) bool { return !d.Before(a.Inicio) && !d.After(a.Fim) }

// Dias counts the leave's days, both ends included.
func (a Afastamento) Dias() int { return diasEntre(a.Inicio, a.Fim) + 1 }

// AlemDoLegal counts the leave's days past its kind's legal length.
func (a Afastamento) AlemDoLegal() int {
	r, _ := RegraAfastamento(a.Tipo)
	if r.DiasLegais == 0 || a.Dias() <= r.DiasLegais {
		return 0
	}
	return a.Dias() - r.DiasLegais
}

// RegraDia is the rule of civil date d, one of the leave's days: a sick
// or accident leave's 16th day on is paid by the INSS, not the employer
// (Lei 8.213/91 art. 60 §3). The 15 days are counted from the leave's
// own start: joining a relapse within 60 days (Decreto 3.048/99 art. 75
// §3) is the company's to record as one leave.
func (a Afastamento) RegraDia(d time.Time) Regra {
	r, _ := RegraAfastamento(a.Tipo)
	if (a.Tipo == AfastamentoDoenca || a.Tipo == AfastamentoAcidente) && diasEntre(a.Inicio, d) >= DiasEmpregadorDoenca {
		r.Remunerado, r.INSS = false, true
	}
	return r
}

// Sobrepoe reports whether a and b share a day.
func (a Afastamento) Sobrepoe(b Afastamento) bool {
	return !a.Inicio.After(b.Fim) && !b.Inicio.After(a.Fim)
}

// ErroAfastamento is a leave the rules refuse, naming the field at fault.
type ErroAfastamento struct{ Campo, Mensagem string }

func (e *ErroAfastamento) Error() string { return e.Campo + ": " + e.Mensagem }

// Valida checks a leave: a known kind, an end not before its start, at
// most two years, and a disciplinary suspension of at most 30 days (CLT
// art. 474: longer is an unjust dismissal). nil when it is valid.
func (a Afastamento) Valida() *ErroAfastamento {
	if _, ok := RegraAfastamento(a.Tipo); !ok {
		return &ErroAfastamento{"tipo", "tipo de afastamento desconhecido"}
	}
	if a.Fim.Before(a.Inicio) {
		return &ErroAfastamento{"fim", "deve ser igual ou posterior a inicio"}
	}
	if a.Dias() > MaxDiasAfastamento {
		return &ErroAfastamento{"fim", "um afastamento dura no máximo 2 anos; registre a continuação em outro"}
	}
	if a.Tipo == AfastamentoSuspensao && a.Dias() > MaxDiasSuspensao {
		return &ErroAfastamento{"fim", "a suspensão disciplinar dura no máximo 30 dias (CLT art. 474)"}
	}
	return nil
}

// Conflito is the first of existentes (an employee's standing leaves) that
// leave a may not join, and false when none: one that shares a day with
// it, or, for a blood donation, another donation less than 12 months
// before or after it (CLT art. 473 IV pays one day in each 12 months).
func (a Afastamento) Conflito(existentes []Afastamento) (Afastamento, bool) {
	for _, e := range existentes {
		if a.Sobrepoe(e) {
			return e, true
		}
		if a.Tipo == AfastamentoDoacaoSangue && e.Tipo == AfastamentoDoacaoSangue &&
			a.Inicio.Before(e.Fim.AddDate(0, IntervaloDoacaoSangueMeses, 0)) &&
			e.Inicio.Before(a.Fim.AddDate(0, IntervaloDoacaoSangueMeses, 0)) {
			return e, true
		}
	}
	return Afastamento{}, false
}

// FlagTratamento reports whether a day with punches (marcas > 0) falls on
// a leave: the punches are kept (never refused, in the spirit of CLT art.
// 78's record of what happened) and the day goes to treatment, so the
// company decides whether the leave or the punches are wrong.
func FlagTratamento(marcas int, afastado bool) bool { return marcas > 0 && afastado }

// AfastamentoDe returns the leave of leaves covering civil date d, and
// false when none does (the engine's lookup for one day).
func AfastamentoDe(leaves []Afastamento, d time.Time) (Afastamento, bool) {
	for _, a := range leaves {
		if a.Cobre(d) {
			return a, true
		}
	}
	return Afastamento{}, false
}

func diasEntre(a, b time.Time) int { return int(b.Sub(a).Round(time.Hour).Hours() / 24) }

// AlertaAfastamento is the alert of a leave day with punches
// (FlagTratamento): the company treats it.
const AlertaAfastamento = "marcacao_em_afastamento"

// Aplicar applies leave day rule r to day a, computed as if no leave
// covered it, with punches marcas (treated):
//   - ZeraPrevisto: nothing is expected, so there is no lateness, no
//     balance and no overtime: the hour bank is untouched (neither credit
//     nor debit); the minutes worked stay shown, for the treatment;
//   - the day is an absence only when the kind says so (Falta: a
//     disciplinary suspension, CLT art. 474, is not among art. 131's
//     justified absences); the others are justified (art. 131 I, III, IV);
//   - punches on a leave day raise AlertaAfastamento (FlagTratamento).
func (r Regra) Aplicar(a Apuracao, marcas int) Apuracao {
	if r.ZeraPrevisto {
		a.Previstos, a.Abonados, a.Atraso, a.Saldo, a.Tolerancia = 0, 0, 0, 0, false
		a.Extras, a.Extras50, a.Extras100 = 0, 0, 0
		a.Noturnos, a.NoturnosReduzidos, a.IntervaloSuprimido, a.Interjornada = 0, 0, 0, 0
	}
	a.Ausencia = r.Falta
	if FlagTratamento(marcas, true) {
		a.Alertas = append(a.Alertas, AlertaAfastamento)
	}
	return a
}
