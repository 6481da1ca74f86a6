package main

import (
	"net/url"
	"reflect"
	"testing"
	"time"
)

type dsrView struct {
	Data    string   `json:"data"`
	Perdido bool     `json:"perdido"`
	Faltas  []string `json:"faltas"`
}

type dsrTotais struct {
	DSRPerdidos int `json:"dsrPerdidos"`
}

// The paid weekly rest in the timesheet and the report, on the standard
// schedule (Monday to Friday, Sunday the rest day by default), in April
// 2024: the first week worked whole (Tuesday 30 minutes over), an
// unexcused absence on Wednesday the 10th, and Tuesday the 16th excused
// by an abono. Sunday the 14th's DSR is lost, the 7th's and 21st's are
// not; the report starting on the 11th still sees the 10th's absence.
// The hour bank, on from April, holds Tuesday's 30 minutes in both.
func TestDSRInTheTimesheetAndTheReport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	dep := e.departamento(c, "Loja")
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"departamentoId": dep, "nome": "Ana Lima"})
	// Bruno, admitted on the 11th, works every day from then on: the
	// days before his admission are no absences.
	novato := e.funcionario(c, w.escalaID, map[string]any{"departamentoId": dep, "nome": "Bruno Reis",
		"dataAdmissao": "11/04/2024"})
	for d := 1; d <= 19; d++ {
		day := time.Date(2024, 4, d, 0, 0, 0, 0, time.UTC)
		if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
			continue
		}
		saida := 0
		if d == 2 {
			saida = 30
		}
		for _, at := range []time.Time{local(2024, 4, d, 8, 0), local(2024, 4, d, 12, 0), local(2024, 4, d, 13, 0),
			local(2024, 4, d, 17, saida)} {
			if d != 10 && d != 16 {
				e.punch(w, at)
			}
			if d >= 11 {
				e.punch(novato, at.Add(time.Minute/2))
			}
		}
	}
	e.clock.Set(local(2024, 4, 22, 10, 0))
	want(t, e.pub("POST", path("/registropontos/funcionario/%d/abonos", w.id), c.token,
		map[string]any{"data": "2024-04-16", "motivo": "consulta médica", "tipo": "atestado_medico"}), 201)
	want(t, e.pub("PUT", "/registropontos/banco-horas/politica", c.token, map[string]any{"inicio": "2024-04-01"}), 200)

	wantDSR := []dsrView{{"2024-04-07", false, []string{}}, {"2024-04-14", true, []string{"2024-04-10"}},
		{"2024-04-21", false, []string{}}}
	var esp struct {
		DSR        []dsrView  `json:"dsr"`
		Totais     dsrTotais  `json:"totais"`
		BancoHoras bancoSaldo `json:"bancoHoras"`
		Dias       []struct {
			Data string `json:"data"`
		} `json:"dias"`
	}
	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-04", w.id), w.token, nil)
	want(t, r, 200)
	r.into(t, &esp)
	if !reflect.DeepEqual(esp.DSR, wantDSR) || esp.Totais.DSRPerdidos != 1 {
		t.Fatalf("timesheet DSR %+v, %d lost", esp.DSR, esp.Totais.DSRPerdidos)
	}
	if esp.Dias[0].Data != "2024-04-01" {
		t.Fatalf("the timesheet shows the days before the month: %+v", esp.Dias[0])
	}
	if b := esp.BancoHoras; !b.Ativo || b.SaldoMinutos != 30 || len(b.Movimentos) != 1 || b.Movimentos[0].Data != "2024-04-02" ||
		b.ApuradoAte != "2024-04-21" {
		t.Fatalf("timesheet hour bank %+v", b)
	}
	r = e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-04&formato=pdf", w.id), c.token, nil)
	want(t, r, 200)
	wantText(t, pdfText(t, r), "DSR perdidos", "14/04/2024 (faltas: 10/04/2024)", "Banco de horas", "credito")

	var rel struct {
		Totais dsrTotais `json:"totais"`
		Itens  []struct {
			DSR        []dsrView  `json:"dsr"`
			Totais     dsrTotais  `json:"totais"`
			BancoHoras bancoSaldo `json:"bancoHoras"`
			Dias       []struct {
				Data string `json:"data"`
			} `json:"dias"`
		} `json:"itens"`
	}
	r = e.pub("GET", "/registropontos/departamento/"+url.PathEscape("Loja")+"?inicio=2024-04-11&fim=2024-04-21", c.token, nil)
	want(t, r, 200)
	r.into(t, &rel)
	if len(rel.Itens) != 2 {
		t.Fatalf("%d employees in the report", len(rel.Itens))
	}
	it := rel.Itens[0]
	if bruno := rel.Itens[1]; bruno.Totais.DSRPerdidos != 0 || len(bruno.DSR) != 2 {
		t.Fatalf("the newcomer's DSR %+v", bruno.DSR)
	}
	if !reflect.DeepEqual(it.DSR, wantDSR[1:]) || it.Totais.DSRPerdidos != 1 || rel.Totais.DSRPerdidos != 1 {
		t.Fatalf("report DSR %+v, %d lost, department %d", it.DSR, it.Totais.DSRPerdidos, rel.Totais.DSRPerdidos)
	}
	if it.Dias[0].Data != "2024-04-11" {
		t.Fatalf("the report shows the days before its period: %+v", it.Dias[0])
	}
	// The balance at the 21st; no movement between the 11th and the 21st.
	if b := it.BancoHoras; !b.Ativo || b.SaldoMinutos != 30 || len(b.Movimentos) != 0 {
		t.Fatalf("report hour bank %+v", b)
	}
	// A page that does not list the whole department reads the week
	// before the period with the totals: the same DSR.
	r = e.pub("GET", "/registropontos/departamento/"+url.PathEscape("Loja")+"?inicio=2024-04-11&fim=2024-04-21&tamanho=1",
		c.token, nil)
	want(t, r, 200)
	rel.Itens = nil
	r.into(t, &rel)
	if len(rel.Itens) != 1 || !reflect.DeepEqual(rel.Itens[0].DSR, wantDSR[1:]) || rel.Itens[0].Totais.DSRPerdidos != 1 ||
		rel.Totais.DSRPerdidos != 1 || rel.Itens[0].Dias[0].Data != "2024-04-11" {
		t.Fatalf("paged report: %+v, department %d lost", rel.Itens, rel.Totais.DSRPerdidos)
	}
}
