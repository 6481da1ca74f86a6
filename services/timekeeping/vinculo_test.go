package main

import (
	"testing"
)

// Admitted on 2024-03-06 and terminated on 2024-03-27: the timesheet owes
// nothing before nor after (those days foraDoVinculo, nothing expected,
// no absence), and a treatment of those days is refused with 409
// fora_do_vinculo, nothing stored.
func TestForaDoVinculo(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, map[string]any{"dataAdmissao": "06/03/2024", "dataDemissao": "27/03/2024"})
	e.clock.Set(local(2024, 4, 2, 10, 0))
	for _, data := range []string{"2024-03-05", "2024-03-28"} {
		wantErr(t, e.pub("POST", path("/registropontos/%d/marcar-falta/%s", w.id, data), c.token, nil), 409, "fora_do_vinculo")
		wantErr(t, e.pub("POST", path("/registropontos/funcionario/%d/abonos", w.id), c.token, map[string]any{
			"data": data, "motivo": "folga", "tipo": "folga"}), 409, "fora_do_vinculo")
		wantErr(t, e.pub("POST", path("/registropontos/funcionario/%d/marcacoes", w.id), c.token, map[string]any{
			"horario": data + "T08:00:00-03:00", "motivo": "esqueceu de marcar"}), 409, "fora_do_vinculo")
	}
	for _, table := range []string{"faltas", "abonos", "marcacoes_incluidas"} {
		if n := e.count(table); n != 0 {
			t.Fatalf("%d rows in %s after refused treatments", n, table)
		}
	}
	want(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-06", w.id), c.token, nil), 200)

	r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03", w.id), c.token, nil)
	want(t, r, 200)
	var esp struct {
		Dias []struct {
			Data             string `json:"data"`
			MinutosPrevistos int    `json:"minutosPrevistos"`
			Falta            bool   `json:"falta"`
			ForaDoVinculo    bool   `json:"foraDoVinculo"`
		} `json:"dias"`
		Totais struct {
			MinutosPrevistos int `json:"minutosPrevistos"`
			Faltas           int `json:"faltas"`
		} `json:"totais"`
	}
	r.into(t, &esp)
	for _, d := range esp.Dias {
		fora := d.Data < "2024-03-06" || d.Data > "2024-03-27"
		if d.ForaDoVinculo != fora || (fora && (d.MinutosPrevistos != 0 || d.Falta)) {
			t.Errorf("%s: %+v", d.Data, d)
		}
	}
	// Weekdays from the 6th to the 27th: 6-8, 11-15, 18-22, 25-27 = 3 + 5
	// + 5 + 3 = 16, of 480 minutes: 7680; none punched: 16 absences.
	if esp.Totais.MinutosPrevistos != 16*480 || esp.Totais.Faltas != 16 {
		t.Fatalf("totals: %+v", esp.Totais)
	}
}
