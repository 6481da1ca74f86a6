package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/brdocs/brdocstest"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// branchCNPJ is company n's establishment of order ordem (0001 the head
// office): companyCNPJ's root, with its own order and check digits.
func branchCNPJ(n, ordem int) string {
	d := fmt.Sprintf("%08d%04d", 11222000+n, ordem)
	for _, w := range [][]int{{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}, {6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}} {
		sum := 0
		for i, x := range w {
			sum += int(d[i]-'0') * x
		}
		r := sum % 11
		if r < 2 {
			d += "0"
		} else {
			d += fmt.Sprint(11 - r)
		}
	}
	return d
}

// One chain per establishment (Anexo IX item 6): a branch's type 2 opens
// its own chain at NSR 1; an employee moved there leaves the principal
// chain (type 5 E) and enters the branch's (I); each AFD holds its own
// chain under its own header and file name; the chain audit verifies
// both; the principal establishment's event keeps the company's existing
// chain.
func TestChainPerEstablishment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const empresaID = 31
	c := e.company(empresaID)
	matriz := core.Plain(companyCNPJ(empresaID))
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Bia Reis"})
	post := func(ev map[string]any) response { return e.postEvento(t, ev) }
	responsavel := brdocstest.CPF(next())
	empresa := func(cnpj, cno string) map[string]any {
		return map[string]any{"cnpj": cnpj, "razaoSocial": "Construtora Reis 31 Ltda", "local": "Av. Brasil, 100",
			"cno": cno, "responsavel": map[string]any{"nome": "Rita Lima", "cpf": responsavel}}
	}
	estab := func(id int64, principal bool, tipo, numero string) map[string]any {
		return map[string]any{"id": id, "principal": principal, "tipo": tipo, "numero": numero, "nome": "Unidade", "ativo": true}
	}
	e.clock.Set(local(2026, 3, 9, 8, 0))
	// The company's existing chain: its type 2 and the employee's inclusion.
	want(t, post(evento("company-billing", empresaID, 1, core.EventoEmpresaIncluida,
		map[string]any{"empresa": empresa(companyCNPJ(empresaID), "")})), 200)
	emp := func(estab, anterior int64) map[string]any {
		f := map[string]any{"id": w.id, "nome": "Bia Reis", "cpf": w.cpf, "estabelecimentoId": estab}
		if anterior >= 0 {
			f["estabelecimentoAnteriorId"] = anterior
		}
		return map[string]any{"funcionario": f}
	}
	want(t, post(evento("employee", empresaID, 1, core.EventoFuncionarioIncluido, emp(0, -1))), 200)
	e.punch(w, local(2026, 3, 9, 9, 0)) // principal NSR 3
	// The timesheet names the employee's establishment: none while
	// timekeeping was not told of it.
	espelhoEstab := func() map[string]any {
		t.Helper()
		r := e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2026-03", w.id), c.token, nil)
		want(t, r, 200)
		var esp struct{ Estabelecimento map[string]any }
		r.into(t, &esp)
		return esp.Estabelecimento
	}
	if got := espelhoEstab(); got != nil {
		t.Errorf("timesheet's establishment before any was told: %v, want null", got)
	}

	// The principal establishment, told by migration: the same chain, and
	// no new type 2 (it repeats the company's identification).
	e.clock.Set(local(2026, 3, 9, 10, 0))
	want(t, post(evento("company-billing", empresaID, 2, core.EventoEstabelecimentoIncluido,
		map[string]any{"estabelecimento": estab(500, true, "cnpj", matriz),
			"empresa": empresa(companyCNPJ(empresaID), "")})), 200)
	// A building site (CNO) of the company: its own chain from NSR 1.
	cno := "123456789012"
	want(t, post(evento("company-billing", empresaID, 3, core.EventoEstabelecimentoIncluido,
		map[string]any{"estabelecimento": estab(501, false, "cno", cno), "empresa": empresa(companyCNPJ(empresaID), cno)})), 200)
	// A branch with a CNPJ of its own.
	filial := branchCNPJ(empresaID, 2)
	want(t, post(evento("company-billing", empresaID, 4, core.EventoEstabelecimentoIncluido,
		map[string]any{"estabelecimento": estab(502, false, "cnpj", filial), "empresa": empresa(filial, "")})), 200)

	if d := cmp.Diff(map[string]any{"id": 500.0, "tipo": "cnpj", "numero": matriz, "nome": "Unidade"}, espelhoEstab()); d != "" {
		t.Errorf("timesheet's establishment (-want +got):\n%s", d)
	}

	// Refused, nothing written: a second principal (409); a bad CNPJ,
	// an unknown type (400); an employee of an establishment not told of
	// yet (503, to be sent again).
	before := e.count("empresas_rep")
	wantErr(t, post(evento("company-billing", empresaID, 5, core.EventoEstabelecimentoIncluido,
		map[string]any{"estabelecimento": estab(503, true, "cnpj", filial), "empresa": empresa(filial, "")})), 409,
		"estabelecimento_principal")
	wantErr(t, post(evento("company-billing", empresaID, 5, core.EventoEstabelecimentoIncluido,
		map[string]any{"estabelecimento": estab(503, false, "cnpj", filial[:13]+"0"), "empresa": empresa(filial, "")})), 400,
		"validacao")
	wantErr(t, post(evento("company-billing", empresaID, 5, core.EventoEstabelecimentoIncluido,
		map[string]any{"estabelecimento": estab(503, false, "cei", cno), "empresa": empresa(filial, "")})), 400, "validacao")
	wantErr(t, post(evento("employee", empresaID, 2, core.EventoFuncionarioTransferido, emp(999, 0))), 503,
		"estabelecimento_pendente")
	if e.count("empresas_rep") != before {
		t.Fatal("a refused event wrote a type-2 record")
	}

	// The move to the branch: E at principal NSR 4, I at branch NSR 2.
	e.clock.Set(local(2026, 3, 9, 11, 0))
	want(t, post(evento("employee", empresaID, 2, core.EventoFuncionarioTransferido, emp(502, 500))), 200)
	// The branch moves: a type 2 at branch NSR 3; told again alike:
	// nothing new.
	mudou := empresa(filial, "")
	mudou["local"] = "Rua Nova, 5"
	for seq := int64(5); seq <= 6; seq++ {
		want(t, post(evento("company-billing", empresaID, seq, core.EventoEstabelecimentoAlterado,
			map[string]any{"estabelecimento": estab(502, false, "cnpj", filial), "empresa": mudou})), 200)
	}

	e.clock.Set(local(2026, 3, 20, 10, 0))
	afd := func(q string) *core.Arquivo {
		t.Helper()
		r := e.pub("GET", "/registropontos/afd?inicio=2026-03-01&fim=2026-03-31"+q, c.token, nil)
		want(t, r, 200)
		a, err := core.ParseAFD(r.body)
		if err != nil {
			t.Fatal(err)
		}
		if cd := r.header.Get("Content-Disposition"); !strings.Contains(cd, "AFD12345678901234567"+a.Cabecalho.Empregador+"REP_P.txt") {
			t.Errorf("file name %q for employer %s (Anexo V item 19.3)", cd, a.Cabecalho.Empregador)
		}
		return a
	}
	type rec struct {
		NSR int64
		Op  string
	}
	summary := func(a *core.Arquivo) (recs []rec) {
		for _, r := range a.Empresas {
			recs = append(recs, rec{r.NSR, "2 " + r.Empregador + " " + r.CNOCAEPF})
		}
		for _, r := range a.Empregados {
			recs = append(recs, rec{r.NSR, "5 " + r.Operacao})
		}
		for _, r := range a.Marcacoes {
			recs = append(recs, rec{r.NSR, "7"})
		}
		return recs
	}
	principal := afd("")
	if again := afd("&estabelecimento=500"); len(summary(again)) != len(summary(principal)) {
		t.Errorf("the principal establishment by id: %v, without: %v", summary(again), summary(principal))
	}
	blank := strings.Repeat(" ", 14)
	checkRecs(t, "principal", summary(principal), []rec{{1, "2 " + matriz + " " + blank},
		{2, "5 I"}, {4, "5 E"}, {3, "7"}})
	branch := afd("&estabelecimento=502")
	if branch.Cabecalho.Empregador != filial {
		t.Errorf("branch header employer %q, want %s", branch.Cabecalho.Empregador, filial)
	}
	checkRecs(t, "branch", summary(branch), []rec{{1, "2 " + filial + " " + blank}, {2, "5 I"},
		{3, "2 " + filial + " " + blank}})
	site := afd("&estabelecimento=501")
	if site.Cabecalho.Empregador != matriz || site.Cabecalho.CNOCAEPF != "00"+cno {
		t.Errorf("site header %+v: want the company's CNPJ and CNO %s (a numeric field, zeros on the left)", site.Cabecalho, cno)
	}
	checkRecs(t, "site", summary(site), []rec{{1, "2 " + matriz + " 00" + cno}})

	// Another company's establishment, an unknown one: 404; a bad id: 400.
	other := e.company(32)
	wantErr(t, e.pub("GET", "/registropontos/afd?estabelecimento=502", other.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/registropontos/afd?estabelecimento=9999", c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/registropontos/afd?estabelecimento=abc", c.token, nil), 400, "validacao")

	res, err := chainaudit.New(e.db, slog.New(slog.NewTextHandler(io.Discard, nil)), clock.New(time.Now),
		chainaudit.Limits{}).Once(context.Background())
	if err != nil || res.Broken != 0 {
		t.Fatalf("chain audit over the three chains: %+v, %v", res, err)
	}
	// The audit's state names every chain, the principal's also at the
	// top level; another company sees only its own (never audited).
	type cadeia struct {
		EstabelecimentoID   *int64
		Principal           bool
		Nome                *string
		UltimoNsrVerificado int64
		Verificado, Integra bool
	}
	type estado struct {
		UltimoNsrVerificado int64
		Integra             bool
		Estabelecimentos    []cadeia
	}
	audit := func(token string) estado {
		t.Helper()
		r := e.pub("GET", "/registropontos/cadeia", token, nil)
		want(t, r, 200)
		var got struct {
			UltimoNsrVerificado int64
			Integra             bool
			Estabelecimentos    []struct {
				cadeia
				VerificadoEm *time.Time
			}
		}
		r.into(t, &got)
		out := estado{UltimoNsrVerificado: got.UltimoNsrVerificado, Integra: got.Integra}
		for _, c := range got.Estabelecimentos {
			c.cadeia.Verificado = c.VerificadoEm != nil
			out.Estabelecimentos = append(out.Estabelecimentos, c.cadeia)
		}
		return out
	}
	id := func(n int64) *int64 { return &n }
	unidade := "Unidade"
	// Principal: NSR 1-4 above; the site: its type 2; the branch: 2, 5 I, 2.
	if d := cmp.Diff(estado{UltimoNsrVerificado: 4, Integra: true, Estabelecimentos: []cadeia{
		{id(500), true, &unidade, 4, true, true},
		{id(501), false, &unidade, 1, true, true},
		{id(502), false, &unidade, 3, true, true},
	}}, audit(c.token)); d != "" {
		t.Errorf("GET /registropontos/cadeia (-want +got):\n%s", d)
	}
	if d := cmp.Diff(estado{Integra: true, Estabelecimentos: []cadeia{{nil, true, nil, 0, false, true}}},
		audit(other.token)); d != "" {
		t.Errorf("another company's GET /registropontos/cadeia (-want +got):\n%s", d)
	}
}

