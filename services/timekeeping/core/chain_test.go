package core

import (
	"testing"
	"time"
)

// The expected values were computed outside Go, from the layout in the
// package comment:
//
//	printf '%s' "$prefix1" | sha256sum
//	printf '%s%s' "$prefix2" "$hash1" | sha256sum
func TestPrefixAndChainedHash(t *testing.T) {
	first := Marcacao{NSR: 1, Horario: time.Date(2024, 3, 4, 11, 1, 2, 345e6, time.UTC), OffsetMinutes: -180,
		CPF: "123.456.789-09", Coletor: ColetorMobile}
	second := Marcacao{NSR: 2, Horario: time.Date(2024, 3, 5, 2, 59, 59, 999e6, time.UTC), OffsetMinutes: -180,
		CPF: "12345678909", Coletor: ColetorBrowser}

	// Anexo V item 6: every DH field, the recording time included, ends
	// in ":00" and the offset.
	p, err := Prefix7(first)
	if want := "0000000017" + "2024-03-04T08:01:00-0300" + "012345678909" + "2024-03-04T08:01:00-0300" + "01" + "0"; err != nil || p != want {
		t.Fatalf("Prefix7 = %q, %v; want %q", p, err, want)
	}
	// 02:59:59.999 UTC is still the 4th in São Paulo.
	p, _ = Prefix7(second)
	if want := "0000000027" + "2024-03-04T23:59:00-0300" + "012345678909" + "2024-03-04T23:59:00-0300" + "02" + "0"; p != want {
		t.Fatalf("Prefix7 = %q, want %q", p, want)
	}
	for _, c := range []struct {
		versao int
		h1, h2 string
	}{
		// Version 2 (the current one) hashes the printed prefixes.
		{HashV2, "1fcb470105eec510ff9701293377d3a8d8be99db6ae24ec07a4fc9c504b32bc2",
			"f293d2caf086813ba6fc96d34ce8681d91b61e4ccc2847ca66729db00bb90cc9"},
		{0, "1fcb470105eec510ff9701293377d3a8d8be99db6ae24ec07a4fc9c504b32bc2",
			"f293d2caf086813ba6fc96d34ce8681d91b61e4ccc2847ca66729db00bb90cc9"},
		// Version 1 kept the recording seconds (08:01:02, 23:59:59).
		{HashV1, "3a0ea3b555dd0fc00b84d2d3d3e6eb42bcf0b3a2f39c27fe443775d975741452",
			"544611a75ab756a0d449f546c8f0c2f2b2c8fc799ed5e327e9632d6133032351"},
	} {
		first.Versao, second.Versao = c.versao, c.versao
		h1, err := Hash(first, "")
		if err != nil || h1 != c.h1 {
			t.Fatalf("version %d: hash 1 = %s, %v", c.versao, h1, err)
		}
		h2, err := Hash(second, h1)
		if err != nil || h2 != c.h2 {
			t.Fatalf("version %d: hash 2 = %s, %v", c.versao, h2, err)
		}
		if err := VerifyMarcacao(second, h1, h2); err != nil {
			t.Fatal(err)
		}
		if err := VerifyMarcacao(second, h1, c.h1); err == nil {
			t.Fatalf("version %d: a wrong hash verified", c.versao)
		}
	}
	if _, err := Hash(Marcacao{NSR: 1, Horario: first.Horario, CPF: first.CPF, Coletor: "01", Versao: 3}, ""); err == nil {
		t.Fatal("an unknown hash version was accepted")
	}
}

func TestPrefixRefusesWhatDoesNotFit(t *testing.T) {
	ok := Marcacao{NSR: 1, Horario: time.Now(), CPF: "12345678909", Coletor: ColetorMobile}
	for name, m := range map[string]Marcacao{
		"NSR 0":            {NSR: 0, Horario: ok.Horario, CPF: ok.CPF, Coletor: ok.Coletor},
		"NSR of 10 digits": {NSR: 1_000_000_000, Horario: ok.Horario, CPF: ok.CPF, Coletor: ok.Coletor},
		"no CPF":           {NSR: 1, Horario: ok.Horario, CPF: "---", Coletor: ok.Coletor},
		"CPF of 13":        {NSR: 1, Horario: ok.Horario, CPF: "1234567890123", Coletor: ok.Coletor},
		"collector":        {NSR: 1, Horario: ok.Horario, CPF: ok.CPF, Coletor: "1"},
	} {
		if _, err := Prefix7(m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Prefix7(ok); err != nil {
		t.Fatal(err)
	}
	if got := CPF12("123.456.789-09"); got != "012345678909" {
		t.Fatalf("CPF12 = %q", got)
	}
}
