package core

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The hashes were computed outside Go (core/chain.go's layout: NSR in 9
// digits, "7", DH, CPF12, DH, coletor, "0", then the previous hash):
//
//	h0=$(printf 'x' | sha256sum)                                    # 2d7116...
//	p1=000000043 7 2024-03-04T08:01:00-0300 012345678909 2024-03-04T08:01:00-0300 01 0
//	h1=$(printf '%s%s' "$p1" "$h0" | sha256sum)                     # 0ddb1c...
//	p2=000000044 7 2024-03-04T12:00:00-0300 012345678909 2024-03-04T12:00:00-0300 01 0
//	h2=$(printf '%s%s' "$p2" "$h1" | sha256sum)                     # 77f694...
//	p3=000000046 7 2024-03-04T12:00:00-0300 098765432100 2024-03-04T12:00:00-0300 02 0
//	h3=$(printf '%s%s' "$p3" "$h2" | sha256sum)                     # ce2b05...
//
// NSRs: head 42; Ana's two punches take 43 and 44; Bia is unknown to the
// chain, so her type-5 inclusion takes 45 and her punch 46.
func TestPlanBatchChainsAndNumbers(t *testing.T) {
	const (
		h0 = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
		h1 = "0ddb1c2ac2df6a9f571f3da1c7f21bd4fc59d10925133728a5d60f7407b7c39e"
		h2 = "77f6945859d30d10a73476d865eea7ec936d7fe9f13ab37ee47c90324057f1ea"
		h3 = "ce2b0524dad981ba085f5fb36407881d642d84aba61cb6605fe7362ce92a0f0d"
	)
	morning := time.Date(2024, 3, 4, 11, 1, 30, 0, time.UTC)
	noon := time.Date(2024, 3, 4, 15, 0, 0, 0, time.UTC)
	empregados := map[int64]EmpregadoREP{7: {Conhecido: true, CPF: "012345678909", Nome: "Ana"}}
	ultimos := map[int64]string{7: TipoEntrada}
	head, got, err := PlanBatch(Head{NSR: 42, Hash: h0}, empregados, ultimos, []Batida{
		{FuncionarioID: 7, CPF: "123.456.789-09", Nome: "Ana", Horario: morning, OffsetMinutes: -180, Coletor: "01"},
		{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana", Horario: noon, OffsetMinutes: -180, Coletor: "01"},
		{FuncionarioID: 9, CPF: "98765432100", Nome: "Bia", Horario: noon, OffsetMinutes: -180, Coletor: "02"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []BatidaPlanejada{
		{Tipo: TipoAlmoco, NSR: 43, Hash: h1},
		{Tipo: TipoRetorno, NSR: 44, Hash: h2},
		{Operacao: OperacaoInclusao, Tipo: TipoEntrada, NSR: 46, Hash: h3},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("plan (-want +got):\n%s", d)
	}
	if d := cmp.Diff(Head{NSR: 46, Hash: h3}, head); d != "" {
		t.Errorf("head (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[int64]string{7: TipoEntrada}, ultimos); d != "" {
		t.Errorf("the caller's map changed (-want +got):\n%s", d)
	}
}

// The type-5 record and tipo cases the clock-in's SQL tests cover, hashes
// aside: NSRs counted by hand from head 10.
func TestPlanBatchOperacoes(t *testing.T) {
	at := time.Date(2024, 3, 4, 12, 0, 0, 0, time.UTC)
	ana := EmpregadoREP{Conhecido: true, CPF: "012345678909", Nome: "Ana"}
	type result struct {
		Operacao, Tipo string
		NSR            int64
	}
	for _, c := range []struct {
		name       string
		empregados map[int64]EmpregadoREP
		ultimos    map[int64]string
		batidas    []Batida
		want       []result
		head       int64
	}{
		{"first punch of the chain: I at 11, punch at 12", nil, nil,
			[]Batida{{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana"}},
			[]result{{OperacaoInclusao, TipoEntrada, 12}}, 12},
		{"known, unchanged: no type 5", map[int64]EmpregadoREP{7: ana}, nil,
			[]Batida{{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana"}},
			[]result{{"", TipoEntrada, 11}}, 11},
		{"renamed: A at 11, then unchanged in the same batch", map[int64]EmpregadoREP{7: ana}, nil,
			[]Batida{{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana Maria"}, {FuncionarioID: 7, CPF: "12345678909", Nome: "Ana Maria"}},
			[]result{{OperacaoAlteracao, TipoEntrada, 12}, {"", TipoAlmoco, 13}}, 13},
		{"new CPF: A", map[int64]EmpregadoREP{7: ana}, nil,
			[]Batida{{FuncionarioID: 7, CPF: "98765432100", Nome: "Ana"}},
			[]result{{OperacaoAlteracao, TipoEntrada, 12}}, 12},
		{"excluded from the chain (moved away): I again", map[int64]EmpregadoREP{7: {Conhecido: true, Excluido: true,
			CPF: "012345678909", Nome: "Ana"}}, nil,
			[]Batida{{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana"}},
			[]result{{OperacaoInclusao, TipoEntrada, 12}}, 12},
		{"after saída the cycle starts over", map[int64]EmpregadoREP{7: ana}, map[int64]string{7: TipoSaida},
			[]Batida{{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana"}},
			[]result{{"", TipoEntrada, 11}}, 11},
		{"two employees interleaved keep their own tipos", map[int64]EmpregadoREP{7: ana}, map[int64]string{7: TipoAlmoco},
			[]Batida{{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana"}, {FuncionarioID: 9, CPF: "98765432100", Nome: "Bia"},
				{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana"}, {FuncionarioID: 9, CPF: "98765432100", Nome: "Bia"}},
			[]result{{"", TipoRetorno, 11}, {OperacaoInclusao, TipoEntrada, 13}, {"", TipoSaida, 14}, {"", TipoAlmoco, 15}}, 15},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range c.batidas {
				c.batidas[i].Horario, c.batidas[i].OffsetMinutes, c.batidas[i].Coletor = at, -180, ColetorMobile
			}
			head, plans, err := PlanBatch(Head{NSR: 10}, c.empregados, c.ultimos, c.batidas)
			if err != nil {
				t.Fatal(err)
			}
			var got []result
			for _, p := range plans {
				got = append(got, result{p.Operacao, p.Tipo, p.NSR})
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("plan (-want +got):\n%s", d)
			}
			if head.NSR != c.head {
				t.Errorf("head NSR %d, want %d", head.NSR, c.head)
			}
		})
	}
}

// A collector code outside 01-05 cannot be hashed: the plan fails and
// says which NSR.
func TestPlanBatchRefusesBadCollector(t *testing.T) {
	_, _, err := PlanBatch(Head{NSR: 1}, nil, nil, []Batida{{FuncionarioID: 7, CPF: "12345678909", Nome: "Ana",
		Horario: time.Date(2024, 3, 4, 12, 0, 0, 0, time.UTC), Coletor: "09"}})
	if err == nil {
		t.Fatal("plan accepted collector 09")
	}
}
