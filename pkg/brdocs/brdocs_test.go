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

// The check digits below were computed by hand.
//
// CAEPF 293.118.610/001-84 (the example of the pctoledo.org thread that
// published the algorithm): base 293118610001.
//
//	first:  2·5+9·4+3·3+1·2+1·9+8·8+6·7+1·6+0·5+0·4+0·3+1·2 = 180;
//	        180 mod 11 = 4, 11-4 = 7
//	second: 2·6+9·5+3·4+1·3+1·2+8·9+6·8+1·7+0·6+0·5+0·4+1·3+7·2 = 218;
//	        218 mod 11 = 9, 11-9 = 2
//	72 + 12 = 84.
//
// CAEPF base 034567892001 (cadcobol.com.br's example base):
//
//	first:  0·5+3·4+4·3+5·2+6·9+7·8+8·7+9·6+2·5+0·4+0·3+1·2 = 266;
//	        266 mod 11 = 2, 11-2 = 9
//	second: 0·6+3·5+4·4+5·3+6·2+7·9+8·8+9·7+2·6+0·5+0·4+1·3+9·2 = 281;
//	        281 mod 11 = 6, 11-6 = 5
//	95 + 12 = 107, modulo 100: 07.
//
// CNO 11.583.00249/85: 1·7+1·4+5·1+8·8+3·5+0·2+0·1+2·6+4·3+9·7+8·4 = 214;
// last two digits 14, 1+4 = 5, 10-5 = 5.
//
// CNO 12.345.67890/10: 1·7+2·4+3·1+4·8+5·5+6·2+7·1+8·6+9·3+0·7+1·4 = 173;
// 7+3 = 10, units 0, so the digit is 0 (10-0 = 10 counts as 0).
func TestValidCAEPFAndCNOCheckDigits(t *testing.T) {
	for _, tc := range []struct {
		in         string
		caepf, cno bool
	}{
		{"29311861000184", true, false},
		{"29311861000172", false, false}, // the CNPJ's digits without the 12
		{"03456789200107", true, false},
		{"03456789200195", false, false},
		{"115830024985", false, true},
		{"123456789010", false, true},
		{"123456789011", false, false},
	} {
		if got := brdocs.ValidCAEPF(tc.in); got != tc.caepf {
			t.Errorf("ValidCAEPF(%q) = %v, want %v", tc.in, got, tc.caepf)
		}
		if got := brdocs.ValidCNO(tc.in); got != tc.cno {
			t.Errorf("ValidCNO(%q) = %v, want %v", tc.in, got, tc.cno)
		}
	}
}

// changes returns every number that differs from s in one digit.
func changes(s string) []string {
	var out []string
	for i := range len(s) {
		for d := byte('0'); d <= '9'; d++ {
			if d != s[i] {
				out = append(out, s[:i]+string(d)+s[i+1:])
			}
		}
	}
	return out
}

func TestValidCAEPFRefusesEverySingleDigitChange(t *testing.T) {
	for _, valid := range []string{"29311861000184", "03456789200107"} {
		for _, c := range changes(valid) {
			if brdocs.ValidCAEPF(c) {
				t.Errorf("ValidCAEPF(%q) = true, a one-digit change of %s", c, valid)
			}
		}
	}
}

// The CEI/CNO digit is weaker than the modulo-11 ones: it only sees the
// sum of the weighted sum's last two digits, so every change of its check
// digit is refused but some changes of a body digit are not. Hand-computed:
//
//	115830024985 with its 4th digit 8→0: 214 - 8·8 = 150, 5+0 = 5,
//	  still 5: accepted (the algorithm's blind spot, kept as Receita's);
//	115830024985 with its 1st digit 1→2: 214 + 7 = 221, 2+1 = 3, 10-3 = 7 ≠ 5;
//	115830024985 with its 10th digit 9→8: 214 - 7 = 207, 0+7 = 7, 10-7 = 3 ≠ 5.
func TestValidCNOSingleDigitChanges(t *testing.T) {
	for _, valid := range []string{"115830024985", "123456789010"} {
		for d := byte('0'); d <= '9'; d++ {
			if c := valid[:11] + string(d); d != valid[11] && brdocs.ValidCNO(c) {
				t.Errorf("ValidCNO(%q) = true, a change of the check digit of %s", c, valid)
			}
		}
	}
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"115030024985", true},
		{"215830024985", false},
		{"115830024885", false},
	} {
		if got := brdocs.ValidCNO(tc.in); got != tc.want {
			t.Errorf("ValidCNO(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
