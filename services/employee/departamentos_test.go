package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestDepartamentoCreateNumbersSegments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	r := e.pub("POST", "/departamentos", a.token, map[string]any{"nome": "Vendas", "segmentos": []string{"Equipe A", "Equipe B"}})
	want(t, r, 200)
	got := r.obj(t)
	id := got["id"].(float64)
	wantBody := map[string]any{"id": id, "empresaId": float64(a.id), "nome": "Vendas", "segmentos": []any{
		map[string]any{"numero": float64(1), "nome": "Equipe A"},
		map[string]any{"numero": float64(2), "nome": "Equipe B"},
	}}
	if !reflect.DeepEqual(got, wantBody) {
		t.Fatalf("answer %v\nwant %v", got, wantBody)
	}
	r = e.pub("GET", path("/departamentos/%d", int64(id)), a.token, nil)
	want(t, r, 200)
	if !reflect.DeepEqual(r.obj(t), wantBody) {
		t.Fatalf("read back %s", r.body)
	}

	// Without segments, and with the caller's own empresaId.
	r = e.pub("POST", "/departamentos", a.token, map[string]any{"nome": "RH", "empresaId": a.id})
	want(t, r, 200)
	if segs := r.obj(t)["segmentos"].([]any); len(segs) != 0 {
		t.Fatalf("segmentos = %v", segs)
	}
}

func TestDepartamentoDuplicatesAndValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	e.departamento(a, "Vendas")
	wantErr(t, e.pub("POST", "/departamentos", a.token, map[string]any{"nome": "VENDAS"}), 409, "departamento_duplicado")
	// Another company may use the same name.
	e.departamento(b, "Vendas")

	many := make([]string, 51)
	for i := range many {
		many[i] = fmt.Sprintf("S%d", i)
	}
	for name, tc := range map[string]struct {
		body  any
		field string
	}{
		"no nome":          {map[string]any{"segmentos": []string{}}, "nome"},
		"blank nome":       {map[string]any{"nome": "   "}, "nome"},
		"padded nome":      {map[string]any{"nome": " Vendas2"}, "nome"},
		"long nome":        {map[string]any{"nome": strings.Repeat("x", 101)}, "nome"},
		"blank segment":    {map[string]any{"nome": "Ops", "segmentos": []string{"A", ""}}, "segmentos[1]"},
		"repeated segment": {map[string]any{"nome": "Ops", "segmentos": []string{"Equipe", "equipe"}}, "segmentos[1]"},
		"51 segments":      {map[string]any{"nome": "Ops", "segmentos": many}, "segmentos"},
		"segment type":     {map[string]any{"nome": "Ops", "segmentos": []int{1}}, "segmentos"},
		"empresaId 0":      {map[string]any{"nome": "Ops", "empresaId": 0}, "empresaId"},
		"empresaId -1":     {map[string]any{"nome": "Ops", "empresaId": -1}, "empresaId"},
	} {
		t.Run(name, func(t *testing.T) {
			r := e.pub("POST", "/departamentos", a.token, tc.body)
			wantErr(t, r, 400, "validacao")
			if _, ok := r.fields(t)[tc.field]; !ok {
				t.Fatalf("fields %v do not name %s", r.fields(t), tc.field)
			}
		})
	}
	if n := e.count("departamentos"); n != 2 {
		t.Fatalf("%d departments, want 2", n)
	}
	if n := e.count("segmentos"); n != 0 {
		t.Fatalf("%d segments left by refused requests", n)
	}
	wantErr(t, e.pub("POST", "/departamentos", a.token, map[string]any{"nome": "X", "empresaId": b.id}), 403, "empresa_divergente")
}

