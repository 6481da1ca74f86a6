package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/brdocs/brdocstest"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
	"github.com/ponto/ponto/services/timekeeping/core"
	"io"
	"log/slog"
)

// evento builds an event of source origem for company empresa.
func evento(origem string, empresa, seq int64, tipo string, body map[string]any) map[string]any {
	ev := map[string]any{"id": fmt.Sprintf("%s:%d:%d", origem, empresa, seq), "origem": origem, "empresaId": empresa,
		"sequencia": seq, "ocorridoEm": "2026-03-09T11:00:00.000Z", "tipo": tipo}
	for k, v := range body {
		ev[k] = v
	}
	return ev
}

// The records of Anexo IX item 6 besides punches, written when the other
// services tell of the operation: the employer's identification (type 2)
// and employees included, changed and excluded (type 5, with the
// company's responsible person), before anyone punches; once each and in
// order; in the AFD with gapless NSRs, and through the chain audit.
func TestREPEventsInTheAFD(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(9)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Ana Souza"})
	responsavel := brdocstest.CPF(next())
	post := func(ev map[string]any) response { return e.postEvento(t, ev) }
	e.clock.Set(local(2026, 3, 9, 8, 0))
	empresa := map[string]any{"empresa": map[string]any{"cnpj": companyCNPJ(9), "razaoSocial": "Panificação São João 9 Ltda",
		"local": "Rua das Flores, 10, São Paulo/SP", "cno": "", "responsavel": map[string]any{"nome": "Rita Lima", "cpf": responsavel}}}
	want(t, post(evento("company-billing", 9, 1, core.EventoEmpresaIncluida, empresa)), 200)
	emp := func(nome string) map[string]any {
		return map[string]any{"funcionario": map[string]any{"id": w.id, "nome": nome, "cpf": w.cpf}}
	}
	e.clock.Set(local(2026, 3, 9, 8, 1))
	if got := post(evento("employee", 9, 1, core.EventoFuncionarioIncluido, emp("Ana Souza"))).obj(t); got["aplicado"] != true {
		t.Fatalf("inclusion: %v", got)
	}
	// Out of order: refused with the sequence expected; nothing written.
	r := post(evento("employee", 9, 3, core.EventoFuncionarioExcluido, emp("Ana Souza Lima")))
	if r.status != 409 || r.obj(t)["esperada"] != float64(2) || r.obj(t)["code"] != "evento_fora_de_ordem" {
		t.Fatalf("out of order: %d %s", r.status, r.body)
	}
	e.clock.Set(local(2026, 3, 9, 8, 2))
	want(t, post(evento("employee", 9, 2, core.EventoFuncionarioAlterado, emp("Ana Souza Lima"))), 200)
	// A retry of an applied event: acknowledged, not written again.
	if got := post(evento("employee", 9, 2, core.EventoFuncionarioAlterado, emp("Ana Souza Lima"))).obj(t); got["aplicado"] != false {
		t.Fatalf("duplicate: %v", got)
	}
	// Malformed events: 400, nothing written.
	before := e.count("empregados_rep")
	for _, bad := range []map[string]any{
		evento("employee", 9, 3, core.EventoFuncionarioAlterado, map[string]any{"funcionario": map[string]any{"id": w.id, "nome": "X", "cpf": "123.456.789-00"}}),
		evento("employee", 9, 3, "funcionario.demitido", emp("Ana")),
		evento("outro", 9, 3, core.EventoFuncionarioAlterado, emp("Ana")),
		evento("employee", 9, 3, core.EventoEmpresaAlterada, empresa),
	} {
		wantErr(t, post(bad), 400, "validacao")
	}
	if e.count("empregados_rep") != before {
		t.Fatal("a malformed event wrote a record")
	}

	// His punch needs no type-5 record of its own: the REP knows him as
	// the employee service has him.
	want(t, call(t, e.emp.public, "PATCH", path("/funcionarios/%d", w.id), c.token,
		map[string]any{"nome": "Ana Souza Lima"}), 200)
	e.punch(w, local(2026, 3, 9, 9, 0))
	e.clock.Set(local(2026, 3, 9, 18, 0))
	want(t, post(evento("employee", 9, 3, core.EventoFuncionarioExcluido, emp("Ana Souza Lima"))), 200)

	e.clock.Set(local(2026, 3, 20, 10, 0))
	afd := e.pub("GET", "/registropontos/afd?inicio=2026-03-01&fim=2026-03-31", c.token, nil)
	want(t, afd, 200)
	a, err := core.ParseAFD(afd.body)
	if err != nil {
		t.Fatal(err)
	}
	digits := strings.NewReplacer(".", "", "-", "").Replace(responsavel)
	if len(a.Empresas) != 1 || a.Empresas[0].NSR != 1 || a.Empresas[0].Responsavel != "000"+digits ||
		a.Empresas[0].Local != "Rua das Flores, 10, São Paulo/SP" || a.Empresas[0].Gravacao != "2026-03-09T08:00:00-0300" {
		t.Fatalf("type 2: %+v", a.Empresas)
	}
	var ops []string
	for _, r := range a.Empregados {
		ops = append(ops, fmt.Sprintf("%d %s %s %s", r.NSR, r.Operacao, r.Nome, r.Responsavel))
	}
	want := []string{"2 I Ana Souza " + digits, "3 A Ana Souza Lima " + digits, "5 E Ana Souza Lima " + digits}
	if strings.Join(ops, "|") != strings.Join(want, "|") {
		t.Fatalf("type 5:\n got %v\nwant %v", ops, want)
	}
	if len(a.Marcacoes) != 1 || a.Marcacoes[0].NSR != 4 || a.Trailer[2] != 1 || a.Trailer[5] != 3 || a.Trailer[7] != 1 {
		t.Fatalf("punch %+v, trailer %v", a.Marcacoes, a.Trailer)
	}
	res, err := chainaudit.New(e.db, slog.New(slog.NewTextHandler(io.Discard, nil)), clock.New(time.Now), chainaudit.Limits{}).Once(context.Background())
	if err != nil || res.Broken != 0 || res.Records != 5 {
		t.Fatalf("chain audit over every record type: %+v, %v", res, err)
	}
}

