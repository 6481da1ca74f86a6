package core

import "testing"

func TestNextTipo(t *testing.T) {
	want := []string{"entrada", "almoço", "retorno almoço", "saída", "entrada", "almoço", "retorno almoço", "saída", "entrada"}
	for done, w := range want {
		if got := NextTipo(done); got != w {
			t.Errorf("NextTipo(%d) = %q, want %q", done, got, w)
		}
	}
	for last, w := range map[string]string{"": "entrada", "entrada": "almoço", "almoço": "retorno almoço",
		"retorno almoço": "saída", "saída": "entrada"} {
		if got := TipoAfter(last); got != w {
			t.Errorf("TipoAfter(%q) = %q, want %q", last, got, w)
		}
	}
	if NextNSR(0) != 1 || NextNSR(41) != 42 {
		t.Fatal("NextNSR")
	}
}

func TestAdjustmentStateMachine(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		status            *string
		solicitar, decide error
	}{
		{nil, nil, ErrAjusteSemPendente},
		{s(StatusSolicitado), ErrAjusteJaSolicitado, nil},
		{s(StatusAprovado), ErrAjusteJaAprovado, ErrAjusteSemPendente},
		{s(StatusReprovado), nil, ErrAjusteSemPendente},
	} {
		if got := CheckAjusteRequest(c.status); got != c.solicitar {
			t.Errorf("CheckAjusteRequest(%v) = %v, want %v", c.status, got, c.solicitar)
		}
		if got := CheckAjusteDecision(c.status); got != c.decide {
			t.Errorf("CheckAjusteDecision(%v) = %v, want %v", c.status, got, c.decide)
		}
	}
	if Decisao(true) != StatusAprovado || Decisao(false) != StatusReprovado {
		t.Fatal("Decisao")
	}
}

func TestOperacaoREP(t *testing.T) {
	for _, c := range []struct {
		known                  bool
		cpf, nome, ncpf, nnome string
		want                   string
	}{
		{false, "", "", "012345678909", "Ana", "I"},
		{true, "012345678909", "Ana", "012345678909", "Ana", ""},
		{true, "012345678909", "Ana", "012345678909", "Ana Maria", "A"},
		{true, "012345678909", "Ana", "098765432100", "Ana", "A"},
	} {
		if got := OperacaoREP(c.known, c.cpf, c.nome, c.ncpf, c.nnome); got != c.want {
			t.Errorf("%+v: %q", c, got)
		}
	}
}

func TestOperacaoDeEvento(t *testing.T) {
	ana := UltimoREP{Conhecido: true, Operacao: "I", CPF: "012345678909", Nome: "Ana"}
	excluida := UltimoREP{Conhecido: true, Operacao: "E", CPF: "012345678909", Nome: "Ana"}
	for _, c := range []struct {
		tipo   string
		ultimo UltimoREP
		nome   string
		want   string
	}{
		{EventoFuncionarioIncluido, UltimoREP{}, "Ana", "I"},
		{EventoFuncionarioIncluido, ana, "Ana", ""}, // included at a first punch already
		{EventoFuncionarioAlterado, ana, "Ana Maria", "A"},
		{EventoFuncionarioAlterado, ana, "Ana", ""},
		{EventoFuncionarioAlterado, UltimoREP{}, "Ana", "I"},
		{EventoFuncionarioExcluido, ana, "Ana", "E"},
		{EventoFuncionarioExcluido, excluida, "Ana", ""},
		{EventoFuncionarioExcluido, UltimoREP{}, "Ana", ""},
		{EventoFuncionarioIncluido, excluida, "Ana", "I"}, // reactivated
	} {
		if got := OperacaoDeEvento(c.tipo, c.ultimo, "012345678909", c.nome); got != c.want {
			t.Errorf("%s after %+v (%s): %q, want %q", c.tipo, c.ultimo, c.nome, got, c.want)
		}
	}
	if !EventoConhecido(EventoEmpresaAlterada) || EventoConhecido("funcionario.demitido") {
		t.Fatal("EventoConhecido")
	}
}