func checkRecs[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	m := map[T]int{}
	for _, g := range got {
		m[g]++
	}
	for _, w := range want {
		m[w]--
	}
	for k, n := range m {
		if n != 0 {
			t.Errorf("%s AFD: %v\n got %+v\nwant %+v (in any order)", what, k, got, want)
			return
		}
	}
}

// The documents name the employee's establishment: a punch of a branch
// with its own CNPJ is checked publicly under that CNPJ, one of a
// building site (CNO) under the company's CNPJ with the CNO shown, one of
// the principal chain as before; the timesheet names each employee's.
func TestEstablishmentOnDocuments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const empresaID = 33
	c := e.company(empresaID)
	post := func(ev map[string]any) response { return e.postEvento(t, ev) }
	filial, cno := branchCNPJ(empresaID, 2), "123456789033"
	empresa := map[string]any{"cnpj": companyCNPJ(empresaID), "razaoSocial": "Padaria 33 Ltda", "local": "Rua A, 1",
		"responsavel": map[string]any{"nome": "Rita Lima", "cpf": brdocstest.CPF(next())}}
	e.clock.Set(local(2026, 3, 9, 8, 0))
	want(t, post(evento("company-billing", empresaID, 1, core.EventoEmpresaIncluida, map[string]any{"empresa": empresa})), 200)
	for i, est := range []map[string]any{
		{"id": 600, "principal": true, "tipo": "cnpj", "numero": core.Plain(companyCNPJ(empresaID)), "nome": "Matriz"},
		{"id": 601, "principal": false, "tipo": "cnpj", "numero": filial, "nome": "Filial Centro"},
		{"id": 602, "principal": false, "tipo": "cno", "numero": cno, "nome": "Obra Norte"},
	} {
		est["ativo"] = true
		want(t, post(evento("company-billing", empresaID, int64(i+2), core.EventoEstabelecimentoIncluido,
			map[string]any{"estabelecimento": est, "empresa": empresa})), 200)
	}
	escala := e.escala(c, "Comercial", standard())
	type estab struct {
		ID                 int64
		Tipo, Numero, Nome string
	}
	for _, tc := range []struct {
		estabelecimento int64
		cnpj            string
		want            *estab
	}{
		{0, companyCNPJ(empresaID), nil},
		{601, filial[0:2] + "." + filial[2:5] + "." + filial[5:8] + "/" + filial[8:12] + "-" + filial[12:14],
			&estab{601, "cnpj", filial, "Filial Centro"}},
		{602, companyCNPJ(empresaID), &estab{602, "cno", cno, "Obra Norte"}},
	} {
		w := e.funcionario(c, escala, map[string]any{"estabelecimentoId": tc.estabelecimento})
		p := e.punch(w, local(2026, 3, 9, 9, 0))
		r := e.pub("GET", "/verificacao/"+p["hash"].(string), "", nil)
		want(t, r, 200)
		var got struct {
			CNPJEmpregador   string
			CadeiaVerificada bool
			Estabelecimento  *estab
		}
		r.into(t, &got)
		if got.CNPJEmpregador != tc.cnpj || !got.CadeiaVerificada {
			t.Errorf("establishment %d: public check %s, want CNPJ %s and a verified chain", tc.estabelecimento, r.body, tc.cnpj)
		}
		if tc.estabelecimento == 0 {
			if got.Estabelecimento != nil {
				t.Errorf("principal chain: public check names an establishment: %s", r.body)
			}
			tc.want = &estab{600, "cnpj", core.Plain(companyCNPJ(empresaID)), "Matriz"} // the timesheet names it
		} else if d := cmp.Diff(tc.want, got.Estabelecimento); d != "" {
			t.Errorf("establishment %d: public check (-want +got):\n%s", tc.estabelecimento, d)
		}
		r = e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2026-03", w.id), c.token, nil)
		want(t, r, 200)
		var esp struct{ Estabelecimento *estab }
		r.into(t, &esp)
		if d := cmp.Diff(tc.want, esp.Estabelecimento); d != "" {
			t.Errorf("establishment %d: timesheet (-want +got):\n%s", tc.estabelecimento, d)
		}
	}
}
