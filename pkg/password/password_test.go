package password_test

import (
	"strings"
	"testing"

	"github.com/ponto/ponto/pkg/password"
)

func TestCheckStrength(t *testing.T) {
	for p, ok := range map[string]bool{
		"Senha123":               true,
		"açaí2024x":              true,
		"curta1":                 false,
		"somenteletras":          false,
		"1234567890":             false,
		strings.Repeat("a1", 37): false, // 74 bytes, beyond bcrypt's limit
	} {
		if got := password.CheckStrength(p) == nil; got != ok {
			t.Errorf("CheckStrength(%q) ok = %v, want %v", p, got, ok)
		}
	}
}

func TestHashAndMatches(t *testing.T) {
	h, err := password.Hash("Senha123")
	if err != nil {
		t.Fatal(err)
	}
	if h == "Senha123" || !strings.HasPrefix(h, "$2a$") {
		t.Fatalf("not a bcrypt hash: %q", h)
	}
	if !password.Matches(h, "Senha123") {
		t.Fatal("right password refused")
	}
	if password.Matches(h, "Senha124") {
		t.Fatal("wrong password accepted")
	}
	if password.Matches("", "Senha123") {
		t.Fatal("unknown account accepted")
	}
	h2, _ := password.Hash("Senha123")
	if h2 == h {
		t.Fatal("hashes are not salted")
	}
}
