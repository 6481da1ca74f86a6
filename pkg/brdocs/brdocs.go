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

var (
	cpfMask  = regexp.MustCompile(`^\d{3}\.\d{3}\.\d{3}-\d{2}$`)
	cnpjMask = regexp.MustCompile(`^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}/[0-9A-Z]{4}-\d{2}$`)
)

// ValidCPF reports whether s is a CPF written ###.###.###-## whose check
// digits are right. Repeated-digit numbers (111.111.111-11) pass the
// arithmetic but are not issued, so they are refused.
func ValidCPF(s string) bool {
	if !cpfMask.MatchString(s) {
		return false
	}
	d := Plain(s)
	if allSame(d) {
		return false
	}
	return checkDigit(d[:9], cpfWeights(10)) == d[9] && checkDigit(d[:10], cpfWeights(11)) == d[10]
}

// ValidCNPJ reports whether s is a CNPJ written ##.###.###/####-## (upper
// case letters allowed in the first twelve positions) whose check digits
// are right.
func ValidCNPJ(s string) bool {
	if !cnpjMask.MatchString(s) {
		return false
	}
	d := Plain(s)
	if allSame(d) {
		return false
	}
	w1 := []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	w2 := []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	return checkDigit(d[:12], w1) == d[12] && checkDigit(d[:13], w2) == d[13]
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
