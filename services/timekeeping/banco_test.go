package main

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// bancoSaldo is the hour-bank answer as the tests read it.
type bancoSaldo struct {
	FuncionarioID int64  `json:"funcionarioId"`
	Ate           string `json:"ate"`
	ApuradoAte    string `json:"apuradoAte"`
	Ativo         bool   `json:"ativo"`
	Periodo       *struct {
		Inicio, Fim string
	} `json:"periodo"`
	SaldoMinutos int `json:"saldoMinutos"`
	Movimentos   []struct {
		ID               *int64 `json:"id"`
		Data             string `json:"data"`
		Tipo             string `json:"tipo"`
		Minutos          int    `json:"minutos"`
		ExcedenteMinutos int    `json:"excedenteMinutos"`
		SaldoMinutos     int    `json:"saldoMinutos"`
	} `json:"movimentos"`
}

func (e *env) banco(token string, w worker, ate string) bancoSaldo {
	e.t.Helper()
	r := e.pub("GET", path("/registropontos/funcionario/%d/banco-horas?ate=%s", w.id, ate), token, nil)
	want(e.t, r, 200)
	var s bancoSaldo
	r.into(e.t, &s)
	return s
}

// movimentos writes the movements as "date tipo minutos saldo".
func (s bancoSaldo) movimentos() []string {
	out := []string{}
	for _, m := range s.Movimentos {
		out = append(out, fmt.Sprintf("%s %s %d %d", m.Data, m.Tipo, m.Minutos, m.SaldoMinutos))
	}
	return out
}

