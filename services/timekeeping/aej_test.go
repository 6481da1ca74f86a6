package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// setUpAEJMonth records the scenario of testdata/aej_golden.py for
// company 7: punches, a disregarded one, an inclusion, an absence and a
// worked rest day.
func setUpAEJMonth(e *env) company {
	t := e.t
	c := e.company(7)
	escala := e.escala(c, "Comercial", standard())
	jose := e.funcionario(c, escala, map[string]any{"cpf": "123.456.789-09", "nome": "José Antônio"})
	maria := e.funcionario(c, escala, map[string]any{"cpf": "987.654.321-00", "nome": "Maria Aparecida"})
	var double int64
	for i, at := range []time.Time{at(2024, 3, 4, 8, 0, 12), at(2024, 3, 4, 12, 0, 5), at(2024, 3, 4, 12, 0, 40),
		at(2024, 3, 4, 13, 0, 30)} {
		if p := e.punch(jose, at); i == 2 {
			double = id(p)
		}
	}
	for _, at := range []time.Time{at(2024, 3, 4, 8, 1, 30), at(2024, 3, 4, 12, 0, 59), at(2024, 3, 4, 13, 2, 0),
		at(2024, 3, 4, 17, 3, 0), at(2024, 3, 9, 9, 0, 0), at(2024, 3, 9, 11, 0, 0)} {
		e.punch(maria, at)
	}
	e.punch(jose, at(2024, 4, 1, 8, 0, 0))
	e.clock.Set(at(2024, 4, 1, 9, 0, 0))
	want(t, e.pub("PUT", path("/registropontos/%d/desconsiderar", double), c.token,
		map[string]any{"motivo": "marcação em duplicidade"}), 200)
	want(t, e.pub("POST", path("/registropontos/funcionario/%d/marcacoes", jose.id), c.token,
		map[string]any{"horario": "2024-03-04T17:00:00-03:00", "motivo": "esqueceu de registrar a saída"}), 201)
	want(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", jose.id), c.token, nil), 200)
	e.clock.Set(at(2024, 4, 2, 10, 30, 45))
	return c
}

func TestAEJGoldenMonth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := setUpAEJMonth(e)

	r := e.pub("GET", "/registropontos/aej?inicio=2024-03-01&fim=2024-03-31", c.token, nil)
	want(t, r, 200)
	if ct := r.header.Get("Content-Type"); ct != "text/plain; charset=ISO-8859-1" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="AEJ`+
		strings.NewReplacer(".", "", "/", "", "-", "").Replace(companyCNPJ(7))+`_20240301_20240331.txt"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	compareGolden(t, r.body, "testdata/aej-2024-03.txt")
	lido, err := core.ParseAEJ(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if len(lido.Registros["05"]) != 11 || strings.TrimSpace(lido.Assinatura) != core.AssinaturaP7S {
		t.Fatalf("read back: %+v", lido)
	}
}

func TestAEJRefusalsAndIsolation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := setUpAEJMonth(e)
	other, stranger := e.outsider()
	e.punch(stranger, at(2024, 3, 4, 8, 0, 0))
	e.clock.Set(at(2024, 4, 2, 10, 30, 45))

	// The other company's file holds only its own employee.
	r := e.pub("GET", "/registropontos/aej?inicio=2024-03-01&fim=2024-03-31", other.token, nil)
	want(t, r, 200)
	lido, err := core.ParseAEJ(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if len(lido.Registros["03"]) != 1 || len(lido.Registros["05"]) != 1 || bytes.Contains(r.body, []byte("12345678909")) {
		t.Fatalf("another company's AEJ: %s", r.body)
	}
	// A period without records is a valid file without bonds.
	r = e.pub("GET", "/registropontos/aej?inicio=2023-01-01&fim=2023-01-31", c.token, nil)
	want(t, r, 200)
	if lido, err := core.ParseAEJ(r.body); err != nil || len(lido.Registros["03"]) != 0 {
		t.Fatalf("empty period: %v %s", err, r.body)
	}

	for _, q := range []string{"formato=pdf", "inicio=2024-03-31&fim=2024-03-01", "inicio=2023-01-01&fim=2024-12-31",
		"inicio=ontem"} {
		wantErr(t, e.pub("GET", "/registropontos/aej?"+q, c.token, nil), 400, "validacao")
	}
	// No certificate configured in this test: no signed zip.
	wantErr(t, e.pub("GET", "/registropontos/aej?formato=zip", c.token, nil), 409, "sem_certificado")
	wantErr(t, e.pub("GET", "/registropontos/aej", stranger.token, nil), 403, "acesso_negado")
	want(t, e.pub("GET", "/registropontos/aej", "", nil), 401)
}
