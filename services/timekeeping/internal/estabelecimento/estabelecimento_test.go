package estabelecimento

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/database/dbtest"
)

// An establishment is found by its id, the principal one also by 0; one
// timekeeping was not told of, or another company's, is nil. Each names
// its identifier as the documents write it.
func TestFind(t *testing.T) {
	db := dbtest.New(t, os.DirFS("../../migrations"))
	ctx := t.Context()
	if _, err := db.Exec(ctx, `INSERT INTO estabelecimentos (empresa_id, id, principal, tipo, numero, nome, ativo, atualizado_em)
		VALUES (1, 500, true, 'cnpj', '11222333000181', 'Matriz', true, now()),
			(1, 501, false, 'cno', '123456789012', 'Obra Centro', true, now()),
			(1, 502, false, 'caepf', '12345678901234', 'Sítio', true, now()),
			(1, 503, false, 'cnpj', '11222333000262', 'Filial', true, now()),
			(2, 600, false, 'cno', '123456789013', 'Outra', true, now())`); err != nil {
		t.Fatal(err)
	}
	matriz := &Estabelecimento{ID: 500, Tipo: "cnpj", Numero: "11222333000181", Nome: "Matriz", Principal: true}
	for _, c := range []struct {
		empresa, id int64
		want        *Estabelecimento
		nome, cnpj  string
	}{
		{1, 0, matriz, "Matriz (CNPJ 11.222.333/0001-81)", "11.222.333/0001-81"},
		{1, 500, matriz, "Matriz (CNPJ 11.222.333/0001-81)", "11.222.333/0001-81"},
		{1, 501, &Estabelecimento{ID: 501, Tipo: "cno", Numero: "123456789012", Nome: "Obra Centro"},
			"Obra Centro (CNO 123456789012)", "empresa"},
		{1, 502, &Estabelecimento{ID: 502, Tipo: "caepf", Numero: "12345678901234", Nome: "Sítio"},
			"Sítio (CAEPF 12345678901234)", "empresa"},
		{1, 503, &Estabelecimento{ID: 503, Tipo: "cnpj", Numero: "11222333000262", Nome: "Filial"},
			"Filial (CNPJ 11.222.333/0002-62)", "11.222.333/0002-62"},
		{1, 600, nil, "", "empresa"}, // another company's
		{2, 0, nil, "", "empresa"},   // no principal told yet
	} {
		got, err := Find(ctx, db, c.empresa, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("Find(%d, %d) (-want +got):\n%s", c.empresa, c.id, d)
		}
		if got.CNPJ("empresa") != c.cnpj {
			t.Errorf("Find(%d, %d).CNPJ = %q, want %q", c.empresa, c.id, got.CNPJ("empresa"), c.cnpj)
		}
		if got != nil && got.Identificacao() != c.nome {
			t.Errorf("Find(%d, %d).Identificacao = %q, want %q", c.empresa, c.id, got.Identificacao(), c.nome)
		}
	}
}
