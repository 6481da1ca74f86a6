package main

import (
	"reflect"
	"testing"
)

// A weekly schedule names its weekly rest days (DSR): echoed in weekday
// order, read back and carried by the internal views; absent, nothing is
// echoed (Sunday). Rest days that are working days, repeated, out of
// range, or on a 12x36 are 400 and write nothing.
func TestEscalaDescansoSemanal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	d := map[string]any{"entrada": "08:00", "saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 540}
	body := map[string]any{"empresaId": a.id, "nome": "Segunda a sexta", "descansoSemanal": []int{6, 5},
		"horarios": []map[string]any{d, d, d, d, d}}
	r := e.pub("POST", "/escalatrabalhos", a.token, body)
	want(t, r, 200)
	got := r.obj(t)
	id := int64(got["id"].(float64))
	if !reflect.DeepEqual(got["descansoSemanal"], []any{5.0, 6.0}) {
		t.Fatalf("answer %s", r.body)
	}
	f := e.funcionario(a, id, nil)
	r = e.in("GET", path("/internal/funcionarios/%d/escala", f), nil)
	want(t, r, 200)
	if esc := r.obj(t); !reflect.DeepEqual(esc["descansoSemanal"], []any{5.0, 6.0}) {
		t.Fatalf("internal view %s", r.body)
	}
	r = e.pub("POST", "/escalatrabalhos", a.token, map[string]any{"empresaId": a.id, "nome": "Padrão",
		"horarios": []map[string]any{d}})
	want(t, r, 200)
	if _, ok := r.obj(t)["descansoSemanal"]; ok {
		t.Fatalf("a schedule without rest days echoes one: %s", r.body)
	}

	before := e.count("escalas_trabalho")
	for name, bad := range map[string]map[string]any{
		"working day": {"empresaId": a.id, "nome": "X", "descansoSemanal": []int{4}, "horarios": []map[string]any{d, d, d, d, d}},
		"repeated":    {"empresaId": a.id, "nome": "X", "descansoSemanal": []int{6, 6}, "horarios": []map[string]any{d}},
		"range":       {"empresaId": a.id, "nome": "X", "descansoSemanal": []int{7}, "horarios": []map[string]any{d}},
		"empty":       {"empresaId": a.id, "nome": "X", "descansoSemanal": []int{}, "horarios": []map[string]any{d}},
		"12x36": {"empresaId": a.id, "nome": "X", "tipo": "12x36", "dataInicio": "2024-03-01", "descansoSemanal": []int{6},
			"horarios": []map[string]any{{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720}}},
	} {
		r := e.pub("POST", "/escalatrabalhos", a.token, bad)
		wantErr(t, r, 400, "validacao")
		if r.fields(t)["descansoSemanal"] == nil {
			t.Errorf("%s: fields %s", name, r.body)
		}
	}
	if n := e.count("escalas_trabalho"); n != before {
		t.Fatalf("%d schedules after the refusals, want %d", n, before)
	}
}