func TestDepartamentoTenancyAndList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	bDep := e.departamento(b, "Diretoria secreta", "Conselho")
	for i := range 3 {
		e.departamento(a, fmt.Sprintf("Dep %d", i), "T1")
	}

	r := e.pub("GET", path("/departamentos/%d", bDep), a.token, nil)
	wantErr(t, r, 404, "nao_encontrado")
	if strings.Contains(string(r.body), "secreta") {
		t.Fatalf("404 reveals B's data: %s", r.body)
	}
	wantErr(t, e.pub("GET", path("/departamentos/%d/0/funcionarios", bDep), a.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", path("/departamentos/%d/1/funcionarios", bDep), a.token, nil), 404, "nao_encontrado")

	var res struct {
		Itens []struct {
			Nome      string `json:"nome"`
			Segmentos []struct {
				Numero int    `json:"numero"`
				Nome   string `json:"nome"`
			} `json:"segmentos"`
		} `json:"itens"`
		Total int `json:"total"`
	}
	r = e.pub("GET", "/departamentos?tamanho=2&pagina=2", a.token, nil)
	want(t, r, 200)
	r.into(t, &res)
	if res.Total != 3 || len(res.Itens) != 1 || res.Itens[0].Nome != "Dep 2" || len(res.Itens[0].Segmentos) != 1 || res.Itens[0].Segmentos[0].Numero != 1 {
		t.Fatalf("page = %+v", res)
	}
	wantErr(t, e.pub("GET", "/departamentos?tamanho=1000", a.token, nil), 400, "validacao")

	emp := e.iss.Funcionario(t, a.id, 1)
	wantErr(t, e.pub("GET", "/departamentos", emp, nil), 403, "acesso_negado")
	wantErr(t, e.pub("POST", "/departamentos", emp, map[string]any{"nome": "X"}), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/departamentos/1/0/funcionarios", emp, nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/departamentos", "", nil), 401, "nao_autenticado")
}

func TestDepartamentoFuncionariosBySegment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	esc := e.escala(a, "Padrão")
	dep := e.departamento(a, "Vendas", "Equipe A", "Equipe B")
	other := e.departamento(a, "RH")
	var inA, inB []int64
	for range 3 {
		inA = append(inA, e.funcionario(a, esc, map[string]any{"departamentoId": dep, "segmento": 1}))
	}
	inB = append(inB, e.funcionario(a, esc, map[string]any{"departamentoId": dep, "segmento": 2}))
	noSeg := e.funcionario(a, esc, map[string]any{"departamentoId": dep})
	e.funcionario(a, esc, map[string]any{"departamentoId": other})
	e.funcionario(a, esc, nil)
	e.funcionario(b, e.escala(b, "B"), nil)

	ids := func(r response) ([]int64, int) {
		t.Helper()
		want(t, r, 200)
		var res struct {
			Itens []struct {
				ID             int64 `json:"id"`
				DepartamentoID int64 `json:"departamentoId"`
			} `json:"itens"`
			Total int `json:"total"`
		}
		r.into(t, &res)
		out := []int64{}
		for _, it := range res.Itens {
			if it.DepartamentoID != dep {
				t.Fatalf("employee %d of department %d listed", it.ID, it.DepartamentoID)
			}
			out = append(out, it.ID)
		}
		return out, res.Total
	}
	got, total := ids(e.pub("GET", path("/departamentos/%d/0/funcionarios", dep), a.token, nil))
	if total != 5 || len(got) != 5 {
		t.Fatalf("whole department: %v (total %d)", got, total)
	}
	got, total = ids(e.pub("GET", path("/departamentos/%d/1/funcionarios", dep), a.token, nil))
	if total != 3 || !reflect.DeepEqual(got, inA) {
		t.Fatalf("segment 1: %v (total %d), want %v", got, total, inA)
	}
	got, _ = ids(e.pub("GET", path("/departamentos/%d/2/funcionarios", dep), a.token, nil))
	if !reflect.DeepEqual(got, inB) {
		t.Fatalf("segment 2: %v, want %v", got, inB)
	}
	got, total = ids(e.pub("GET", path("/departamentos/%d/0/funcionarios?tamanho=2&pagina=3", dep), a.token, nil))
	if total != 5 || len(got) != 1 || got[0] != noSeg {
		t.Fatalf("page 3 of 2: %v (total %d), want [%d]", got, total, noSeg)
	}

	wantErr(t, e.pub("GET", path("/departamentos/%d/3/funcionarios", dep), a.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/departamentos/999999/0/funcionarios", a.token, nil), 404, "nao_encontrado")
	for _, p := range []string{"/departamentos/abc/0/funcionarios", path("/departamentos/%d/x/funcionarios", dep),
		path("/departamentos/%d/-1/funcionarios", dep), path("/departamentos/%d/1.5/funcionarios", dep),
		path("/departamentos/%d/0/funcionarios?tamanho=101", dep), path("/departamentos/%d/0/funcionarios?ativo=talvez", dep)} {
		wantErr(t, e.pub("GET", p, a.token, nil), 400, "validacao")
	}
}
