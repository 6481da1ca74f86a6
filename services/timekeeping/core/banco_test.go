package core

import (
	"reflect"
	"testing"
	"time"
)

func TestPoliticaBancoValidar(t *testing.T) {
	ok := PoliticaBanco{Inicio: date(2024, 1, 1), PeriodoMeses: BancoPeriodoPadrao}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    PoliticaBanco
		want error
	}{
		{PoliticaBanco{Inicio: date(2024, 1, 1), PeriodoMeses: 0}, ErrBancoPeriodo},
		{PoliticaBanco{Inicio: date(2024, 1, 1), PeriodoMeses: 13}, ErrBancoPeriodo},
		{PoliticaBanco{Inicio: date(2024, 1, 2), PeriodoMeses: 6}, ErrBancoInicio},
		{PoliticaBanco{Inicio: date(2024, 1, 1), PeriodoMeses: 12, LimiteCredito: -1}, ErrBancoLimite},
		{PoliticaBanco{Inicio: date(2024, 1, 1), PeriodoMeses: 12, LimiteDebito: 366*120 + 1}, ErrBancoLimite},
	} {
		if got := c.p.Validate(); got != c.want {
			t.Errorf("%+v: %v, want %v", c.p, got, c.want)
		}
	}
	i, f := ok.Periodo(date(2024, 8, 15))
	if i != date(2024, 7, 1) || f != date(2024, 12, 31) {
		t.Fatalf("period of 2024-08-15: %s to %s", i, f)
	}
}

// summary writes movements as "date tipo minutos excedente saldo".
func summary(ms []MovimentoBanco) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Data.Format(time.DateOnly)+" "+m.Tipo+" "+itoa(m.Minutos)+" "+itoa(m.Excedente)+" "+itoa(m.Saldo))
	}
	return out
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// Two-month periods from January: January and February's balance
// expires on March 1st; an absence moves nothing; a manual payment counts
// as given; the new period starts from zero.
func TestBancoAcrossThePeriodEnd(t *testing.T) {
	p := PoliticaBanco{Inicio: date(2024, 1, 1), PeriodoMeses: 2}
	dias := []DiaBanco{
		{Data: date(2023, 12, 20), Saldo: 300},                 // before the bank: nothing
		{Data: date(2024, 1, 10), Saldo: 60},                   // overtime
		{Data: date(2024, 1, 11), Saldo: 0},                    // as scheduled
		{Data: date(2024, 2, 20), Saldo: -20},                  // late
		{Data: date(2024, 2, 28), Saldo: -480, Ausencia: true}, // unexcused absence: payroll's, not the bank's
		{Data: date(2024, 3, 4), Saldo: 15},
		{Data: date(2024, 3, 5), Saldo: 45}, // after ate
	}
	manuais := []MovimentoBanco{{ID: 7, Data: date(2024, 2, 25), Tipo: MovPagamento, Minutos: -10, Motivo: "pago na folha"}}
	x := ComputeBanco(p, dias, manuais, date(2024, 3, 4))
	want := []string{
		"2024-01-10 credito 60 0 60",
		"2024-02-20 debito -20 0 40",
		"2024-02-25 pagamento -10 0 30",
		"2024-03-01 vencimento -30 0 0",
		"2024-03-04 credito 15 0 15",
	}
	if got := summary(x.Movimentos); !reflect.DeepEqual(got, want) {
		t.Fatalf("movements\n got %q\nwant %q", got, want)
	}
	if x.Saldo != 15 || x.Inicio != date(2024, 3, 1) || x.Fim != date(2024, 4, 30) {
		t.Fatalf("balance %d in %s..%s", x.Saldo, x.Inicio, x.Fim)
	}
	if cur := summary(DoPeriodo(x.Movimentos, x.Inicio)); len(cur) != 2 || cur[0] != want[3] {
		t.Fatalf("current period: %q", cur)
	}
	// Up to the last day of February: nothing has expired yet.
	if x := ComputeBanco(p, dias, manuais, date(2024, 2, 29)); x.Saldo != 30 || x.Fim != date(2024, 2, 29) {
		t.Fatalf("on Feb 29: balance %d, period end %s", x.Saldo, x.Fim)
	}
	// A debit balance expires too, and a period without movements passes
	// quietly: up to July, one vencimento per period with a balance.
	x = ComputeBanco(p, []DiaBanco{{Data: date(2024, 1, 3), Saldo: -45}}, nil, date(2024, 7, 1))
	if got := summary(x.Movimentos); !reflect.DeepEqual(got, []string{"2024-01-03 debito -45 0 -45", "2024-03-01 vencimento 45 0 0"}) ||
		x.Inicio != date(2024, 7, 1) {
		t.Fatalf("debit expiry: %q, period from %s", got, x.Inicio)
	}
}

