package registro

import (
	"strings"
	"testing"
)

func TestLocalizacao(t *testing.T) {
	for in, want := range map[string]string{
		"-23.5505200, -46.6333090": "-23.55052, -46.633309",
		"-23.55052,-46.633309":     "-23.55052, -46.633309",
		"  90 ,  -180  ":           "90, -180",
		"-0.000, 0":                "0, 0",
		"0.1234567891, 1":          "0.1234567891, 1",
	} {
		if got, ok := Localizacao(in); !ok || got != want {
			t.Errorf("Localizacao(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "1", "1,", ", 1", "1; 2", "1 2", "90.01, 0", "-91, 0", "0, 180.0001",
		"0, -181", "1e2, 3", "0x1, 2", "Inf, 1", "+1, 2", "1.2.3, 4", "1, 2, 3", "0.12345678901, 1", "1000, 1",
		strings.Repeat("9", 4) + ", 1"} {
		if got, ok := Localizacao(in); ok {
			t.Errorf("Localizacao(%q) accepted as %q", in, got)
		}
	}
}

func TestIdempotencyKey(t *testing.T) {
	if k, err := IdempotencyKey(""); k != nil || err != nil {
		t.Fatalf("no key: %v %v", k, err)
	}
	if k, err := IdempotencyKey("3f2b9c1e-6d4a-4f9e-8b7a-0c1d2e3f4a5b"); err != nil || *k != "3f2b9c1e-6d4a-4f9e-8b7a-0c1d2e3f4a5b" {
		t.Fatalf("uuid key: %v %v", k, err)
	}
	for _, bad := range []string{strings.Repeat("a", 256), "com espaço", "acentuação", "tab\there"} {
		if _, err := IdempotencyKey(bad); err == nil {
			t.Errorf("IdempotencyKey(%q) accepted", bad)
		}
	}
}
