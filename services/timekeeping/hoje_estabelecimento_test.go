package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/brdocs/brdocstest"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// TestHojeFiltersByEstablishment reads Monday 2024-03-11 at 12:30 in São
// Paulo for a company whose principal establishment is 700 and whose
// building site is 701. By hand, from core.SituacaoDe as in
// TestHojeCountsASeededDay:
//
//   - principal (estabelecimentoId 0): Ana (08:00-17:00) punched 07:58,
//     one punch: working; Bruno punched 08:01 and 12:05, 12:30 < 17:00 with
//     a break: on the break.
//   - site 701: Carla (08:00-17:00, Operações), no punch, 750 > 485:
//     late; Davi (13:00-17:15, Financeiro), no punch, 750 <= 785: waiting;
//     Elis (06:00-12:00, Financeiro), no punch, 750 >= 720: absent.
//
// So: all five 1 each; estabelecimento=0 and =700 (the principal's own
// id) Ana and Bruno; =701 Carla, Davi and Elis; =701 with Financeiro Davi
// and Elis.
func TestHojeFiltersByEstablishment(t *testing.T) {
	e := newEnv(t)
	const empresaID = 1
	c := e.company(empresaID)
	post := func(ev map[string]any) response { return e.postEvento(t, ev) }
	empresa := func(cno string) map[string]any {
		return map[string]any{"cnpj": companyCNPJ(empresaID), "razaoSocial": "Construtora 1 Ltda", "local": "Av. Brasil, 100",
			"cno": cno, "responsavel": map[string]any{"nome": "Rita Lima", "cpf": brdocstest.CPF(next())}}
	}
	estab := func(id int64, principal bool, tipo, numero string) map[string]any {
		return map[string]any{"id": id, "principal": principal, "tipo": tipo, "numero": numero, "nome": "Unidade", "ativo": true}
	}
	e.clock.Set(local(2024, 3, 8, 7, 0))
	want(t, post(evento("company-billing", empresaID, 1, core.EventoEmpresaIncluida, map[string]any{"empresa": empresa("")})), 200)
	want(t, post(evento("company-billing", empresaID, 2, core.EventoEstabelecimentoIncluido,
		map[string]any{"estabelecimento": estab(700, true, "cnpj", core.Plain(companyCNPJ(empresaID))), "empresa": empresa("")})), 200)
	cno := "123456789012"
	want(t, post(evento("company-billing", empresaID, 3, core.EventoEstabelecimentoIncluido,
		map[string]any{"estabelecimento": estab(701, false, "cno", cno), "empresa": empresa(cno)})), 200)

	ops, fin := e.departamento(c, "Operações"), e.departamento(c, "Financeiro")
	std := e.escala(c, "Comercial", standard())
	tarde := horario("13:00", 120, 135, 255)
	manha := horario("06:00", 120, 135, 360)
	escTarde := e.escala(c, "Tarde", []map[string]any{tarde, tarde, tarde, tarde, tarde})
	escManha := e.escala(c, "Manhã", []map[string]any{manha, manha, manha, manha, manha})
	emp := func(nome string, escala, dep, est int64) worker {
		return e.funcionario(c, escala, map[string]any{"nome": nome, "departamentoId": dep, "estabelecimentoId": est})
	}
	ana, bruno := emp("Ana Lima", std, ops, 0), emp("Bruno Reis", std, ops, 0)
	emp("Carla Dias", std, ops, 701)
	emp("Davi Souza", escTarde, fin, 701)
	emp("Elis Prado", escManha, fin, 701)
	other, _ := e.outsider()

	e.punch(ana, local(2024, 3, 11, 7, 58))
	e.punch(bruno, local(2024, 3, 11, 8, 1))
	e.punch(bruno, local(2024, 3, 11, 12, 5))
	e.clock.Set(local(2024, 3, 11, 12, 30))

	counts := func(sits ...string) map[string]int {
		m := map[string]int{"trabalhando": 0, "intervalo": 0, "encerrado": 0, "aguardando": 0, "atrasado": 0,
			"ausente": 0, "afastado": 0, "folga": 0}
		for _, s := range sits {
			m[s]++
		}
		return m
	}
	principal := []string{"Ana Lima:trabalhando:07:58", "Bruno Reis:intervalo:08:01,12:05"}
	site := []string{"Carla Dias:atrasado:", "Davi Souza:aguardando:", "Elis Prado:ausente:"}
	for _, tc := range []struct {
		query     string
		sits      []string
		contagens map[string]int
	}{
		{"", append(append([]string{}, principal...), site...),
			counts("trabalhando", "intervalo", "atrasado", "aguardando", "ausente")},
		{"?estabelecimento=0", principal, counts("trabalhando", "intervalo")},
		{"?estabelecimento=700", principal, counts("trabalhando", "intervalo")},
		{"?estabelecimento=701", site, counts("atrasado", "aguardando", "ausente")},
		{"?estabelecimento=701&departamento=financeiro", site[1:], counts("aguardando", "ausente")},
		{"?estabelecimento=0&departamento=Financeiro", nil, counts()},
	} {
		var h hojeView
		r := e.pub("GET", "/registropontos/hoje"+tc.query, c.token, nil)
		want(t, r, 200)
		r.into(t, &h)
		if d := cmp.Diff(tc.sits, h.situacoes()); d != "" {
			t.Errorf("%q situations (-want +got):\n%s", tc.query, d)
		}
		if d := cmp.Diff(tc.contagens, h.Contagens); d != "" {
			t.Errorf("%q counts (-want +got):\n%s", tc.query, d)
		}
	}

	// Another company's establishment and one not told of: nobody (not a
	// 404: a just-created one may still be in company-billing's outbox);
	// not an id: 400.
	for _, tc := range []struct {
		token, query string
	}{{other.token, "701"}, {c.token, "9999"}} {
		var h hojeView
		r := e.pub("GET", "/registropontos/hoje?estabelecimento="+tc.query, tc.token, nil)
		want(t, r, 200)
		r.into(t, &h)
		if len(h.Funcionarios) != 0 || !cmp.Equal(h.Contagens, counts()) {
			t.Errorf("estabelecimento=%s lists %v, %v; want nobody", tc.query, h.situacoes(), h.Contagens)
		}
	}
	for _, bad := range []string{"abc", "-1", "1.5", "99999999999999999999"} {
		wantErr(t, e.pub("GET", "/registropontos/hoje?estabelecimento="+bad, c.token, nil), 400, "validacao")
	}
}
