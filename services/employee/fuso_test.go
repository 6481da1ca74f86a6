package main

import (
	"net/url"
	"reflect"
	"slices"
	"testing"
)

func TestFuncionarioFusoHorario(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "A")
	zone := func(id int64) any {
		t.Helper()
		pub := e.pub("GET", path("/funcionarios/%d", id), a.token, nil)
		want(t, pub, 200)
		in := e.in("GET", path("/internal/funcionarios/%d", id), nil)
		want(t, in, 200)
		if p, i := pub.obj(t)["fusoHorario"], in.obj(t)["fusoHorario"]; p != i {
			t.Fatalf("public fusoHorario %v, internal %v", p, i)
		}
		return pub.obj(t)["fusoHorario"]
	}

	manaus := e.funcionario(a, esc, map[string]any{"fusoHorario": "America/Manaus"})
	if z := zone(manaus); z != "America/Manaus" {
		t.Fatalf("fusoHorario %v", z)
	}
	company := e.funcionario(a, esc, nil)
	if z := zone(company); z != nil {
		t.Fatalf("without fusoHorario: %v, want null (the company's)", z)
	}

	r := e.pub("PATCH", path("/funcionarios/%d", company), a.token, map[string]any{"fusoHorario": "America/Noronha"})
	want(t, r, 200)
	if r.obj(t)["fusoHorario"] != "America/Noronha" || zone(company) != "America/Noronha" {
		t.Fatalf("after PATCH: %s", r.body)
	}
	want(t, e.pub("PATCH", path("/funcionarios/%d", company), a.token, map[string]any{"fusoHorario": nil}), 200)
	if z := zone(company); z != nil {
		t.Fatalf("after PATCH null: %v", z)
	}

	for _, bad := range []any{"", "Local", "America/Atlantida", "EST", "-04:00", 4} {
		before := e.count("funcionarios")
		r := e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, map[string]any{"fusoHorario": bad}))
		wantErr(t, r, 400, "validacao")
		if _, ok := r.fields(t)["fusoHorario"]; !ok && bad != 4 {
			t.Errorf("POST %v: fields %v", bad, r.fields(t))
		}
		if n := e.count("funcionarios"); n != before {
			t.Fatalf("POST %v stored an employee", bad)
		}
		r = e.pub("PATCH", path("/funcionarios/%d", manaus), a.token, map[string]any{"fusoHorario": bad, "cargo": "Gerente"})
		wantErr(t, r, 400, "validacao")
		if _, ok := r.fields(t)["fusoHorario"]; !ok && bad != 4 {
			t.Errorf("PATCH %v: fields %v", bad, r.fields(t))
		}
	}
	rec := e.pub("GET", path("/funcionarios/%d", manaus), a.token, nil).obj(t)
	if rec["fusoHorario"] != "America/Manaus" || rec["cargo"] != "Analista" {
		t.Fatalf("a refused PATCH changed the employee: %v", rec)
	}
}

