package e2e

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// branchOf is the CNPJ of a branch (order ordem) of the head office cnpj:
// the same root, its own order and check digits.
func branchOf(cnpj string, ordem int) string {
	d := []int{}
	for _, r := range digits(cnpj)[:8] + strings.Repeat("0", 3) + strconv.Itoa(ordem) {
		d = append(d, int(r-'0'))
	}
	d = append(d, checkDigit(d, []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}))
	d = append(d, checkDigit(d, []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}))
	s := digitsString(d)
	return s[0:2] + "." + s[2:5] + "." + s[5:8] + "/" + s[8:12] + "-" + s[12:]
}

// afdOf reads establishment id's AFD of the current month (0: the
// principal one, without the parameter); nil while it has no record.
func (e *env) afdOf(t testing.TB, c *company, id int64) *core.Arquivo {
	t.Helper()
	path := "/registropontos/afd"
	if id != 0 {
		path += "?estabelecimento=" + itoa(id)
	}
	a := e.api.do(t, request{Method: http.MethodGet, Path: path, Token: c.Token, CheckRequest: true})
	if a.Status == http.StatusNotFound {
		return nil
	}
	a.expect(t, http.StatusOK)
	arq, err := core.ParseAFD(a.Body)
	if err != nil {
		t.Fatalf("AFD of establishment %d does not read back: %v", id, err)
	}
	if err := arq.VerifyCadeia(""); err != nil {
		t.Fatalf("AFD of establishment %d: the hash chain does not verify: %v", id, err)
	}
	return arq
}

// awaitAFDOf polls establishment id's AFD until done accepts it.
func (e *env) awaitAFDOf(t testing.TB, c *company, id int64, what string, done func(*core.Arquivo) bool) *core.Arquivo {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		arq := e.afdOf(t, c, id)
		if arq != nil && done(arq) {
			return arq
		}
		if time.Now().After(deadline) {
			t.Fatalf("AFD of establishment %d never showed %s: %+v\n%s", id, what, arq, e.tail(40))
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// punchWhenKnown punches as f, again while timekeeping answers that his
// establishment has not reached it yet (its event is in company-billing's
// outbox).
func (e *env) punchWhenKnown(t testing.TB, f *employee) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		a := e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos", Token: f.Token, CheckRequest: true,
			Body: map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": f.ID}})
		if a.Status != http.StatusServiceUnavailable || a.code() != "estabelecimento_pendente" || time.Now().After(deadline) {
			a.expect(t, http.StatusOK)
			return
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// A company with two establishments (Anexo IX item 6): employees in each
// punch, one is moved from the head office to the branch. Each
// establishment's AFD parses with the project's parser, its chain
// verifies, its NSRs start at 1 and have no gap, its header names the
// establishment, and the move is an E in the head office's chain and an I
// in the branch's.
//
// It needs company-billing's establishments and employee's
// estabelecimentoId (issue #42, "estab").
func TestEachEstablishmentHasItsOwnChain(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Filiais "+randomHex(3))
	e.setUp(t, c)
	list := e.api.do(t, request{Method: http.MethodGet, Path: "/empresas/me/estabelecimentos", Token: c.Token,
		CheckRequest: true}).expect(t, http.StatusOK)
	var estabs []obj
	list.json(t, &estabs)
	if len(estabs) != 1 || estabs[0]["principal"] != true {
		t.Fatalf("a new company's establishments: %s; want its head office, principal", list)
	}
	matriz := estabs[0].int("id")
	filialCNPJ := branchOf(c.Saved.str("cnpj"), 2)
	filial := e.api.do(t, request{Method: http.MethodPost, Path: "/empresas/me/estabelecimentos", Token: c.Token,
		CheckRequest: true, Body: map[string]any{"tipo": "cnpj", "numero": filialCNPJ, "nome": "Filial Centro",
			"endereco": "Rua da Filial, 2, São Paulo/SP", "fusoHorario": "America/Sao_Paulo"}}).
		expect(t, http.StatusCreated).object(t).int("id")

	hireIn := func(nome string, estab int64) *employee {
		t.Helper()
		f := &employee{Email: uniqueEmail("func")}
		body := employeeBody(t, c, nome, f.Email)
		if estab != 0 {
			body["estabelecimentoId"] = estab
		}
		f.ID = e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: c.Token, CheckRequest: true,
			Body: body}).expect(t, http.StatusOK).object(t).int("id")
		e.employeeLogin(t, f)
		return f
	}
	ana := hireIn("Ana Matriz "+randomHex(3), 0)
	bia := hireIn("Bia Filial "+randomHex(3), filial)
	e.punch(t, ana)
	e.punchWhenKnown(t, bia)
	e.punchWhenKnown(t, bia)
	// Ana moves to the branch, and punches there.
	e.api.do(t, request{Method: http.MethodPatch, Path: "/funcionarios/" + itoa(ana.ID), Token: c.Token, CheckRequest: true,
		Body: map[string]any{"estabelecimentoId": filial}}).expect(t, http.StatusOK)
	head := e.awaitAFDOf(t, c, 0, "Ana's exclusion", func(a *core.Arquivo) bool {
		for _, r := range a.Empregados {
			if r.Operacao == "E" {
				return true
			}
		}
		return false
	})
	e.punchWhenKnown(t, ana)
	branch := e.awaitAFDOf(t, c, filial, "both employees and three punches", func(a *core.Arquivo) bool {
		return len(a.Empregados) >= 2 && len(a.Marcacoes) >= 3
	})

	checkGaplessNSRs(t, head)
	checkGaplessNSRs(t, branch)
	if !sameDoc(head.Cabecalho.Empregador, c.Saved.str("cnpj")) || !sameDoc(branch.Cabecalho.Empregador, filialCNPJ) {
		t.Errorf("headers name %s and %s; want the head office %s and the branch %s", head.Cabecalho.Empregador,
			branch.Cabecalho.Empregador, c.Saved.str("cnpj"), filialCNPJ)
	}
	if byID := e.afdOf(t, c, matriz); len(byID.Marcacoes) != len(head.Marcacoes) {
		t.Errorf("the head office's AFD by its id has %d punches, without the parameter %d", len(byID.Marcacoes),
			len(head.Marcacoes))
	}
	if len(head.Marcacoes) != 1 || len(branch.Marcacoes) != 3 {
		t.Errorf("punches: head office %d, branch %d; want 1 and 3", len(head.Marcacoes), len(branch.Marcacoes))
	}
	var ops []string
	for _, r := range branch.Empregados {
		ops = append(ops, r.Operacao)
	}
	if strings.Join(ops, "") != "II" {
		t.Errorf("branch type 5: %v; want Bia's and Ana's inclusions", ops)
	}
	// Another company cannot read the branch's AFD.
	other := e.registerCompany(t, "Outra "+randomHex(3))
	e.api.do(t, request{Method: http.MethodGet, Path: "/registropontos/afd?estabelecimento=" + itoa(filial),
		Token: other.Token, CheckRequest: true}).expectError(t, http.StatusNotFound, "nao_encontrado")
}
