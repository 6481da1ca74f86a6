package seed

import (
	"testing"

	"github.com/ponto/ponto/pkg/brdocs"
)

func TestDocumentsAreValidAndUnique(t *testing.T) {
	seen := map[string]bool{}
	for n := range 5000 {
		c := cpf(n*37, 4242)
		if !brdocs.ValidCPF(c) || seen[c] {
			t.Fatalf("cpf(%d) = %q: valid %v, repeated %v", n, c, brdocs.ValidCPF(c), seen[c])
		}
		seen[c] = true
	}
	for n := range 200 {
		c := cnpj(n, 4242)
		if !brdocs.ValidCNPJ(c) || seen[c] {
			t.Fatalf("cnpj(%d) = %q", n, c)
		}
		seen[c] = true
	}
}

func TestScheduleMinutes(t *testing.T) {
	for _, s := range schedules {
		if !(s.saidaAlmoco < s.retornoAlmoco && s.retornoAlmoco < s.saida && s.saida <= 1440) || s.days < 1 || s.days > 7 {
			t.Errorf("%s: not a schedule the employee service accepts", s.nome)
		}
	}
}
