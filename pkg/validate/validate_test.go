package validate_test

import (
	"testing"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/validate"
)

func TestErrorsCollectFirstProblemPerField(t *testing.T) {
	v := validate.Errors{}
	v.Required("", "nome")
	v.Length("", "nome", 1, 10) // second problem of the same field: ignored
	v.Length("abcdef", "cargo", 1, 3)
	v.Check(true, "email", "never")
	err := v.Err()
	e, ok := apierr.As(err)
	if !ok || e.Status != 400 || e.Code != "validacao" {
		t.Fatalf("want a 400 validation error, got %v", err)
	}
	if e.Fields["nome"] != "campo obrigatório" || e.Fields["cargo"] != "deve ter entre 1 e 3 caracteres" || len(e.Fields) != 2 {
		t.Fatalf("fields = %v", e.Fields)
	}
	if (validate.Errors{}).Err() != nil {
		t.Fatal("no errors must give a nil error")
	}
}

func TestEmail(t *testing.T) {
	for s, want := range map[string]bool{
		"rh@empresa.com.br":           true,
		"a.b+c@x.io":                  true,
		"Fulano <fulano@empresa.com>": false,
		"sem-arroba.com":              false,
		"a@localhost":                 false,
		" a@b.com":                    false,
		"a@b.com.":                    false,
		"":                            false,
	} {
		if got := validate.Email(s); got != want {
			t.Errorf("Email(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestDates(t *testing.T) {
	for s, want := range map[string]bool{
		"29/02/2024": true, "29/02/2023": false, "31/04/2024": false,
		"1/2/2024": false, "2024-02-01": false, "01/13/2024": false, "15/08/1990": true,
	} {
		if _, got := validate.DateBR(s); got != want {
			t.Errorf("DateBR(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{"2024-02-29": true, "2023-02-29": false, "2024-2-1": false, "01/02/2024": false} {
		if _, got := validate.DateISO(s); got != want {
			t.Errorf("DateISO(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestClockTime(t *testing.T) {
	for s, want := range map[string]int{"00:00": 0, "08:30": 510, "23:59": 1439} {
		if got, ok := validate.ClockTime(s); !ok || got != want {
			t.Errorf("ClockTime(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"24:00", "8:30", "08:60", "0830", ""} {
		if _, ok := validate.ClockTime(s); ok {
			t.Errorf("ClockTime(%q) accepted", s)
		}
	}
}

func TestDigits(t *testing.T) {
	if !validate.Digits("11987654321", 10, 11) || validate.Digits("(11) 98765", 1, 20) || validate.Digits("123", 4, 5) {
		t.Fatal("Digits misjudged")
	}
}

func TestTimeZone(t *testing.T) {
	for s, want := range map[string]bool{
		"America/Sao_Paulo":              true,
		"America/Manaus":                 true,
		"America/Rio_Branco":             true,
		"America/Noronha":                true,
		"America/Argentina/Buenos_Aires": true,
		"Etc/GMT+3":                      true,
		"UTC":                            true,
		"":                               false,
		"Local":                          false,
		"EST":                            false,
		"utc":                            false,
		"America/Atlantida":              false,
		"America/sao_paulo":              false,
		"America/../etc/passwd":          false,
		"/etc/localtime":                 false,
		"America/":                       false,
		"America//Manaus":                false,
		" America/Manaus":                false,
		"America/Manaus\n":               false,
		"-03:00":                         false,
		"right/America/Sao_Paulo":        false, // the host's leap-second tzdata
		"posix/America/Sao_Paulo":        false,
		"Brazil/East":                    false, // a legacy link
	} {
		if got := validate.TimeZone(s); got != want {
			t.Errorf("TimeZone(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestRequiredEmail(t *testing.T) {
	v := validate.Errors{}
	v.RequiredEmail("", "vazio")
	v.RequiredEmail("ana@", "ruim")
	v.RequiredEmail("ana@ponto.com.br", "bom")
	want := map[string]string{"vazio": "campo obrigatório", "ruim": "e-mail inválido"}
	if len(v) != len(want) || v["vazio"] != want["vazio"] || v["ruim"] != want["ruim"] {
		t.Errorf("errors = %v, want %v", v, want)
	}
}
