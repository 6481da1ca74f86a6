package brdocs_test

import (
	"testing"

	"github.com/ponto/ponto/pkg/brdocs"
)

func TestValidCPF(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"529.982.247-25", true},
		{"111.444.777-35", true},
		{"529.982.247-26", false}, // second check digit wrong
		{"529.982.247-15", false}, // first check digit wrong
		{"52998224725", false},    // mask required
		{"529.982.24725", false},
		{"111.111.111-11", false}, // repeated digits
		{"000.000.000-00", false},
		{"", false},
		{"529.982.247-2a", false},
	} {
		if got := brdocs.ValidCPF(tc.in); got != tc.want {
			t.Errorf("ValidCPF(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestValidCNPJ(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"11.222.333/0001-81", true},
		{"45.723.174/0001-10", true},
		{"11.222.333/0001-82", false},
		{"11222333000181", false}, // mask required
		{"11.222.333/0001-8", false},
		{"00.000.000/0000-00", false},
		// Alphanumeric CNPJ, the Receita Federal's published example.
		{"12.ABC.345/01DE-35", true},
		{"12.ABC.345/01DE-36", false},
		{"12.abc.345/01de-35", false}, // letters are upper case
		{"", false},
	} {
		if got := brdocs.ValidCNPJ(tc.in); got != tc.want {
			t.Errorf("ValidCNPJ(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestPlain(t *testing.T) {
	if got := brdocs.Plain("11.222.333/0001-81"); got != "11222333000181" {
		t.Fatalf("Plain = %q", got)
	}
}
