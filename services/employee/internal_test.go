package main

import (
	"maps"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// recordTypes is the contract's "Employee record" with each field's JSON
// type, followed by the additions (fusoHorario, empresaId,
// escalaTrabalhoId, departamentoId, segmento). "null" fields may also
// hold the type after the bar when set. The internal views add escala
// (internalRecordTypes).
var recordTypes = map[string]string{
	"id": "number", "nome": "string", "cargo": "string", "email": "string", "endereco": "string",
	"telefone": "string", "role": "string", "cpfcnpj": "string", "codeVerify": "string|null",
	"dataNascimento": "string", "horarioTrabalho": "number", "ativo": "bool", "clt": "bool", "pj": "bool",
	"sobreaviso": "bool", "sentimento": "string", "registrosPonto": "array",
	"cidade": "null|string", "codeMatricula": "null|string", "dataAdmissao": "null|string",
	"deviceToken": "null|string", "fotoProfile": "null|string", "nispis": "null|string", "uf": "null|string",
	"valorHora": "null|number", "fusoHorario": "null|string", "dataDemissao": "null|string",
	"empresaId": "number", "escalaTrabalhoId": "number", "departamentoId": "null|number", "segmento": "null|number",
	"estabelecimentoId": "number",
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case []any:
		return "array"
	}
	return "object"
}

// internalRecordTypes is the internal employee view: the record and the
// employee's schedule.
var internalRecordTypes = func() map[string]string {
	m := map[string]string{"escala": "object"}
	for k, v := range recordTypes {
		m[k] = v
	}
	return m
}()

// membroTypes are the fields of a member of the department route
// (internalapi.Membro).
var membroTypes = map[string]string{"id": "number", "nome": "string", "cargo": "string", "cpfcnpj": "string",
	"ativo": "bool", "segmento": "number|null", "escalaTrabalhoId": "number", "dataAdmissao": "string|null",
	"fusoHorario": "string|null", "dataDemissao": "string|null"}

// checkRecord fails unless rec has exactly the public record's fields,
// each of its type.
func checkRecord(t *testing.T, rec map[string]any) {
	t.Helper()
	checkFields(t, rec, recordTypes)
}

// checkInternalRecord is checkRecord for the internal view.
func checkInternalRecord(t *testing.T, rec map[string]any) {
	t.Helper()
	checkFields(t, rec, internalRecordTypes)
}

func checkFields(t *testing.T, rec map[string]any, types map[string]string) {
	t.Helper()
	if len(rec) != len(types) {
		t.Errorf("record has %d fields, want %d: %v", len(rec), len(types), sortedKeys(rec))
	}
	for k, want := range types {
		v, ok := rec[k]
		if !ok {
			t.Errorf("record lacks %s", k)
			continue
		}
		if got := jsonType(v); !strings.Contains("|"+want+"|", "|"+got+"|") {
			t.Errorf("%s is %s (%v), want %s", k, got, v, want)
		}
	}
}

func TestInternalFuncionarioRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "A")
	body := funcionarioBody(a, esc, map[string]any{"email": "Maria.Souza@Empresa.com.br", "dataNascimento": "29/02/2000"})
	r := e.pub("POST", "/funcionarios", a.token, body)
	want(t, r, 200)
	id := int64(r.obj(t)["id"].(float64))

	r = e.in("GET", path("/internal/funcionarios/%d", id), nil)
	want(t, r, 200)
	rec := r.obj(t)
	checkInternalRecord(t, rec)
	wantValues := map[string]any{
		"id": float64(id), "nome": body["nome"], "cargo": "Analista", "email": "Maria.Souza@Empresa.com.br",
		"endereco": "", "telefone": "11987654321", "role": "funcionario", "cpfcnpj": body["cpf"], "codeVerify": nil,
		"dataNascimento": "2000-02-29T00:00:00.000Z", "horarioTrabalho": float64(480), "ativo": true, "clt": false,
		"pj": false, "sobreaviso": false, "sentimento": "Neutro", "registrosPonto": []any{}, "cidade": nil,
		"codeMatricula": nil, "dataAdmissao": nil, "deviceToken": nil, "fotoProfile": nil, "nispis": nil, "uf": nil,
		"valorHora": nil, "fusoHorario": nil, "dataDemissao": nil,
		"empresaId": float64(a.id), "escalaTrabalhoId": float64(esc), "departamentoId": nil, "segmento": nil,
		"estabelecimentoId": float64(0),
	}
	// The internal view adds the schedule, as its own route answers it.
	wantInternal := map[string]any{"escala": e.in("GET", path("/internal/funcionarios/%d/escala", id), nil).obj(t)}
	for k, v := range wantValues {
		wantInternal[k] = v
	}
	if !reflect.DeepEqual(rec, wantInternal) {
		t.Fatalf("record %v\nwant %v", rec, wantInternal)
	}

	// The public read is the same record without the schedule (codeVerify
	// aside, see below).
	pub := e.pub("GET", path("/funcionarios/%d", id), a.token, nil).obj(t)
	if !reflect.DeepEqual(pub, wantValues) {
		t.Fatalf("public record %v\nwant %v", pub, wantValues)
	}

	// By e-mail, whatever the case.
	for _, q := range []string{"maria.souza@empresa.com.br", "MARIA.SOUZA@EMPRESA.COM.BR"} {
		r = e.in("GET", "/internal/funcionarios/por-email?email="+url.QueryEscape(q), nil)
		want(t, r, 200)
		if !reflect.DeepEqual(r.obj(t), wantValues) {
			t.Fatalf("by e-mail %s (the record without escala): %s", q, r.body)
		}
	}
	wantErr(t, e.in("GET", "/internal/funcionarios/por-email?email=ninguem@x.com", nil), 404, "nao_encontrado")
	wantErr(t, e.in("GET", "/internal/funcionarios/por-email", nil), 400, "validacao")
	wantErr(t, e.in("GET", "/internal/funcionarios/999999", nil), 404, "nao_encontrado")
	wantErr(t, e.in("GET", "/internal/funcionarios/abc", nil), 400, "validacao")

	// Several at once: those that exist, the same record; unknown ids and
	// repeats left out.
	other := e.pub("POST", "/funcionarios", a.token, funcionarioBody(a, esc, nil))
	want(t, other, 200)
	otherID := int64(other.obj(t)["id"].(float64))
	r = e.in("GET", path("/internal/funcionarios?ids=%d,999999,%d,%d", id, otherID, id), nil)
	want(t, r, 200)
	var many struct {
		Funcionarios []map[string]any `json:"funcionarios"`
	}
	r.into(t, &many)
	got := map[float64]map[string]any{}
	for _, f := range many.Funcionarios {
		got[f["id"].(float64)] = f
	}
	if len(many.Funcionarios) != 2 || !reflect.DeepEqual(got[float64(id)], wantInternal) || got[float64(otherID)] == nil {
		t.Fatalf("by ids: %s", r.body)
	}
	// The clock-in's form: the one schedule both work on comes once, the
	// records without it and without the login code's hash.
	r = e.in("GET", path("/internal/funcionarios?ids=%d,%d&escalas=separadas", id, otherID), nil)
	want(t, r, 200)
	var separate struct {
		Funcionarios []map[string]any `json:"funcionarios"`
		Escalas      []map[string]any `json:"escalas"`
	}
	r.into(t, &separate)
	wantRecord := maps.Clone(wantInternal)
	wantRecord["escala"], wantRecord["codeVerify"] = nil, nil
	if len(separate.Escalas) != 1 || !reflect.DeepEqual(separate.Escalas[0], wantInternal["escala"]) ||
		len(separate.Funcionarios) != 2 {
		t.Fatalf("by ids, schedules apart: %s", r.body)
	}
	for _, f := range separate.Funcionarios {
		if (f["id"] == float64(id) && !reflect.DeepEqual(f, wantRecord)) || f["escala"] != nil || f["codeVerify"] != nil {
			t.Fatalf("by ids, schedules apart: record %v\nwant %v", f, wantRecord)
		}
	}
	// A schedule the caller holds (escalasConhecidas) is left out; the
	// records are the same. Naming another schedule hides nothing.
	for _, c := range []struct {
		known   string
		escalas int
	}{{path("%d", esc), 0}, {path("%d,%d", esc+1000, esc), 0}, {path("%d", esc+1000), 1}} {
		r = e.in("GET", path("/internal/funcionarios?ids=%d,%d&escalas=separadas&escalasConhecidas=", id, otherID)+c.known, nil)
		want(t, r, 200)
		separate.Funcionarios, separate.Escalas = nil, nil
		r.into(t, &separate)
		if len(separate.Escalas) != c.escalas || len(separate.Funcionarios) != 2 {
			t.Fatalf("by ids, schedules %s known: %s", c.known, r.body)
		}
		for _, f := range separate.Funcionarios {
			if f["id"] == float64(id) && !reflect.DeepEqual(f, wantRecord) {
				t.Fatalf("by ids, schedules %s known: record %v\nwant %v", c.known, f, wantRecord)
			}
		}
	}
	wantErr(t, e.in("GET", path("/internal/funcionarios?ids=%d&escalasConhecidas=%d", id, esc), nil), 400, "validacao")
	for _, bad := range []string{"abc", "0", "1,,2", strings.Repeat("1,", 100) + "1"} {
		wantErr(t, e.in("GET", path("/internal/funcionarios?ids=%d&escalas=separadas&escalasConhecidas=", id)+bad, nil),
			400, "validacao")
	}
	wantErr(t, e.in("GET", path("/internal/funcionarios?ids=%d&escalas=juntas", id), nil), 400, "validacao")
	for _, bad := range []string{"", "?ids=", "?ids=1,abc", "?ids=0", "?ids=-3", "?ids=1,,2",
		"?ids=" + strings.Repeat("1,", 100) + "1"} {
		wantErr(t, e.in("GET", "/internal/funcionarios"+bad, nil), 400, "validacao")
	}

	// The internal routes are not on the public listener.
	want(t, e.pub("GET", path("/internal/funcionarios/%d", id), a.token, nil), 404)
}

