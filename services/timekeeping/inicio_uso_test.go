package main

import (
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// inicioUsoSemana is the week of 2024-03-04 (Monday) to 03-10 (Sunday,
// the DSR) as the timesheet, the report and the hour bank show it.
type inicioUsoSemana struct {
	Dias  []inicioUsoDia
	DSR   dsrView
	Banco int
	// Relatorio is the department report's balance over the week.
	Relatorio int
	// AEJ are the AEJ's type-07 records from 03-03 (Sunday) to 03-10:
	// "code date" (1 a paid DSR, 2 an absence).
	AEJ []string
}

type inicioUsoDia struct {
	Data             string `json:"data"`
	MinutosPrevistos int    `json:"minutosPrevistos"`
	SaldoMinutos     int    `json:"saldoMinutos"`
	Falta            bool   `json:"falta"`
	ForaDoVinculo    bool   `json:"foraDoVinculo"`
}

// The company's first day on ponto (PUT /registropontos/inicio-uso) on
// Wednesday 2024-03-06, on the standard schedule (08:00–17:00, break
// 12:00–13:00: 480 minutes a day, Sunday the rest day): Ana's punches
// start that Wednesday. Before the setting Monday and Tuesday are
// absences, −480 each, and cost Sunday the 10th's DSR; with it they owe
// nothing: no expected minutes, no absence, outside the bond, the DSR
// paid, the week's balance 0 in the timesheet and the report (the hour
// bank never banks an absence: 0 either way), and the AEJ lists neither
// those absences nor Sunday the 3rd's rest (paid now, but before the
// use). Bad dates change nothing; a move that changes a closed day is
// a 409.
func TestInicioUsoDaysBeforeOweNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, other := e.company(1), e.company(2)
	dep := e.departamento(c, "Loja")
	ana := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"departamentoId": dep, "nome": "Ana Lima"})
	for d := 6; d <= 8; d++ {
		for _, at := range []time.Time{local(2024, 3, d, 8, 0), local(2024, 3, d, 12, 0), local(2024, 3, d, 13, 0),
			local(2024, 3, d, 17, 0)} {
			e.punch(ana, at)
		}
	}
	e.clock.Set(local(2024, 3, 11, 10, 0))
	want(t, e.pub("PUT", "/registropontos/banco-horas/politica", c.token, map[string]any{"inicio": "2024-03-01"}), 200)

	semana := func() inicioUsoSemana {
		t.Helper()
		var esp struct {
			Dias       []inicioUsoDia `json:"dias"`
			DSR        []dsrView      `json:"dsr"`
			BancoHoras bancoSaldo     `json:"bancoHoras"`
		}
		r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03", ana.id), c.token, nil)
		want(t, r, 200)
		r.into(t, &esp)
		var s inicioUsoSemana
		for _, d := range esp.Dias {
			if d.Data >= "2024-03-04" && d.Data <= "2024-03-10" {
				s.Dias = append(s.Dias, d)
			}
		}
		for _, r := range esp.DSR {
			if r.Data == "2024-03-10" {
				s.DSR = r
			}
		}
		s.Banco = esp.BancoHoras.SaldoMinutos
		var rel struct {
			Totais struct {
				SaldoMinutos int `json:"saldoMinutos"`
			} `json:"totais"`
		}
		r = e.pub("GET", "/registropontos/departamento/"+url.PathEscape("Loja")+"?inicio=2024-03-04&fim=2024-03-10", c.token, nil)
		want(t, r, 200)
		r.into(t, &rel)
		s.Relatorio = rel.Totais.SaldoMinutos
		r = e.pub("GET", "/registropontos/aej?inicio=2024-03-03&fim=2024-03-10", c.token, nil)
		want(t, r, 200)
		aej, err := core.ParseAEJ(r.body)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range aej.Registros["07"] {
			s.AEJ = append(s.AEJ, f[2]+" "+f[3])
		}
		return s
	}
	dia := func(data string, previstos, saldo int, falta, fora bool) inicioUsoDia {
		return inicioUsoDia{Data: data, MinutosPrevistos: previstos, SaldoMinutos: saldo, Falta: falta, ForaDoVinculo: fora}
	}
	trabalhados := []inicioUsoDia{dia("2024-03-06", 480, 0, false, false), dia("2024-03-07", 480, 0, false, false),
		dia("2024-03-08", 480, 0, false, false)}
	// Not set: Monday and Tuesday are absences, −480 each, and cost the
	// DSR; payroll discounts them, the hour bank does not bank them (0).
	antes := inicioUsoSemana{Dias: append([]inicioUsoDia{dia("2024-03-04", 480, -480, true, false),
		dia("2024-03-05", 480, -480, true, false)}, trabalhados...),
		DSR: dsrView{"2024-03-10", true, []string{"2024-03-04", "2024-03-05"}}, Banco: 0, Relatorio: -960,
		AEJ: []string{"2 2024-03-04", "2 2024-03-05"}} // both Sundays lost (the 3rd to the week of absences before)
	if diff := cmp.Diff(antes, semana()); diff != "" {
		t.Fatalf("without the setting (-want +got):\n%s", diff)
	}
	wantInicio := func(tok, data string) {
		t.Helper()
		r := e.pub("GET", "/registropontos/inicio-uso", tok, nil)
		want(t, r, 200)
		var got struct {
			Data *string `json:"data"`
		}
		r.into(t, &got)
		if (got.Data == nil) != (data == "") || (got.Data != nil && *got.Data != data) {
			t.Fatalf("inicio-uso %s, want %q", r.body, data)
		}
	}
	wantInicio(c.token, "")

	want(t, e.pub("PUT", "/registropontos/inicio-uso", c.token, map[string]any{"data": "2024-03-06"}), 200)
	wantInicio(c.token, "2024-03-06")
	wantInicio(other.token, "") // another company's setting is its own
	depois := inicioUsoSemana{Dias: append([]inicioUsoDia{dia("2024-03-04", 0, 0, false, true),
		dia("2024-03-05", 0, 0, false, true)}, trabalhados...),
		DSR: dsrView{"2024-03-10", false, []string{}}, AEJ: []string{"1 2024-03-10"}}
	if diff := cmp.Diff(depois, semana()); diff != "" {
		t.Fatalf("from Wednesday (-want +got):\n%s", diff)
	}
	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03&formato=pdf", ana.id), c.token, nil)
	want(t, r, 200)
	wantText(t, pdfText(t, r), "antes do início do uso do ponto")

	// Bad input: 400, nothing stored.
	for _, body := range []map[string]any{{"data": "2024-03-12"}, {"data": "1999-12-31"}, {"data": "06/03/2024"},
		{"data": 20240306}, {}} {
		wantErr(t, e.pub("PUT", "/registropontos/inicio-uso", c.token, body), 400, "validacao")
	}
	wantInicio(c.token, "2024-03-06")
	want(t, e.pub("GET", "/registropontos/inicio-uso", ana.token, nil), 403)

	// With February closed, a move that changes one of its days is a 409:
	// a date inside it, or unsetting (every day before 03-06 counts
	// again); a move within March is fine. Reopened, it can be unset.
	r = e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-02-01", "fim": "2024-02-29"})
	want(t, r, 201)
	fechamento := id(r.obj(t))
	wantErr(t, e.pub("PUT", "/registropontos/inicio-uso", c.token, map[string]any{"data": "2024-02-15"}), 409, "periodo_fechado")
	wantErr(t, e.pub("PUT", "/registropontos/inicio-uso", c.token, map[string]any{"data": nil}), 409, "periodo_fechado")
	wantInicio(c.token, "2024-03-06")
	want(t, e.pub("PUT", "/registropontos/inicio-uso", c.token, map[string]any{"data": "2024-03-01"}), 200)
	want(t, e.pub("PUT", "/registropontos/inicio-uso", c.token, map[string]any{"data": "2024-03-06"}), 200)
	want(t, e.pub("POST", path("/registropontos/fechamentos/%d/reabrir", fechamento), c.token,
		map[string]any{"motivo": "início do uso"}), 200)

	// Unset: every day counts again.
	want(t, e.pub("PUT", "/registropontos/inicio-uso", c.token, map[string]any{"data": nil}), 200)
	wantInicio(c.token, "")
	if diff := cmp.Diff(antes, semana()); diff != "" {
		t.Fatalf("unset again (-want +got):\n%s", diff)
	}
}
