package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/brdocs/brdocstest"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// The company-billing and employee outboxes race: an employee renamed at
// t0, before the company named a new responsible person at t1, may reach
// timekeeping after the change of responsible. His type 5 carries the
// person in force at t0 (Anexo V, type 5 field 8), not the one the last
// type 2 names; an operation after t1 carries the new one, and so does
// the inclusion a first punch writes after t1.
func TestREPEventsResponsibleInForceWhateverTheOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(15)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Bia Reis"})
	x := e.funcionario(c, e.escala(c, "Comercial 2", standard()), map[string]any{"nome": "Caio Dias"})
	antigo, novo := brdocstest.CPF(next()), brdocstest.CPF(next())
	post := func(origem string, seq int64, tipo, ocorrido string, body map[string]any) {
		t.Helper()
		ev := evento(origem, 15, seq, tipo, body)
		ev["ocorridoEm"] = ocorrido
		want(t, e.postEvento(t, ev), 200)
	}
	empresa := func(cpf string) map[string]any {
		return map[string]any{"empresa": map[string]any{"cnpj": companyCNPJ(15), "razaoSocial": "Padaria Quinze Ltda",
			"local": "Rua Quinze, 15, São Paulo/SP", "cno": "", "responsavel": map[string]any{"nome": "Pessoa", "cpf": cpf}}}
	}
	emp := func(nome string) map[string]any {
		return map[string]any{"funcionario": map[string]any{"id": w.id, "nome": nome, "cpf": w.cpf}}
	}
	// 10:00Z the company names the old responsible; 10:30Z Bia included.
	e.clock.Set(local(2026, 3, 9, 8, 0))
	post("company-billing", 1, core.EventoEmpresaIncluida, "2026-03-09T10:00:00.000Z", empresa(antigo))
	post("employee", 1, core.EventoFuncionarioIncluido, "2026-03-09T10:30:00.000Z", emp("Bia Reis"))
	// t1 = 12:00Z the new responsible, delivered first...
	e.clock.Set(local(2026, 3, 9, 9, 5))
	post("company-billing", 2, core.EventoEmpresaAlterada, "2026-03-09T12:00:00.000Z", empresa(novo))
	// ...then Bia's rename made at t0 = 11:30Z, delivered after it.
	e.clock.Set(local(2026, 3, 9, 9, 6))
	post("employee", 2, core.EventoFuncionarioAlterado, "2026-03-09T11:30:00.000Z", emp("Bia Reis Lima"))
	// 12:30Z a second rename, after t1.
	post("employee", 3, core.EventoFuncionarioAlterado, "2026-03-09T12:30:00.000Z", emp("Bia Lima"))
	// Caio's first punch at 13:00Z (10:00 local) writes his inclusion.
	e.punch(x, local(2026, 3, 9, 10, 0))

	e.clock.Set(local(2026, 3, 20, 10, 0))
	afd := e.pub("GET", "/registropontos/afd?inicio=2026-03-01&fim=2026-03-31", c.token, nil)
	want(t, afd, 200)
	a, err := core.ParseAFD(afd.body)
	if err != nil {
		t.Fatal(err)
	}
	digits := strings.NewReplacer(".", "", "-", "").Replace
	var type2, type5 []string
	for _, r := range a.Empresas {
		type2 = append(type2, fmt.Sprintf("%d %s", r.NSR, r.Responsavel))
	}
	for _, r := range a.Empregados {
		type5 = append(type5, fmt.Sprintf("%d %s %s %s", r.NSR, r.Operacao, r.Nome, r.Responsavel))
	}
	wantT2 := []string{"1 000" + digits(antigo), "3 000" + digits(novo)}
	wantT5 := []string{
		"2 I Bia Reis " + digits(antigo),
		"4 A Bia Reis Lima " + digits(antigo), // made at 11:30Z, before t1: the old one though recorded after NSR 3
		"5 A Bia Lima " + digits(novo),
		"6 I Caio Dias " + digits(novo),
	}
	if diff := cmp.Diff(wantT2, type2); diff != "" {
		t.Errorf("type 2 (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(wantT5, type5); diff != "" {
		t.Errorf("type 5 (-want +got)\n%s", diff)
	}
}