// A forged event is refused before it reaches the REP's records: without
// a service token, from a service that is not a source, or claiming
// another source's origem. The company's real first change then still
// applies as its first (a forgery that got in held NSR 2 forever and
// refused the real sequence 2).
func TestForgedEventRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(9)
	responsavel := brdocstest.CPF(next())
	e.clock.Set(local(2026, 3, 9, 8, 0))
	empresa := map[string]any{"empresa": map[string]any{"cnpj": companyCNPJ(9), "razaoSocial": "Forjada Ltda",
		"local": "Rua Falsa, 1", "cno": "", "responsavel": map[string]any{"nome": "Mallory", "cpf": responsavel}}}
	forged := evento("company-billing", c.id, 1, core.EventoEmpresaIncluida, empresa)
	for _, tc := range []struct {
		name, token string
		status      int
	}{
		{"no token", "", 401},
		{"a company's access token", c.token, 401},
		{"employee posing as company-billing", e.iss.Service(t, "employee"), 403},
		{"a service that is no source", e.iss.Service(t, "media"), 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := call(t, e.internal, "POST", "/internal/eventos", tc.token, forged); r.status != tc.status {
				t.Fatalf("%d %s, want %d", r.status, r.body, tc.status)
			}
		})
	}
	var n int
	if err := e.db.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM eventos_recebidos WHERE empresa_id = $1)
		+ (SELECT count(*) FROM empresas_rep WHERE empresa_id = $1)`, c.id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d events stored after the forgeries, want none", n)
	}
	real := evento("company-billing", c.id, 1, core.EventoEmpresaIncluida, empresa)
	if got := call(t, e.internal, "POST", "/internal/eventos", e.iss.Service(t, "company-billing"), real).obj(t); got["aplicado"] != true {
		t.Fatalf("the real first event: %v", got)
	}
}

// postEvento sends a REP event as its source does, with the service token
// of the service its origem names.
func (e *env) postEvento(t *testing.T, ev map[string]any) response {
	t.Helper()
	caller := ev["origem"].(string)
	if caller != "company-billing" {
		caller = "employee"
	}
	return call(t, e.internal, "POST", "/internal/eventos", e.iss.Service(t, caller), ev)
}
