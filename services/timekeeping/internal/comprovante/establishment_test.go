package comprovante

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The receipt names the punch's establishment: a branch with a CNPJ of
// its own prints that CNPJ; a CAEPF or CNO one the company's, with its
// number beside its name.
func TestReceiptNamesTheEstablishment(t *testing.T) {
	const empresa = "11.222.333/0001-81"
	type got struct{ CNPJ, Estabelecimento string }
	for _, c := range []struct {
		est  Estabelecimento
		want got
	}{
		{Estabelecimento{}, got{empresa, ""}},
		{Estabelecimento{Nome: "Matriz", Tipo: "cnpj", Numero: "11222333000181"}, got{empresa, "Matriz"}},
		{Estabelecimento{Nome: "Filial", Tipo: "cnpj", Numero: "11222333000262"}, got{"11.222.333/0002-62", "Filial"}},
		{Estabelecimento{Nome: "Obra", Tipo: "cno", Numero: "123456789012"}, got{empresa, "Obra (CNO 123456789012)"}},
		{Estabelecimento{Nome: "Fazenda", Tipo: "caepf", Numero: "12345678901234"}, got{empresa, "Fazenda (CAEPF 12345678901234)"}},
	} {
		g := got{cnpjOf(empresa, c.est), ""}
		if c.est.Nome != "" {
			g.Estabelecimento = estabelecimento(c.est)
		}
		if d := cmp.Diff(c.want, g); d != "" {
			t.Errorf("%+v (-want +got):\n%s", c.est, d)
		}
	}
}
