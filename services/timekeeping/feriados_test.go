package main

import (
	"testing"
)

// diaFeriado is a timesheet day's figures as TestFeriadosNacionais reads
// them.
type diaFeriado struct {
	Data      string  `json:"data"`
	Previstos int     `json:"minutosPrevistos"`
	Extras100 int     `json:"minutosExtras100"`
	Extras50  int     `json:"minutosExtras50"`
	Saldo     int     `json:"saldoMinutos"`
	Feriado   *string `json:"feriado"`
}

// diaDoEspelho reads day data (YYYY-MM-DD) of w's timesheet, as the
// company sees it.
func (e *env) diaDoEspelho(c company, w worker, data string) diaFeriado {
	e.t.Helper()
	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=%s", w.id, data[:7]), c.token, nil)
	want(e.t, r, 200)
	var out struct{ Dias []diaFeriado }
	r.into(e.t, &out)
	for _, d := range out.Dias {
		if d.Data == data {
			return d
		}
	}
	e.t.Fatalf("no day %s: %s", data, r.body)
	return diaFeriado{}
}

// National holidays apply without the company typing them; Corpus Christi
// only once the company keeps it; another company's choice is its own.
func TestFeriadosNacionais(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, other := e.company(1), e.company(2)
	escala := e.escala(c, "Comercial", standard())
	w := e.funcionario(c, escala, nil)
	for _, h := range []int{8, 12, 13, 17} { // Good Friday 2024
		e.punch(w, local(2024, 3, 29, h, 0))
	}
	for _, h := range []int{8, 12, 13, 17} { // Corpus Christi 2024, a Thursday
		e.punch(w, local(2024, 5, 30, h, 0))
	}
	e.clock.Set(local(2024, 6, 3, 9, 0))

	if d := e.diaDoEspelho(c, w, "2024-03-29"); d.Feriado == nil || *d.Feriado != "Sexta-feira Santa" ||
		d.Previstos != 0 || d.Extras100 != 480 || d.Saldo != 480 {
		t.Fatalf("Good Friday: %+v", d)
	}
	if d := e.diaDoEspelho(c, w, "2024-05-30"); d.Feriado != nil || d.Previstos != 480 || d.Saldo != 0 {
		t.Fatalf("Corpus Christi as a ponto facultativo: %+v", d)
	}

	url := "/registropontos/feriados/facultativos"
	r := e.pub("GET", url, c.token, nil)
	want(t, r, 200)
	if string(r.body) != `{"carnaval":false,"corpusChristi":false}` {
		t.Fatalf("default: %s", r.body)
	}
	for _, bad := range []map[string]any{{"carnaval": true}, {"carnaval": "sim", "corpusChristi": true}, {}} {
		want(t, e.pub("PUT", url, c.token, bad), 400)
	}
	wantErr(t, e.pub("PUT", url, w.token, map[string]any{"carnaval": true, "corpusChristi": true}), 403, "acesso_negado")
	r = e.pub("PUT", url, c.token, map[string]any{"carnaval": false, "corpusChristi": true})
	want(t, r, 200)
	if string(r.body) != `{"carnaval":false,"corpusChristi":true}` {
		t.Fatalf("put: %s", r.body)
	}
	if d := e.diaDoEspelho(c, w, "2024-05-30"); d.Feriado == nil || *d.Feriado != "Corpus Christi" ||
		d.Previstos != 0 || d.Extras100 != 480 || d.Extras50 != 0 {
		t.Fatalf("Corpus Christi kept as a holiday: %+v", d)
	}
	r = e.pub("GET", url, other.token, nil)
	want(t, r, 200)
	if string(r.body) != `{"carnaval":false,"corpusChristi":false}` {
		t.Fatalf("another company's setting: %s", r.body)
	}
	// The year's list shows the national dates as the company keeps them.
	r = e.pub("GET", "/registropontos/feriados?ano=2024", c.token, nil)
	want(t, r, 200)
	var list struct {
		Nacionais []struct {
			Data        string `json:"data"`
			Nome        string `json:"nome"`
			Facultativo bool   `json:"facultativo"`
			Feriado     bool   `json:"feriado"`
		} `json:"nacionais"`
	}
	r.into(t, &list)
	found := 0
	for _, n := range list.Nacionais {
		switch n.Data {
		case "2024-05-30":
			if n.Facultativo && n.Feriado {
				found++
			}
		case "2024-02-13":
			if n.Facultativo && !n.Feriado {
				found++
			}
		case "2024-03-29":
			if !n.Facultativo && n.Feriado && n.Nome == "Sexta-feira Santa" {
				found++
			}
		}
	}
	if found != 3 {
		t.Fatalf("national dates: %s", r.body)
	}
}
