package core

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The AFD's byte-level conventions (docs/compliance.md, "Convenções do
// AFD"), as a vector an integrator can reproduce. The expected values
// were computed apart from this code, with Python's hashlib and a
// bit-by-bit CRC-16/KERMIT (poly 0x1021 reflected = 0x8408, init 0, no
// final XOR; "123456789" gives 2189):
//
//	import hashlib
//	p1 = "000000001" "7" "2024-03-04T08:00:00-0300" "012345678909" "2024-03-04T08:00:00-0300" "01" "0"
//	h1 = hashlib.sha256(p1.encode()).hexdigest()         # first link: nothing appended
//	p2 = "000000002" "7" "2024-03-04T12:00:00-0300" "012345678909" "2024-03-04T12:00:00-0300" "02" "0"
//	h2 = hashlib.sha256((p2 + h1).encode()).hexdigest()  # previous hash in lower case
//
// The type-5 record's CRC-16/ARC (the variant one third-party validator
// expects) would be 1B26; KERMIT gives B0F9.
func TestConvencoesDoAFD(t *testing.T) {
	brt := -180
	cpf := "123.456.789-09"
	m1 := Marcacao{NSR: 1, Horario: time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC), OffsetMinutes: brt, CPF: cpf, Coletor: ColetorMobile}
	m2 := Marcacao{NSR: 2, Horario: time.Date(2024, 3, 4, 15, 0, 0, 0, time.UTC), OffsetMinutes: brt, CPF: cpf, Coletor: ColetorBrowser}
	p1, err := Prefix7(m1)
	if err != nil {
		t.Fatal(err)
	}
	h1, err := Hash(m1, "")
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := Prefix7(m2)
	h2, err := Hash(m2, h1)
	if err != nil {
		t.Fatal(err)
	}
	r5, err := Linha5(Empregado{NSR: 3, Gravacao: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC), OffsetMinutes: brt,
		Operacao: "I", CPF: cpf, Nome: "MARIA DA SILVA"})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{p1, h1, p2, h2, r5}
	want := []string{
		"00000000172024-03-04T08:00:00-03000123456789092024-03-04T08:00:00-0300010",
		"4a012667f8ccfcf8eaf0c17a6536555fbf1c4306eb653da396a64869171ddaa3",
		"00000000272024-03-04T12:00:00-03000123456789092024-03-04T12:00:00-0300020",
		"4caf7b3e5650d60104e8a03968e65dcd47946ff272e5bceb0337d80fa4869ddb",
		"00000000352024-03-01T09:00:00-0300I012345678909MARIA DA SILVA" +
			"                                          00000000000B0F9",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("AFD conventions (-want +got):\n%s", diff)
	}
	if len(p1) != Prefix7Len || len(r5) != Len5 {
		t.Fatalf("lengths %d, %d", len(p1), len(r5))
	}
}

// Anexo V item 19.3: the file name carries the INPI number as the header
// does (17 digits; all zeros when not configured).
func TestNomeArquivoAgreesWithTheHeader(t *testing.T) {
	for _, c := range []struct{ inpi, want string }{
		{"12345678901234567", "AFD1234567890123456711222333000181REP_P.txt"},
		{"", "AFD0000000000000000011222333000181REP_P.txt"},
		{"BR 5120", "AFD00000000000BR512011222333000181REP_P.txt"},
	} {
		if got := NomeArquivo(REP{INPI: c.inpi}, "11.222.333/0001-81"); got != c.want {
			t.Errorf("INPI %q: %s, want %s", c.inpi, got, c.want)
		}
		h, err := Linha1(Cabecalho{Empregador: "11.222.333/0001-81", RazaoSocial: "X", REP: REP{INPI: c.inpi},
			Inicio: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Fim: time.Date(2024, 3, 31, 0, 0, 0, 0, time.UTC),
			Geracao: time.Date(2024, 4, 1, 12, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		if inpi := c.want[3:20]; !strings.Contains(h, inpi) {
			t.Errorf("header %q does not carry %s", h, inpi)
		}
	}
}
