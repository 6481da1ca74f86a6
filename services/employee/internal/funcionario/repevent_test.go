package funcionario

import (
	"testing"

	"github.com/ponto/ponto/pkg/outbox"
)

func TestRepEvent(t *testing.T) {
	on := repState{ativo: true, nome: "Ana", cpf: "529.982.247-25"}
	off := on
	off.ativo = false
	renamed := on
	renamed.nome = "Ana Lima"
	newCPF := on
	newCPF.cpf = "111.444.777-35"
	offRenamed := renamed
	offRenamed.ativo = false
	for _, tc := range []struct {
		name          string
		before, after repState
		want          string
	}{
		{"unchanged", on, on, ""},
		{"renamed", on, renamed, outbox.FuncionarioAlterado},
		{"new CPF", on, newCPF, outbox.FuncionarioAlterado},
		{"deactivated", on, off, outbox.FuncionarioExcluido},
		{"deactivated and renamed", on, offRenamed, outbox.FuncionarioExcluido},
		{"reactivated", off, on, outbox.FuncionarioIncluido},
		{"reactivated and renamed", off, renamed, outbox.FuncionarioIncluido},
		{"renamed while inactive", off, offRenamed, ""},
		{"still inactive", off, off, ""},
	} {
		if got := repEvent(tc.before, tc.after); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
