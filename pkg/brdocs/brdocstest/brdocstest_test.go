package brdocstest_test

import (
	"testing"

	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/brdocs/brdocstest"
)

func TestCPF(t *testing.T) {
	seen := map[string]bool{}
	for n := range 2000 {
		c := brdocstest.CPF(n)
		if !brdocs.ValidCPF(c) || seen[c] {
			t.Fatalf("CPF(%d) = %s: invalid or repeated", n, c)
		}
		seen[c] = true
	}
	// The check digits computed by hand for 100.000.001.
	if c := brdocstest.CPF(1); c != "100.000.001-08" {
		t.Errorf("CPF(1) = %s", c)
	}
}
