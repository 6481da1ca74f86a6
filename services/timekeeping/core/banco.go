package core

import (
	"errors"
	"sort"
	"time"
)

// The hour bank (banco de horas, CLT art. 59 §§2, 5 and 6): the overtime
// of a day is not paid but credited, to be compensated by shorter days
// within the compensation period; what is left at the period's end
// expires: a credit is then paid as overtime (art. 59 §3), a debit is
// forgiven or discounted as the company's agreement says.
//
// The bank is computed from the workdays (ComputeApuracao), never stored: each
// workday's balance (Apuracao.Saldo, after the tolerance, the treatment
// and the abonos) is its movement, a credit or a debit, except for an
// unexcused absence (Apuracao.Ausencia), which payroll discounts and
// which costs the DSR instead. Only the company's manual movements
// (paid out, discounted, compensated, corrections) are stored, and
// append-only: a correction is a new movement.

// Compensation periods, in months: 6 by default (art. 59 §5, an
// individual written agreement), up to 12 by collective agreement (art.
// 59 §2).
const (
	BancoPeriodoPadrao = 6
	BancoPeriodoMaximo = 12
)

// Kinds of movement. The first three are computed; the others are the
// company's manual movements.
const (
	MovCredito     = "credito"     // a day's overtime
	MovDebito      = "debito"      // a day's lateness or short day
	MovVencimento  = "vencimento"  // the balance left at a period's end
	MovPagamento   = "pagamento"   // credit paid out as overtime (-)
	MovDesconto    = "desconto"    // debit discounted from pay (+)
	MovCompensacao = "compensacao" // credit taken as time off (-)
	MovAjuste      = "ajuste"      // a correction, either sign
)

// SinalManual is the sign a manual movement of kind tipo gives its
// minutes (0: the sign given, for a correction); ok is false for a kind
// that is not manual.
func SinalManual(tipo string) (sinal int, ok bool) {
	switch tipo {
	case MovPagamento, MovCompensacao:
		return -1, true
	case MovDesconto:
		return 1, true
	case MovAjuste:
		return 0, true
	}
	return 0, false
}

// PoliticaBanco is a company's hour-bank policy.
type PoliticaBanco struct {
	// Inicio is the first day (a month's first) of the first period.
	Inicio       time.Time
	PeriodoMeses int
	// LimiteCredito and LimiteDebito cap the balance, in minutes (0: no
	// cap): overtime past the credit cap is not banked but paid, lateness
	// past the debit cap is discounted (MovimentoBanco.Excedente).
	LimiteCredito, LimiteDebito int
}

// Errors of Validar, in pt-BR as the API shows them.
var (
	ErrBancoPeriodo = errors.New("período de compensação de 1 a 12 meses (CLT art. 59 §§2 e 5)")
	ErrBancoInicio  = errors.New("o banco de horas começa no primeiro dia de um mês")
	ErrBancoLimite  = errors.New("limite em minutos, de 0 (sem limite) a 43.920 (2 horas extras por dia durante um ano)")
)

// Validate checks the policy: a period of 1 to 12 months, starting on a
// month's first day, caps from 0 to limiteMaximo minutes.
func (p PoliticaBanco) Validate() error {
	switch {
	case p.PeriodoMeses < 1 || p.PeriodoMeses > BancoPeriodoMaximo:
		return ErrBancoPeriodo
	case p.Inicio.Day() != 1:
		return ErrBancoInicio
	case p.LimiteCredito < 0 || p.LimiteDebito < 0 || p.LimiteCredito > limiteMaximo || p.LimiteDebito > limiteMaximo:
		return ErrBancoLimite
	}
	return nil
}

// limiteMaximo is the largest cap: 2 hours of overtime (art. 59) on
// every day of a leap year.
const limiteMaximo = 366 * LimiteExtras

// Periodo is the compensation period holding civil date d: its first and
// last days. Before Inicio, the first period.
func (p PoliticaBanco) Periodo(d time.Time) (inicio, fim time.Time) {
	n := max(1, p.PeriodoMeses)
	months := (d.Year()-p.Inicio.Year())*12 + int(d.Month()-p.Inicio.Month())
	k := max(0, months/n)
	inicio = p.Inicio.AddDate(0, k*n, 0)
	return inicio, inicio.AddDate(0, n, -1)
}

// DiaBanco is a workday as the bank reads it.
type DiaBanco struct {
	Data     time.Time // civil date
	Saldo    int       // Apuracao.Saldo
	Ausencia bool      // Apuracao.Ausencia: not banked
}

// MovimentoBanco is a movement of the bank: Minutos its effect on the
// balance, Saldo the balance after it.
type MovimentoBanco struct {
	ID      int64 // a manual movement's record, 0 for a computed one
	Data    time.Time
	Tipo    string
	Minutos int
	// Excedente are a day's minutes past a cap, not banked: overtime to
	// pay, or lateness to discount.
	Excedente int
	Motivo    string
	Saldo     int
}

