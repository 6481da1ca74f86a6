package main

import (
	"testing"
)

// A 12x36 employee's timesheet: his shifts on the anchor date and every
// second day (a missed one is -660), the rest days between left out.
func TestEspelho12x36(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	r := call(t, e.emp.public, "POST", "/escalatrabalhos", c.token, map[string]any{"empresaId": c.id, "nome": "Plantão",
		"tipo": "12x36", "dataInicio": "2024-03-01",
		"horarios": []map[string]any{{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720}}})
	want(t, r, 200)
	w := e.funcionario(c, id(r.obj(t)), nil)
	for _, day := range []int{1, 3} {
		for _, h := range []int{7, 12, 13, 19} {
			e.punch(w, local(2024, 3, day, h, 0))
		}
	}
	e.clock.Set(local(2024, 3, 6, 9, 0))
	r = e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03", w.id), c.token, nil)
	want(t, r, 200)
	var out struct{ Dias []diaFeriado }
	r.into(t, &out)
	got := map[string]int{}
	for _, d := range out.Dias {
		got[d.Data] = d.Saldo
		if d.Previstos != 0 && d.Previstos != 660 {
			t.Errorf("%s: expected %d minutes", d.Data, d.Previstos)
		}
	}
	if len(got) != 3 || got["2024-03-01"] != 0 || got["2024-03-03"] != 0 || got["2024-03-05"] != -660 {
		t.Fatalf("12x36 days: %v", got)
	}
}
