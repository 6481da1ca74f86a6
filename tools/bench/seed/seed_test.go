package seed

import (
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/brdocs"
)

// The vectors are internal/afd's own (hash_test.go), computed outside Go:
// the mirror must give the same hashes.
func TestPunchHashMatchesAFDVectors(t *testing.T) {
	h1 := punchHash(1, time.Date(2024, 3, 4, 11, 1, 2, 345e6, time.UTC), -180, cpf12("123.456.789-09"), "01", "")
	if h1 != "3a0ea3b555dd0fc00b84d2d3d3e6eb42bcf0b3a2f39c27fe443775d975741452" {
		t.Fatalf("hash 1 = %s", h1)
	}
	h2 := punchHash(2, time.Date(2024, 3, 5, 2, 59, 59, 999e6, time.UTC), -180, cpf12("12345678909"), "02", h1)
	if h2 != "544611a75ab756a0d449f546c8f0c2f2b2c8fc799ed5e327e9632d6133032351" {
		t.Fatalf("hash 2 = %s", h2)
	}
}

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
