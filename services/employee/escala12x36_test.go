package main

import (
	"reflect"
	"testing"
)

// A 12x36 schedule is echoed with its tipo and anchor date, read back,
// carried by the internal views; one without an anchor (or with more
// than one entry, or a shift over 12 hours) is 400 and writes nothing.
func TestEscala12x36(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	body := map[string]any{"empresaId": a.id, "nome": "Plantão 12x36", "tipo": "12x36", "dataInicio": "2024-03-01",
		"horarios": []map[string]any{{"entrada": "19:00", "saidaAlmoco": 360, "retornoAlmoco": 420, "saida": 720}}}
	r := e.pub("POST", "/escalatrabalhos", a.token, body)
	want(t, r, 200)
	got := r.obj(t)
	id := int64(got["id"].(float64))
	delete(got, "id")
	if sent := roundTrip(t, body); !reflect.DeepEqual(got, sent) {
		t.Fatalf("answer %v\nwant the body as sent %v", got, sent)
	}
	r = e.pub("GET", path("/escalatrabalhos/%d", id), a.token, nil)
	want(t, r, 200)
	if back := r.obj(t); back["tipo"] != "12x36" || back["dataInicio"] != "2024-03-01" {
		t.Fatalf("read back %v", back)
	}
	f := e.funcionario(a, id, nil)
	r = e.in("GET", path("/internal/funcionarios/%d/escala", f), nil)
	want(t, r, 200)
	if esc := r.obj(t); esc["tipo"] != "12x36" || esc["dataInicio"] != "2024-03-01" {
		t.Fatalf("internal view %v", esc)
	}
	r = e.in("GET", path("/internal/funcionarios/%d", f), nil)
	want(t, r, 200)
	if esc, _ := r.obj(t)["escala"].(map[string]any); esc["tipo"] != "12x36" || esc["dataInicio"] != "2024-03-01" {
		t.Fatalf("employee's internal view %s", r.body)
	}

	before := e.count("escalas_trabalho")
	for field, bad := range map[string]map[string]any{
		"dataInicio": {"empresaId": a.id, "nome": "Sem âncora", "tipo": "12x36",
			"horarios": []map[string]any{{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720}}},
		"horarios": {"empresaId": a.id, "nome": "Dois turnos", "tipo": "12x36", "dataInicio": "2024-03-01",
			"horarios": []map[string]any{{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720},
				{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720}}},
		"horarios[0].saida": {"empresaId": a.id, "nome": "Longo", "tipo": "12x36", "dataInicio": "2024-03-01",
			"horarios": []map[string]any{{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 780}}},
		"tipo": {"empresaId": a.id, "nome": "Outro", "tipo": "24x72",
			"horarios": []map[string]any{{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720}}},
	} {
		r := e.pub("POST", "/escalatrabalhos", a.token, bad)
		wantErr(t, r, 400, "validacao")
		if r.fields(t)[field] == nil {
			t.Errorf("%s: fields %s", field, r.body)
		}
	}
	if n := e.count("escalas_trabalho"); n != before {
		t.Fatalf("%d schedules after the refusals, want %d", n, before)
	}
}