func TestInternalCodeVerifyAndFoto(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	id := e.funcionario(a, e.escala(a, "A"), nil)
	hash := "$2a$10$abcdefghijklmnopqrstuuJ1a2b3c4d5e6f7g8h9i0jklmnopqrs"

	r := e.in("PUT", path("/internal/funcionarios/%d/code-verify", id), map[string]any{"codeVerify": hash})
	want(t, r, 204)
	rec := e.in("GET", path("/internal/funcionarios/%d", id), nil).obj(t)
	if rec["codeVerify"] != hash {
		t.Fatalf("codeVerify = %v", rec["codeVerify"])
	}
	// Public reads never show it: a six-digit code's hash is guessable.
	for _, tok := range []string{a.token, e.iss.Funcionario(t, a.id, id)} {
		r = e.pub("GET", path("/funcionarios/%d", id), tok, nil)
		want(t, r, 200)
		if v, ok := r.obj(t)["codeVerify"]; !ok || v != nil || strings.Contains(string(r.body), hash) {
			t.Fatalf("public codeVerify = %v", v)
		}
	}
	want(t, e.in("PUT", path("/internal/funcionarios/%d/code-verify", id), map[string]any{"codeVerify": nil}), 204)
	if rec := e.in("GET", path("/internal/funcionarios/%d", id), nil).obj(t); rec["codeVerify"] != nil {
		t.Fatalf("codeVerify after clearing = %v", rec["codeVerify"])
	}

	foto := "http://minio.local/ponto-fotos/empresa-1/funcionario.webp"
	want(t, e.in("PUT", path("/internal/funcionarios/%d/foto", id), map[string]any{"fotoProfile": foto}), 204)
	if rec := e.pub("GET", path("/funcionarios/%d", id), a.token, nil).obj(t); rec["fotoProfile"] != foto {
		t.Fatalf("fotoProfile = %v", rec["fotoProfile"])
	}
	want(t, e.in("PUT", path("/internal/funcionarios/%d/foto", id), map[string]any{"fotoProfile": nil}), 204)
	if rec := e.pub("GET", path("/funcionarios/%d", id), a.token, nil).obj(t); rec["fotoProfile"] != nil {
		t.Fatalf("fotoProfile after clearing = %v", rec["fotoProfile"])
	}

	for _, tc := range []struct {
		path string
		body any
	}{
		{"foto", map[string]any{}},
		{"foto", map[string]any{"fotoProfile": ""}},
		{"foto", map[string]any{"fotoProfile": strings.Repeat("x", 2049)}},
		{"foto", map[string]any{"fotoProfile": 1}},
		{"code-verify", map[string]any{"codeVerify": strings.Repeat("x", 256)}},
		{"code-verify", map[string]any{"hash": "x"}},
	} {
		wantErr(t, e.in("PUT", path("/internal/funcionarios/%d/%s", id, tc.path), tc.body), 400, "validacao")
	}
	wantErr(t, e.in("PUT", "/internal/funcionarios/999999/foto", map[string]any{"fotoProfile": foto}), 404, "nao_encontrado")
	wantErr(t, e.in("PUT", "/internal/funcionarios/999999/code-verify", map[string]any{"codeVerify": hash}), 404, "nao_encontrado")
}

