// Package brdocs validates Brazilian registry numbers in their printed
// masks: CPF (###.###.###-##) and CNPJ (##.###.###/####-##), including the
// alphanumeric CNPJ issued since July 2026 (Receita Federal IN 2.229/2024),
// whose first twelve characters may be letters. Existing libraries check
// only numeric CNPJs, hence this small package.
package brdocs

import (
	"regexp"
	"strings"
)

// document is one kind of registry number: its printed mask and the
// weights of its two check digits, each computed over every character
// before it.
type document struct {
	mask    *regexp.Regexp
	weights [2][]int
}

var (
	cpf = document{
		mask:    regexp.MustCompile(`^\d{3}\.\d{3}\.\d{3}-\d{2}$`),
		weights: [2][]int{cpfWeights(10), cpfWeights(11)},
	}
	cnpj = document{
		mask: regexp.MustCompile(`^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}/[0-9A-Z]{4}-\d{2}$`),
		weights: [2][]int{{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2},
			{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}},
	}
)

// ValidCPF reports whether s is a CPF written ###.###.###-## whose check
// digits are right. Repeated-digit numbers (111.111.111-11) pass the
// arithmetic but are not issued, so they are refused.
func ValidCPF(s string) bool { return cpf.valid(s) }

// ValidCNPJ reports whether s is a CNPJ written ##.###.###/####-## (upper
// case letters allowed in the first twelve positions) whose check digits
// are right.
func ValidCNPJ(s string) bool { return cnpj.valid(s) }

// valid reports whether s is written in the document's mask, is not one
// character repeated, and ends in the right check digits.
func (doc document) valid(s string) bool {
	if !doc.mask.MatchString(s) {
		return false
	}
	d := Plain(s)
	if allSame(d) {
		return false
	}
	for _, w := range doc.weights {
		if checkDigit(d[:len(w)], w) != d[len(w)] {
			return false
		}
	}
	return true
}

// Plain strips the mask: "123.456.789-09" becomes "12345678909".
func Plain(s string) string {
	return strings.NewReplacer(".", "", "-", "", "/", "").Replace(s)
}

// checkDigit is the modulo-11 digit shared by CPF and CNPJ. Each character
// counts as its code minus '0', which gives digits their value and letters
// (alphanumeric CNPJ) the values 17 to 42.
func checkDigit(s string, weights []int) byte {
	sum := 0
	for i := range len(s) {
		sum += int(s[i]-'0') * weights[i]
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

func cpfWeights(first int) []int {
	w := make([]int, first-1)
	for i := range w {
		w[i] = first - i
	}
	return w
}

func allSame(s string) bool {
	return strings.Count(s, s[:1]) == len(s)
}

// plainCNPJ is a CNPJ without its mask: twelve digits or upper case
// letters, then the two check digits.
var plainCNPJ = regexp.MustCompile(`^[0-9A-Z]{12}\d{2}$`)

// ValidPlainCNPJ reports whether s is a CNPJ without its mask
// ("11222333000181") whose check digits are right.
func ValidPlainCNPJ(s string) bool { return plainCNPJ.MatchString(s) && cnpj.valid(FormatCNPJ(s)) }

// FormatCNPJ writes a 14-character unmasked CNPJ in its mask
// (##.###.###/####-##); anything else is returned as it is.
func FormatCNPJ(s string) string {
	if len(s) != 14 {
		return s
	}
	return s[:2] + "." + s[2:5] + "." + s[5:8] + "/" + s[8:12] + "-" + s[12:]
}

// CNPJRoot is the first eight characters of a CNPJ, masked or not: the
// company's root, which every establishment of it shares.
func CNPJRoot(s string) string {
	p := Plain(s)
	if len(p) < 8 {
		return p
	}
	return p[:8]
}

// The CAEPF (Cadastro de Atividade Econômica da Pessoa Física, IN RFB
// 1.828/2018) is 14 digits: the CPF's nine base digits, a three-digit
// sequence and two check digits. These are the CNPJ's two modulo-11 digits
// over the first twelve, read as one number to which 12 is added (modulo
// 100). The CNO (Cadastro Nacional de Obras, IN RFB 1.845/2018), successor
// of the CEI matrícula, is 12 digits whose last is the CEI's check digit.
// Neither algorithm is in a Receita Federal text at hand; each was taken
// from two independent public implementations that agree (docs/compliance.md).
var (
	plainCAEPF = regexp.MustCompile(`^\d{14}$`)
	plainCNO   = regexp.MustCompile(`^\d{12}$`)
	cnoWeights = []int{7, 4, 1, 8, 5, 2, 1, 6, 3, 7, 4}
)

// ValidCAEPF reports whether s is 14 digits, not all the same, ending in
// the right check digits.
func ValidCAEPF(s string) bool {
	if !plainCAEPF.MatchString(s) || allSame(s) {
		return false
	}
	first := checkDigit(s[:12], cnpj.weights[0])
	second := checkDigit(s[:12]+string(first), cnpj.weights[1])
	// The CAEPF's own twist: the CNPJ's pair of digits plus 12.
	n := (int(first-'0')*10 + int(second-'0') + 12) % 100
	return int(s[12]-'0')*10+int(s[13]-'0') == n
}

// ValidCNO reports whether s is 12 digits, not all the same, ending in
// the right check digit.
func ValidCNO(s string) bool {
	if !plainCNO.MatchString(s) || allSame(s) {
		return false
	}
	return s[11] == cnoCheckDigit(s[:11])
}

// cnoCheckDigit is the CEI's digit: the weighted sum's last two digits
// added together, and what that sum's units lack to make ten.
func cnoCheckDigit(s string) byte {
	sum := 0
	for i, w := range cnoWeights {
		sum += int(s[i]-'0') * w
	}
	t := sum % 100
	return byte('0' + (10-(t/10+t%10)%10)%10)
}