// Two months of an employee on the standard schedule (08:00-17:00, lunch
// 12:00-13:00, 480 minutes Monday to Friday), with the figures worked out
// by hand:
//
//	03-05 Tue  08:00-12:00 13:00-18:30  570 - 480 = +90   balance  90
//	03-14 Thu  08:40-12:00 13:00-17:00  440 - 480 = -40             50
//	03-16 Sat  09:00-11:00 (rest day)   120       = +120           170
//	04-01 Mon  08:00-12:00 13:00-17:03  within the tolerance: 0    170
//	04-10 Wed  08:00-12:00 13:00-16:00  420 - 480 = -60            110
//	04-15 Mon  absence marked: not banked (it costs the DSR)       110
//	04-21 Sun  Tiradentes, 08:00-12:00  240 at 100% = +240         350
//	04-30      paid out on the payroll: -60                        290
//
// Every other working day has no punch: an unexcused absence, which the
// bank does not move.
func TestBancoDeHorasOverTwoMonths(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	colega := e.funcionario(c, w.escalaID, nil)
	other, _ := e.outsider()
	day := func(y, m, d int, hm ...[2]int) {
		for _, x := range hm {
			e.punch(w, local(y, time.Month(m), d, x[0], x[1]))
		}
	}
	day(2024, 3, 5, [2]int{8, 0}, [2]int{12, 0}, [2]int{13, 0}, [2]int{18, 30})
	day(2024, 3, 14, [2]int{8, 40}, [2]int{12, 0}, [2]int{13, 0}, [2]int{17, 0})
	day(2024, 3, 16, [2]int{9, 0}, [2]int{11, 0})
	day(2024, 4, 1, [2]int{8, 0}, [2]int{12, 0}, [2]int{13, 0}, [2]int{17, 3})
	day(2024, 4, 10, [2]int{8, 0}, [2]int{12, 0}, [2]int{13, 0}, [2]int{16, 0})
	day(2024, 4, 21, [2]int{8, 0}, [2]int{12, 0})
	e.clock.Set(local(2024, 5, 2, 10, 0))
	want(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-04-15", w.id), c.token, nil), 200)

	// Off: no balance, and no manual movement.
	if s := e.banco(c.token, w, "2024-04-30"); s.Ativo || s.SaldoMinutos != 0 || len(s.Movimentos) != 0 || s.Periodo != nil {
		t.Fatalf("bank off: %+v", s)
	}
	pagamento := map[string]any{"data": "2024-04-30", "tipo": "pagamento", "minutos": 60, "motivo": "pago na folha de abril"}
	movimentos := path("/registropontos/funcionario/%d/banco-horas/movimentos", w.id)
	wantErr(t, e.pub("POST", movimentos, c.token, pagamento), 409, "banco_horas_inativo")

	// A period outside 1 to 12 months, or a start that is not a month's
	// first day, is refused and nothing is written.
	for field, bad := range map[string]map[string]any{
		"periodoMeses":         {"periodoMeses": 13, "inicio": "2024-03-01"},
		"inicio":               {"periodoMeses": 6, "inicio": "2024-03-02"},
		"limiteCreditoMinutos": {"limiteCreditoMinutos": -1},
	} {
		r := e.pub("PUT", "/registropontos/banco-horas/politica", c.token, bad)
		wantErr(t, r, 400, "validacao")
		if r.fields(t)[field] == nil {
			t.Fatalf("%s: %s", field, r.body)
		}
	}
	wantErr(t, e.pub("PUT", "/registropontos/banco-horas/politica", c.token, map[string]any{"periodoMeses": 0}), 400, "validacao")
	if n := e.count("banco_horas_politicas"); n != 0 {
		t.Fatalf("%d policies after the refusals", n)
	}
	wantErr(t, e.pub("PUT", "/registropontos/banco-horas/politica", w.token, map[string]any{}), 403, "acesso_negado")

	r := e.pub("PUT", "/registropontos/banco-horas/politica", c.token, map[string]any{"inicio": "2024-03-01"})
	want(t, r, 200)
	if p := r.obj(t); p["ativo"] != true || p["periodoMeses"] != 6.0 || p["inicio"] != "2024-03-01" {
		t.Fatalf("policy: %s", r.body)
	}
	r = e.pub("GET", "/registropontos/banco-horas/politica", c.token, nil)
	want(t, r, 200)
	if p := r.obj(t); p["periodoMeses"] != 6.0 || p["limiteCreditoMinutos"] != 0.0 {
		t.Fatalf("policy read back: %s", r.body)
	}

	// Manual movements: refused with bad input, in the future, or in a
	// closed period; the payment of April stands.
	for field, bad := range map[string]map[string]any{
		"tipo":    {"data": "2024-04-30", "tipo": "bonus", "minutos": 60, "motivo": "pago na folha"},
		"minutos": {"data": "2024-04-30", "tipo": "pagamento", "minutos": -60, "motivo": "pago na folha"},
		"motivo":  {"data": "2024-04-30", "tipo": "ajuste", "minutos": 10},
		"data":    {"data": "2024-05-03", "tipo": "ajuste", "minutos": 10, "motivo": "amanhã"},
	} {
		r := e.pub("POST", movimentos, c.token, bad)
		wantErr(t, r, 400, "validacao")
		if r.fields(t)[field] == nil {
			t.Fatalf("%s: %s", field, r.body)
		}
	}
	want(t, e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-03-01", "fim": "2024-03-31"}), 201)
	wantErr(t, e.pub("POST", movimentos, c.token, map[string]any{"data": "2024-03-20", "tipo": "compensacao",
		"minutos": 30, "motivo": "folga compensada"}), 409, "periodo_fechado")
	wantErr(t, e.pub("POST", movimentos, w.token, pagamento), 403, "acesso_negado")
	wantErr(t, e.pub("POST", path("/registropontos/funcionario/%d/banco-horas/movimentos", w.id), other.token, pagamento),
		404, "nao_encontrado")
	if n := e.count("banco_horas_movimentos"); n != 0 {
		t.Fatalf("%d movements after the refusals", n)
	}
	r = e.pub("POST", movimentos, c.token, pagamento)
	want(t, r, 201)
	if m := r.obj(t); m["minutos"] != -60.0 || m["tipo"] != "pagamento" || m["funcionarioId"] != float64(w.id) {
		t.Fatalf("movement: %s", r.body)
	}

	march := e.banco(c.token, w, "2024-03-31")
	if march.SaldoMinutos != 170 || march.Periodo.Inicio != "2024-03-01" || march.Periodo.Fim != "2024-08-31" {
		t.Fatalf("March: %+v", march)
	}
	s := e.banco(c.token, w, "2024-04-30")
	wantMovs := []string{
		"2024-03-05 credito 90 90",
		"2024-03-14 debito -40 50",
		"2024-03-16 credito 120 170",
		"2024-04-10 debito -60 110",
		"2024-04-21 credito 240 350",
		"2024-04-30 pagamento -60 290",
	}
	if got := s.movimentos(); s.SaldoMinutos != 290 || !reflect.DeepEqual(got, wantMovs) {
		t.Fatalf("balance %d, movements\n got %q\nwant %q", s.SaldoMinutos, got, wantMovs)
	}
	if s.Movimentos[5].ID == nil || s.Movimentos[0].ID != nil {
		t.Fatalf("only the manual movement has an id: %+v", s.Movimentos)
	}
	// The employee sees his own, the same; not a colleague's; another
	// company sees nothing.
	if own := e.banco(w.token, w, "2024-04-30"); !reflect.DeepEqual(own, s) {
		t.Fatalf("own view %+v\nwant %+v", own, s)
	}
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/banco-horas", colega.id), w.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/banco-horas", w.id), other.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/banco-horas?ate=2024-05-03", w.id), c.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/banco-horas?ate=30/04/2024", w.id), c.token, nil), 400, "validacao")

	// With one-month periods, March's 170 expire on April 1st.
	want(t, e.pub("PUT", "/registropontos/banco-horas/politica", c.token, map[string]any{"inicio": "2024-03-01", "periodoMeses": 1}), 200)
	s = e.banco(c.token, w, "2024-04-30")
	wantMovs = []string{
		"2024-04-01 vencimento -170 0",
		"2024-04-10 debito -60 -60",
		"2024-04-21 credito 240 180",
		"2024-04-30 pagamento -60 120",
	}
	if got := s.movimentos(); s.SaldoMinutos != 120 || s.Periodo.Inicio != "2024-04-01" || !reflect.DeepEqual(got, wantMovs) {
		t.Fatalf("one-month periods: balance %d, movements\n got %q\nwant %q", s.SaldoMinutos, got, wantMovs)
	}
}