func TestInternalEscalaOfFuncionario(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.company(1)
	esc := e.escala(a, "Padrão")
	id := e.funcionario(a, esc, nil)
	r := e.in("GET", path("/internal/funcionarios/%d/escala", id), nil)
	want(t, r, 200)
	got := r.obj(t)
	wantBody := roundTrip(t, map[string]any{"id": esc, "empresaId": a.id, "nome": "Padrão", "horarios": standardHorarios()})
	if !reflect.DeepEqual(got, wantBody) {
		t.Fatalf("schedule %v\nwant %v", got, wantBody)
	}
	wantErr(t, e.in("GET", "/internal/funcionarios/999999/escala", nil), 404, "nao_encontrado")
	wantErr(t, e.in("GET", "/internal/funcionarios/x/escala", nil), 400, "validacao")
}

func TestInternalDepartamentoByName(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	esc := e.escala(a, "A")
	dep := e.departamento(a, "Produção e Logística", "Turno 1")
	z := e.funcionario(a, esc, map[string]any{"departamentoId": dep, "nome": "Zélia Alves", "dataAdmissao": "01/03/2024",
		"fusoHorario": "America/Manaus"})
	m := e.funcionario(a, esc, map[string]any{"departamentoId": dep, "segmento": 1, "nome": "Mário Lima"})
	want(t, e.pub("PATCH", path("/funcionarios/%d", m), a.token, map[string]any{"ativo": false}), 200)
	e.funcionario(a, esc, nil)
	e.departamento(b, "Produção e Logística")

	r := e.in("GET", path("/internal/empresas/%d/departamentos/por-nome/%s/quadro", a.id, url.PathEscape("produção e LOGÍSTICA")), nil)
	want(t, r, 200)
	var res struct {
		Departamento map[string]any   `json:"departamento"`
		Funcionarios []map[string]any `json:"funcionarios"`
		Escalas      []map[string]any `json:"escalas"`
	}
	r.into(t, &res)
	if res.Departamento["id"] != float64(dep) || res.Departamento["nome"] != "Produção e Logística" {
		t.Fatalf("departamento = %v", res.Departamento)
	}
	if len(res.Funcionarios) != 2 || res.Funcionarios[0]["id"] != float64(m) || res.Funcionarios[1]["id"] != float64(z) {
		t.Fatalf("funcionarios (inactive included, by name) = %s", r.body)
	}
	for _, f := range res.Funcionarios {
		checkFields(t, f, membroTypes)
	}
	mario, zelia := res.Funcionarios[0], res.Funcionarios[1]
	if mario["ativo"] != false || mario["segmento"] != float64(1) || mario["dataAdmissao"] != nil ||
		zelia["ativo"] != true || zelia["segmento"] != nil || zelia["dataAdmissao"] != "2024-03-01" ||
		zelia["fusoHorario"] != "America/Manaus" || zelia["escalaTrabalhoId"] != float64(esc) ||
		zelia["nome"] != "Zélia Alves" || zelia["cpfcnpj"] == "" {
		t.Fatalf("members = %s", r.body)
	}
	// Their schedule once, as GET /internal/funcionarios/{id}/escala answers it.
	escala := e.in("GET", path("/internal/funcionarios/%d/escala", z), nil).obj(t)
	if len(res.Escalas) != 1 || !reflect.DeepEqual(res.Escalas[0], escala) {
		t.Fatalf("escalas = %v, want [%v]", res.Escalas, escala)
	}

	// B's department of the same name holds none of A's; an unknown name is 404.
	r = e.in("GET", path("/internal/empresas/%d/departamentos/por-nome/%s/quadro", b.id, url.PathEscape("Produção e Logística")), nil)
	want(t, r, 200)
	r.into(t, &res)
	if len(res.Funcionarios) != 0 || len(res.Escalas) != 0 {
		t.Fatalf("B's department lists %v %v", res.Funcionarios, res.Escalas)
	}
	// Names may hold any character, escaped in the path.
	odd := e.departamento(a, "Norte/Sul 100%")
	r = e.in("GET", path("/internal/empresas/%d/departamentos/por-nome/%s/quadro", a.id, url.PathEscape("Norte/Sul 100%")), nil)
	want(t, r, 200)
	r.into(t, &res)
	if res.Departamento["id"] != float64(odd) || len(res.Funcionarios) != 0 {
		t.Fatalf("odd name: %s", r.body)
	}
	wantErr(t, e.in("GET", path("/internal/empresas/%d/departamentos/por-nome/Inexistente/quadro", a.id), nil), 404, "nao_encontrado")
	wantErr(t, e.in("GET", "/internal/empresas/3/departamentos/por-nome/Vendas/quadro", nil), 404, "nao_encontrado")
	wantErr(t, e.in("GET", "/internal/empresas/x/departamentos/por-nome/Vendas/quadro", nil), 400, "validacao")
}
