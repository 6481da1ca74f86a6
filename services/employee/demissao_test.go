package main

import (
	"testing"
	"time"
)

// The termination date: stored and answered as the admission date is;
// never before the admission (400, nothing stored), on creation or on an
// update, nor an admission in the future.
func TestFuncionarioDemissao(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "Padrão")

	for _, c := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"termination before admission", map[string]any{"dataAdmissao": "10/03/2024", "dataDemissao": "09/03/2024"}, "dataDemissao"},
		{"termination not a date", map[string]any{"dataDemissao": "2024-03-09"}, "dataDemissao"},
		{"admission in the future", map[string]any{"dataAdmissao": time.Now().AddDate(0, 0, 2).Format("02/01/2006")}, "dataAdmissao"},
	} {
		r := e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, c.body))
		wantErr(t, r, 400, "validacao")
		if _, ok := r.fields(t)[c.field]; !ok {
			t.Errorf("%s: fields %v do not name %s", c.name, r.fields(t), c.field)
		}
	}
	if n := e.count("funcionarios"); n != 0 {
		t.Fatalf("%d employees created by invalid requests", n)
	}

	id := e.funcionario(a, esc, map[string]any{"dataAdmissao": "10/03/2024", "dataDemissao": "20/03/2024"})
	r := e.pub("GET", path("/funcionarios/%d", id), a.token, nil)
	want(t, r, 200)
	if rec := r.obj(t); rec["dataDemissao"] != "2024-03-20T00:00:00.000Z" || rec["dataAdmissao"] != "2024-03-10T00:00:00.000Z" {
		t.Fatalf("dates: %v %v", rec["dataAdmissao"], rec["dataDemissao"])
	}
	// Against the stored admission: 400, the stored date stays.
	r = e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"dataDemissao": "01/03/2024"})
	wantErr(t, r, 400, "validacao")
	if _, ok := r.fields(t)["dataDemissao"]; !ok {
		t.Fatalf("fields %v", r.fields(t))
	}
	r = e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"dataAdmissao": "21/03/2024"})
	wantErr(t, r, 400, "validacao")
	var adm, dem string
	if err := e.db.QueryRow(t.Context(), `SELECT data_admissao::text, data_demissao::text FROM funcionarios WHERE id = $1`,
		id).Scan(&adm, &dem); err != nil || adm != "2024-03-10" || dem != "2024-03-20" {
		t.Fatalf("stored: %v %s %s", err, adm, dem)
	}
	want(t, e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"dataDemissao": "31/03/2024"}), 200)
	want(t, e.pub("PATCH", path("/funcionarios/%d", id), a.token, map[string]any{"dataDemissao": nil}), 200)
	r = e.pub("GET", path("/funcionarios/%d", id), a.token, nil)
	if rec := r.obj(t); rec["dataDemissao"] != nil {
		t.Fatalf("termination not cleared: %v", rec["dataDemissao"])
	}
}
