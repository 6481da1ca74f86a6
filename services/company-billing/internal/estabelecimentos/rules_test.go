package estabelecimentos

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/domainerr"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

func TestREPPayloadOfEachType(t *testing.T) {
	company := timekeepingapi.Empresa{CNPJ: "11.222.333/0001-81", RazaoSocial: "Padaria Ltda",
		Responsavel: &timekeepingapi.Responsavel{Nome: "Ana", CPF: "529.982.247-25"}}
	for _, tc := range []struct {
		est            Estabelecimento
		cnpj, cno, loc string
	}{
		{Estabelecimento{ID: 1, Principal: true, Tipo: TipoCNPJ, Numero: "11222333000181", Nome: "Matriz", Ativo: true},
			"11.222.333/0001-81", "", ""},
		{Estabelecimento{ID: 2, Tipo: TipoCNPJ, Numero: "11222333000262", Nome: "Filial", Endereco: "Rua A", Ativo: true},
			"11.222.333/0002-62", "", "Rua A"},
		{Estabelecimento{ID: 3, Tipo: TipoCAEPF, Numero: "29311861000184", Nome: "Sítio", Endereco: "Estrada"},
			"11.222.333/0001-81", "29311861000184", "Estrada"},
		{Estabelecimento{ID: 4, Tipo: TipoCNO, Numero: "115830024985", Nome: "Obra", Endereco: "Av. C", Ativo: true},
			"11.222.333/0001-81", "115830024985", "Av. C"},
	} {
		emp := company
		emp.CNPJ, emp.CNO, emp.Local = tc.cnpj, tc.cno, tc.loc
		want := timekeepingapi.Payload{Empresa: &emp, Estabelecimento: &timekeepingapi.Estabelecimento{
			ID: tc.est.ID, Principal: tc.est.Principal, Tipo: tc.est.Tipo, Numero: tc.est.Numero, Nome: tc.est.Nome, Ativo: tc.est.Ativo}}
		if diff := cmp.Diff(want, REPPayload(tc.est, company)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.est.Tipo, diff)
		}
	}
}

func TestCheckCriacao(t *testing.T) {
	zone := "America/Manaus"
	for name, tc := range map[string]struct {
		req   criacaoRequest
		want  Estabelecimento
		field string
	}{
		"masked branch": {criacaoRequest{Tipo: "cnpj", Numero: "11.222.333/0002-62", Nome: "F", Endereco: "R"},
			Estabelecimento{Tipo: "cnpj", Numero: "11222333000262", Nome: "F", Endereco: "R", FusoHorario: "America/Sao_Paulo", Ativo: true}, ""},
		"own zone": {criacaoRequest{Tipo: "cno", Numero: "115830024985", Nome: "O", Endereco: "R", FusoHorario: &zone},
			Estabelecimento{Tipo: "cno", Numero: "115830024985", Nome: "O", Endereco: "R", FusoHorario: zone, Ativo: true}, ""},
		"other root":  {criacaoRequest{Tipo: "cnpj", Numero: "11444777000161", Nome: "F", Endereco: "R"}, Estabelecimento{}, "numero"},
		"bad digits":  {criacaoRequest{Tipo: "cnpj", Numero: "11222333000263", Nome: "F", Endereco: "R"}, Estabelecimento{}, "numero"},
		"masked cno":  {criacaoRequest{Tipo: "cno", Numero: "11.583.00249/85", Nome: "O", Endereco: "R"}, Estabelecimento{}, "numero"},
		"control chr": {criacaoRequest{Tipo: "cno", Numero: "115830024985", Nome: "O\x00", Endereco: "R"}, Estabelecimento{}, "nome"},
	} {
		got, err := checkCriacao(tc.req, "11.222.333/0001-81", "America/Sao_Paulo")
		if tc.field != "" {
			var de *domainerr.Error
			if !errors.As(err, &de) || de.Fields[tc.field] == "" {
				t.Errorf("%s: err %v; want one naming %s", name, err, tc.field)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