func TestInternalViewsCarryTheSchedule(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	day := map[string]any{"entrada": "08:00", "saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 540}
	night := map[string]any{"entrada": "22:00", "saidaAlmoco": 180, "retornoAlmoco": 240, "saida": 450}
	schedules := map[int64][]map[string]any{}
	newEscala := func(c company, nome string, hs ...map[string]any) int64 {
		r := e.pub("POST", "/escalatrabalhos", c.token, map[string]any{"empresaId": c.id, "nome": nome, "horarios": hs})
		want(t, r, 200)
		id := int64(r.obj(t)["id"].(float64))
		schedules[id] = hs
		return id
	}
	diurna := newEscala(a, "Diurna", day, day, day, day, day)
	noturna := newEscala(a, "Noturna 12x36", night, night, night)
	deB := newEscala(b, "De B", day)
	dep := e.departamento(a, "Hospital")
	ana := e.funcionario(a, diurna, map[string]any{"departamentoId": dep, "nome": "Ana Lima"})
	bia := e.funcionario(a, noturna, map[string]any{"departamentoId": dep, "nome": "Bia Rocha", "fusoHorario": "America/Manaus"})
	caio := e.funcionario(b, deB, nil)
	owner := map[int64]int64{ana: diurna, bia: noturna, caio: deB}
	empresa := map[int64]int64{ana: a.id, bia: a.id, caio: b.id}

	// checkView: the internal view carries the employee's own schedule,
	// exactly as GET /internal/funcionarios/{id}/escala answers it.
	checkView := func(rec map[string]any) {
		t.Helper()
		checkInternalRecord(t, rec)
		id := int64(rec["id"].(float64))
		esc := e.in("GET", path("/internal/funcionarios/%d/escala", id), nil)
		want(t, esc, 200)
		wantEscala := roundTrip(t, map[string]any{"id": owner[id], "empresaId": empresa[id],
			"nome": esc.obj(t)["nome"], "horarios": schedules[owner[id]]})
		if !reflect.DeepEqual(rec["escala"], esc.obj(t)) || !reflect.DeepEqual(rec["escala"], wantEscala) {
			t.Fatalf("employee %d: escala %v\nroute %s\nwant %v", id, rec["escala"], esc.body, wantEscala)
		}
	}

	// One by one, and in one batch (the clock-in's route).
	for id := range owner {
		checkView(e.in("GET", path("/internal/funcionarios/%d", id), nil).obj(t))
	}
	r := e.in("GET", path("/internal/funcionarios?ids=%d,%d,%d", ana, bia, caio), nil)
	want(t, r, 200)
	var many struct {
		Funcionarios []map[string]any `json:"funcionarios"`
	}
	r.into(t, &many)
	if len(many.Funcionarios) != 3 {
		t.Fatalf("by ids: %s", r.body)
	}
	for _, rec := range many.Funcionarios {
		checkView(rec)
		if rec["id"] == float64(bia) && rec["fusoHorario"] != "America/Manaus" {
			t.Errorf("Bia's fusoHorario %v", rec["fusoHorario"])
		}
	}
	// The department route of the reports: each member's schedule once.
	r = e.in("GET", path("/internal/empresas/%d/departamentos/por-nome/%s/quadro", a.id, url.PathEscape("Hospital")), nil)
	want(t, r, 200)
	var dept struct {
		Funcionarios []map[string]any `json:"funcionarios"`
		Escalas      []map[string]any `json:"escalas"`
	}
	r.into(t, &dept)
	if len(dept.Funcionarios) != 2 || len(dept.Escalas) != 2 {
		t.Fatalf("department: %s", r.body)
	}
	for i, rec := range dept.Funcionarios {
		id := int64(rec["id"].(float64))
		if rec["escalaTrabalhoId"] != float64(owner[id]) {
			t.Errorf("member %d: escalaTrabalhoId %v, want %d", id, rec["escalaTrabalhoId"], owner[id])
		}
		esc := e.in("GET", path("/internal/funcionarios/%d/escala", id), nil).obj(t)
		if !slices.ContainsFunc(dept.Escalas, func(m map[string]any) bool { return reflect.DeepEqual(m, esc) }) {
			t.Errorf("member %d (%d): schedule %v not among %v", id, i, esc, dept.Escalas)
		}
	}
	// A change of schedule shows at once.
	want(t, e.pub("PATCH", path("/funcionarios/%d", ana), a.token, map[string]any{"escalaTrabalhoId": noturna}), 200)
	owner[ana] = noturna
	checkView(e.in("GET", path("/internal/funcionarios/%d", ana), nil).obj(t))

	// Public answers never carry it.
	for _, p := range []string{path("/funcionarios/%d", bia), "/funcionarios", path("/departamentos/%d/0/funcionarios", dep)} {
		r := e.pub("GET", p, a.token, nil)
		want(t, r, 200)
		if m := r.obj(t); m["itens"] != nil {
			for _, it := range m["itens"].([]any) {
				checkRecord(t, it.(map[string]any))
			}
		} else {
			checkRecord(t, m)
		}
	}
	r = e.pub("PATCH", path("/funcionarios/%d", bia), a.token, map[string]any{"cargo": "Enfermeira"})
	want(t, r, 200)
	checkRecord(t, r.obj(t))
	r = e.pub("GET", path("/funcionarios/%d", bia), e.iss.Funcionario(t, a.id, bia), nil)
	want(t, r, 200)
	checkRecord(t, r.obj(t))
}