// The caps: overtime past the credit cap, and lateness past the debit
// cap, are not banked but shown as excedente.
func TestBancoCaps(t *testing.T) {
	p := PoliticaBanco{Inicio: date(2024, 1, 1), PeriodoMeses: 6, LimiteCredito: 100, LimiteDebito: 30}
	dias := []DiaBanco{
		{Data: date(2024, 1, 2), Saldo: 80},
		{Data: date(2024, 1, 3), Saldo: 50},   // 20 banked, 30 paid
		{Data: date(2024, 1, 4), Saldo: 10},   // at the cap: all paid
		{Data: date(2024, 1, 5), Saldo: -120}, // 100 -> -30: 130 allowed, all banked
		{Data: date(2024, 1, 8), Saldo: -15},  // past the debit cap: discounted
	}
	got := summary(ComputeBanco(p, dias, nil, date(2024, 1, 31)).Movimentos)
	want := []string{
		"2024-01-02 credito 80 0 80",
		"2024-01-03 credito 20 30 100",
		"2024-01-04 credito 0 10 100",
		"2024-01-05 debito -120 0 -20",
		"2024-01-08 debito -10 5 -30",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("movements\n got %q\nwant %q", got, want)
	}
}

// A night shift that starts on Christmas (a national holiday): the
// minutes on Christmas' calendar day are overtime at 100%, the rest
// ordinary, its night minutes counted with Súmula 60's extension, and the
// bank credits the holiday's minutes.
func TestNightShiftOnAHolidayAt100(t *testing.T) {
	natal := date(2024, 12, 25)
	if nome, ok := NewCalendario(Facultativos{}).Feriado(natal); !ok {
		t.Fatal("Christmas is not a holiday")
	} else if nome == "" {
		t.Fatal("holiday without a name")
	}
	noite := &Turno{Entrada: hm(22, 0), SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 480} // 22:00-06:00, break 02:00-03:00
	marcas := []int{hm(22, 0), hm(26, 0), hm(27, 0), hm(30, 0)}
	a := ComputeApuracao(Dia{Marcas: marcas, Turno: noite, Feriado: true})
	// 22:00-24:00 on the 25th: 120 holiday minutes, scheduled and worked.
	// Expected 420 - 120 = 300; worked off the holiday 420 - 120 = 300:
	// balance 300 - 300 + 120 = 120, all at 100%.
	if a.Trabalhados != 420 || a.Previstos != 300 || a.Extras != 120 || a.Extras100 != 120 || a.Extras50 != 0 || a.Saldo != 120 {
		t.Fatalf("holiday night: %+v", a)
	}
	// 22:00-02:00 and 03:00-05:00 are night (360), 05:00-06:00 extends it.
	if a.Noturnos != 420 || a.NoturnosReduzidos != 480 || a.Ausencia {
		t.Fatalf("night minutes: %+v", a)
	}
	// The same shift on an ordinary day is as scheduled.
	if b := ComputeApuracao(Dia{Marcas: marcas, Turno: noite}); b.Extras != 0 || b.Saldo != 0 {
		t.Fatalf("ordinary night: %+v", b)
	}
	x := ComputeBanco(PoliticaBanco{Inicio: date(2024, 7, 1), PeriodoMeses: 6},
		[]DiaBanco{{Data: natal, Saldo: a.Saldo, Ausencia: a.Ausencia}}, nil, date(2024, 12, 31))
	if x.Saldo != 120 {
		t.Fatalf("bank after the holiday: %+v", x)
	}
}

// A manual movement's kind gives its minutes their sign: paying out
// overtime and taking time off spend credit (-), discounting a debit from
// pay settles it (+), a correction keeps the sign given (0); a computed
// kind is not manual.
func TestSinalManual(t *testing.T) {
	type answer struct {
		Sinal int
		OK    bool
	}
	want := map[string]answer{
		MovPagamento: {-1, true}, MovCompensacao: {-1, true}, MovDesconto: {1, true}, MovAjuste: {0, true},
		MovCredito: {0, false}, MovDebito: {0, false}, MovVencimento: {0, false}, "": {0, false},
	}
	got := map[string]answer{}
	for tipo := range want {
		s, ok := SinalManual(tipo)
		got[tipo] = answer{s, ok}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SinalManual: got %v, want %v", got, want)
	}
}
