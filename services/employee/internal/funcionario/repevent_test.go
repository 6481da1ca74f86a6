package funcionario

import (
	"testing"

	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
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
	moved := on
	moved.estabelecimento = 7
	movedRenamed := renamed
	movedRenamed.estabelecimento = 7
	offMoved := off
	offMoved.estabelecimento = 7
	for _, tc := range []struct {
		name          string
		before, after repState
		want          string
	}{
		{"unchanged", on, on, ""},
		{"renamed", on, renamed, timekeepingapi.FuncionarioAlterado},
		{"new CPF", on, newCPF, timekeepingapi.FuncionarioAlterado},
		{"deactivated", on, off, timekeepingapi.FuncionarioExcluido},
		{"deactivated and renamed", on, offRenamed, timekeepingapi.FuncionarioExcluido},
		{"reactivated", off, on, timekeepingapi.FuncionarioIncluido},
		{"reactivated and renamed", off, renamed, timekeepingapi.FuncionarioIncluido},
		{"renamed while inactive", off, offRenamed, ""},
		{"still inactive", off, off, ""},
		{"moved", on, moved, timekeepingapi.FuncionarioTransferido},
		{"moved back", moved, on, timekeepingapi.FuncionarioTransferido},
		{"moved and renamed", on, movedRenamed, timekeepingapi.FuncionarioTransferido},
		{"moved and deactivated", on, offMoved, timekeepingapi.FuncionarioExcluido},
		{"reactivated elsewhere", off, moved, timekeepingapi.FuncionarioIncluido},
		{"moved while inactive", off, offMoved, ""},
	} {
		if got := repEvent(tc.before, tc.after); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
