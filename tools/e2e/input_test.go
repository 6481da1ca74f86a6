package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// badText are the values every text field must refuse with 400: a NUL
// (which PostgreSQL refuses, once a 500), invalid UTF-8 (once stored as
// U+FFFD) and a right-to-left override (once stored in names). The
// invalid byte cannot travel in a JSON string escape, so it is spliced
// into the raw body in place of the marker.
var badText = map[string]string{
	"NUL":           "a\x00b",
	"invalid UTF-8": invalidUTF8Marker,
	"RLO":           "abc\u202egpj",
}

const invalidUTF8Marker = "@@INVALID-UTF8@@"

// textRoute is a create route whose text fields are each spoiled in turn.
type textRoute struct {
	method, path string
	token        string
	body         map[string]any
	// fields are the paths of the body's text fields: "nome", or
	// "horarios.0.entrada" inside a list.
	fields []string
}

// TestBadTextIsRefusedEverywhere sends, for every text field of every
// create route, each value of badText: every answer is 400, and no row of
// any service's database changed (so no Stripe call was made for a bad
// registration either: company-billing writes its Stripe idempotency
// generation before calling Stripe). Path and query values get the same
// check.
func TestBadTextIsRefusedEverywhere(t *testing.T) {
	e := sharedEnv(t)
	a := e.registerCompany(t, "Empresa Texto")
	e.setUp(t, a)
	f := e.hire(t, a, "Ana Texto")
	r := e.punch(t, f)

	routes := []textRoute{
		{"POST", "/empresas", "", map[string]any{"cnpj": newCNPJ(t), "dataAbertura": "15/03/2012", "email": uniqueEmail("texto"),
			"nome": "Nova", "nomeDoPlano": "basic", "password": "senhaForte123", "razaoSocial": "Nova Ltda"},
			[]string{"cnpj", "dataAbertura", "email", "nome", "nomeDoPlano", "password", "razaoSocial"}},
		{"POST", "/auth/login", "", map[string]any{"email": a.Email, "password": a.Password}, []string{"email", "password"}},
		{"POST", "/auth/login/funcionario/codigo", "", map[string]any{"email": f.Email}, []string{"email"}},
		{"POST", "/auth/login/funcionario", "", map[string]any{"email": f.Email, "codeVerify": "123456"}, []string{"email", "codeVerify"}},
		{"POST", "/auth/refresh-token", "", map[string]any{"refreshToken": f.Refresh}, []string{"refreshToken"}},
		{"POST", "/funcionarios", a.Token, func() map[string]any {
			b := employeeBody(t, a, "Pessoa Texto", uniqueEmail("texto"))
			b["endereco"], b["cidade"], b["uf"], b["codeMatricula"], b["dataAdmissao"] = "Rua A, 1", "Santos", "SP", "M-1", "01/02/2020"
			return b
		}(), []string{"cargo", "cpf", "dataNascimento", "email", "nome", "password", "telefone", "endereco", "cidade", "uf", "codeMatricula", "dataAdmissao"}},
		{"PATCH", "/funcionarios/" + itoa(f.ID), a.Token, map[string]any{"nome": "Ana Nova", "cargo": "Gerente"}, []string{"nome", "cargo"}},
		{"POST", "/departamentos", a.Token, map[string]any{"nome": "Depto Texto", "segmentos": []any{"Equipe"}}, []string{"nome", "segmentos.0"}},
		{"POST", "/escalatrabalhos", a.Token, weekSchedule(a.ID, "Escala Texto"), []string{"nome", "horarios.0.entrada"}},
		{"POST", "/registropontos", f.Token, map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": f.ID}, []string{"endereco"}},
		{"PUT", "/registropontos/solicitar/" + itoa(r.int("id")), f.Token, map[string]any{"dataSolicitar": r.str("horarioRegistro"),
			"funcionarioId": f.ID, "motivo": "Esqueci"}, []string{"dataSolicitar", "motivo"}},
		{"POST", "/registropontos/feriados", a.Token, map[string]any{"data": randomDate(2097), "nome": "Feriado Texto"}, []string{"data", "nome"}},
		{"POST", "/registropontos/locais-trabalho", a.Token, map[string]any{"nome": "Filial Texto", "latitude": -22.9, "longitude": -43.1,
			"raioMetros": 200}, []string{"nome"}},
		{"POST", "/registropontos/quiosques", a.Token, map[string]any{"nome": "Portaria Texto", "dispositivo": "navegador"},
			[]string{"nome", "dispositivo"}},
	}

	// The hires above (and earlier tests') reach timekeeping through the
	// outbox relays: let them land before counting.
	waitRelaysIdle(t, e)
	before := e.rowCounts(t)
	for _, rt := range routes {
		for _, field := range rt.fields {
			for kind, bad := range badText {
				raw := spoil(t, rt.body, field, bad)
				ans := e.api.do(t, request{Method: rt.method, Path: rt.path, Token: rt.token, Raw: raw, Type: "application/json"})
				if ans.Status != http.StatusBadRequest {
					t.Errorf("%s %s, %s in %s: %d; want 400 — %s", rt.method, rt.path, kind, field, ans.Status, ans)
				}
			}
		}
	}
	for _, path := range []string{
		"/registropontos/departamento/Vendas%00x",
		"/registropontos/departamento/%E2%80%AEVendas",
		"/registropontos/departamento/Vendas%FF",
		"/funcionarios?nome=%00",
	} {
		ans := e.api.do(t, request{Method: http.MethodGet, Path: path, Token: a.Token})
		if ans.Status != http.StatusBadRequest {
			t.Errorf("GET %s: %d; want 400 — %s", path, ans.Status, ans)
		}
	}
	if after := e.rowCounts(t); !equalCounts(before, after) {
		t.Errorf("refused requests changed the databases:\nbefore %v\nafter  %v", before, after)
	}
}

// spoil marshals body with the value at path replaced by bad (inside a
// string field, so the field keeps its type).
func spoil(t *testing.T, body map[string]any, path, bad string) []byte {
	t.Helper()
	var copied map[string]any
	raw, _ := json.Marshal(body)
	_ = json.Unmarshal(raw, &copied)
	var parent any = copied
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		parent = step(parent, p)
	}
	last := parts[len(parts)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = "x" + bad
	case []any:
		p[atoi(t, last)] = "x" + bad
	}
	out, err := json.Marshal(copied)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(out, []byte(invalidUTF8Marker), []byte("\xff\xfe"))
}

func step(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		return x[key]
	case []any:
		i := 0
		for _, c := range key {
			i = i*10 + int(c-'0')
		}
		return x[i]
	}
	return nil
}

func atoi(t *testing.T, s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("bad index %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// rowCounts counts the rows of every table of every service's database,
// once they settle: the outbox relays deliver earlier tests' events in the
// background, so the counts are read until two reads half a second apart
// agree (10 s at most).
func (e *env) rowCounts(t *testing.T) map[string]int64 {
	t.Helper()
	last := e.countRows(t)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		time.Sleep(500 * time.Millisecond)
		now := e.countRows(t)
		if equalCounts(last, now) {
			return now
		}
		last = now
	}
	return last
}

func (e *env) countRows(t *testing.T) map[string]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	counts := map[string]int64{}
	for service := range e.stack.DatabaseNames() {
		dbURL, err := e.databaseURL(service)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := conn.Query(ctx, `SELECT quote_ident(table_name) FROM information_schema.tables
			WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)
		tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(tables)
		for _, table := range tables {
			var n int64
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			counts[service+"."+table] = n
		}
		conn.Close(ctx)
	}
	return counts
}

func equalCounts(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