// Extrato is the bank of one employee up to a date: the period holding
// it, the balance and every movement from the policy's start.
type Extrato struct {
	Inicio, Fim time.Time // the period holding the date
	Saldo       int
	Movimentos  []MovimentoBanco
}

// Motivos of the computed movements.
const (
	motivoExtras         = "horas extras do dia"
	motivoAtraso         = "atraso ou saída antecipada"
	motivoVencidoCredor  = "saldo credor do período vencido: pagar como horas extras (CLT art. 59 §3)"
	motivoVencidoDevedor = "saldo devedor do período vencido: zerado conforme a política"
)

// ComputeBanco applies policy p to the workdays dias and the manual
// movements manuais up to civil date ate, in date order (a day's
// computed movement before that day's manual ones, those by ID):
//
//   - from Inicio on, each day's balance is a credit or a debit, capped
//     (the part past the cap is Excedente, not banked); an unexcused
//     absence moves nothing;
//   - manual movements count as given, never capped;
//   - on the first day of each new period, the balance left expires: a
//     vencimento movement brings it to zero.
func ComputeBanco(p PoliticaBanco, dias []DiaBanco, manuais []MovimentoBanco, ate time.Time) Extrato {
	if p.PeriodoMeses < 1 {
		p.PeriodoMeses = BancoPeriodoPadrao
	}
	type item struct {
		data   time.Time
		manual bool
		m      MovimentoBanco
		dia    DiaBanco
	}
	var items []item
	for _, d := range dias {
		if !d.Data.Before(p.Inicio) && !d.Data.After(ate) && !d.Ausencia && d.Saldo != 0 {
			items = append(items, item{data: d.Data, dia: d})
		}
	}
	for _, m := range manuais {
		if !m.Data.After(ate) {
			items = append(items, item{data: m.Data, manual: true, m: m})
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if !a.data.Equal(b.data) {
			return a.data.Before(b.data)
		}
		if a.manual != b.manual {
			return !a.manual
		}
		return a.m.ID < b.m.ID
	})
	c := &conta{p: p}
	c.inicio, c.fim = p.Periodo(p.Inicio)
	for _, it := range items {
		c.vencer(it.data)
		if it.manual {
			m := it.m
			c.saldo += m.Minutos
			m.Saldo = c.saldo
			c.movs = append(c.movs, m)
			continue
		}
		c.dia(it.dia)
	}
	c.vencer(ate)
	return Extrato{Inicio: c.inicio, Fim: c.fim, Saldo: c.saldo, Movimentos: c.movs}
}

// conta is ComputeBanco's running state.
type conta struct {
	p           PoliticaBanco
	inicio, fim time.Time
	saldo       int
	movs        []MovimentoBanco
}

// vencer closes every period that ends before civil date d: the balance
// left expires on the next period's first day.
func (c *conta) vencer(d time.Time) {
	for d.After(c.fim) {
		c.inicio = c.fim.AddDate(0, 0, 1)
		c.fim = c.inicio.AddDate(0, c.p.PeriodoMeses, -1)
		if c.saldo == 0 {
			continue
		}
		motivo := motivoVencidoCredor
		if c.saldo < 0 {
			motivo = motivoVencidoDevedor
		}
		c.movs = append(c.movs, MovimentoBanco{Data: c.inicio, Tipo: MovVencimento, Minutos: -c.saldo, Motivo: motivo})
		c.saldo = 0
	}
}

// dia banks a workday's balance within the caps.
func (c *conta) dia(d DiaBanco) {
	m := MovimentoBanco{Data: d.Data, Tipo: MovCredito, Motivo: motivoExtras, Minutos: d.Saldo}
	if d.Saldo < 0 {
		m.Tipo, m.Motivo = MovDebito, motivoAtraso
	}
	if l := c.p.LimiteCredito; l > 0 && m.Minutos > 0 && c.saldo+m.Minutos > l {
		m.Minutos = max(0, l-c.saldo)
		m.Excedente = d.Saldo - m.Minutos
	}
	if l := c.p.LimiteDebito; l > 0 && m.Minutos < 0 && c.saldo+m.Minutos < -l {
		m.Minutos = min(0, -l-c.saldo)
		m.Excedente = m.Minutos - d.Saldo
	}
	c.saldo += m.Minutos
	m.Saldo = c.saldo
	c.movs = append(c.movs, m)
}

// DoPeriodo are the movements of ms dated from inicio on (the current
// period's, its opening vencimento included).
func DoPeriodo(ms []MovimentoBanco, inicio time.Time) []MovimentoBanco {
	out := []MovimentoBanco{}
	for _, m := range ms {
		if !m.Data.Before(inicio) {
			out = append(out, m)
		}
	}
	return out
}
