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

func TestValidPlainCNPJ(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"11222333000181", true},
		// A branch, 11.222.333/0002-?? by hand. First digit, weights
		// 5,4,3,2,9,8,7,6,5,4,3,2 over 1,1,2,2,2,3,3,3,0,0,0,2:
		// 5+4+6+4+18+24+21+18+0+0+0+4 = 104; 104 mod 11 = 5; 11-5 = 6.
		// Second, weights 6,5,4,3,2,9,8,7,6,5,4,3,2 over those and 6:
		// 6+5+8+6+4+27+24+21+0+0+0+6+12 = 119; 119 mod 11 = 9; 11-9 = 2.
		{"11222333000262", true},
		{"11222333000263", false},
		{"11.222.333/0001-81", false}, // unmasked only
		{"1122233300018", false},
		{"12ABC34501DE35", true},
		{"00000000000000", false},
		{"", false},
	} {
		if got := brdocs.ValidPlainCNPJ(tc.in); got != tc.want {
			t.Errorf("ValidPlainCNPJ(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestFormatCNPJAndRoot(t *testing.T) {
	if got := brdocs.FormatCNPJ("11222333000262"); got != "11.222.333/0002-62" {
		t.Errorf("FormatCNPJ = %q", got)
	}
	for _, in := range []string{"11.222.333/0001-81", "11222333000262"} {
		if got := brdocs.CNPJRoot(in); got != "11222333" {
			t.Errorf("CNPJRoot(%q) = %q", in, got)
		}
	}
}

func TestValidCAEPFAndCNO(t *testing.T) {
	for _, tc := range []struct {
		in         string
		caepf, cno bool
	}{
		{"29311861000184", true, false},
		{"115830024985", false, true},
		{"2931186100018", false, false},
		{"11111111111111", false, false},
		{"111111111111", false, false},
		{"293.118.610/001-84", false, false}, // unmasked only
		{"11583002498A", false, false},
		{"", false, false},
	} {
		if got := brdocs.ValidCAEPF(tc.in); got != tc.caepf {
			t.Errorf("ValidCAEPF(%q) = %v, want %v", tc.in, got, tc.caepf)
		}
		if got := brdocs.ValidCNO(tc.in); got != tc.cno {
			t.Errorf("ValidCNO(%q) = %v, want %v", tc.in, got, tc.cno)
		}
	}
}
