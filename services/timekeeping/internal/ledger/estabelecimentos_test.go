package ledger

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// An employee's establishment picks his chain: 0 and the principal
// establishment's own id are the principal chain (0), a branch its id; an
// establishment timekeeping has not been told of is refused (503) until
// it is, and known ones are remembered.
func TestChainOfAnEmployeesEstablishment(t *testing.T) {
	l := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	ctx := t.Context()
	if _, err := l.ChainOf(ctx, 1, 77); !errors.Is(err, errEstabelecimentoPendente) {
		t.Fatalf("unknown establishment: %v, want estabelecimento_pendente", err)
	}
	if _, err := l.db.Exec(ctx, `INSERT INTO estabelecimentos (empresa_id, id, principal, tipo, numero, nome, ativo, atualizado_em)
		VALUES (1, 500, true, 'cnpj', '11222333000181', 'Matriz', true, now()),
			(1, 77, false, 'cno', '123456789012', 'Obra', true, now()),
			(2, 88, false, 'cno', '123456789013', 'Outra', true, now())`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		empresa, estab int64
		want           Chain
	}{
		{1, 0, Principal(1)},
		{1, 500, Principal(1)},
		{1, 77, branch},
	} {
		got, err := l.ChainOf(ctx, c.empresa, c.estab)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("ChainOf(%d, %d) (-want +got):\n%s", c.empresa, c.estab, d)
		}
	}
	// Another company's establishment is not this company's.
	if _, err := l.ChainOf(ctx, 1, 88); !errors.Is(err, errEstabelecimentoPendente) {
		t.Errorf("another company's establishment: %v", err)
	}
	// Remembered: answered without the table.
	if _, err := l.db.Exec(ctx, `DELETE FROM estabelecimentos WHERE id = 77`); err != nil {
		t.Fatal(err)
	}
	if got, err := l.ChainOf(ctx, 1, 77); err != nil || got != branch {
		t.Errorf("cached ChainOf(1, 77) = %v, %v", got, err)
	}
}
