package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ponto/ponto/pkg/config"
	"github.com/ponto/ponto/pkg/password"
)

func TestHashPasswordPrintsABcryptHashAuthAccepts(t *testing.T) {
	var out bytes.Buffer
	if err := hashPassword(strings.NewReader("admin-senha-123\n"), &out); err != nil {
		t.Fatal(err)
	}
	h := strings.TrimSuffix(out.String(), "\n")
	if strings.Contains(h, "\n") || !password.Matches(h, "admin-senha-123") || password.Matches(h, "outra-senha-123") {
		t.Fatalf("hash %q does not verify the password alone", out.String())
	}
	// The hash is what AUTH_ADMINS takes: the configuration accepts it.
	t.Setenv("AUTH_ADMINS", "ops@ponto.dev:"+h)
	t.Setenv("AUTH_CODE_SECRET", "test-code-secret-of-at-least-32-bytes!!")
	var cfg Config
	if _, err := config.Parse(&cfg); err != nil {
		t.Fatalf("AUTH_ADMINS with the printed hash refused: %v", err)
	}
}

func TestHashPasswordRefusesEmptyAndWeak(t *testing.T) {
	for _, in := range []string{"", "\n", "123\n"} {
		var out bytes.Buffer
		if err := hashPassword(strings.NewReader(in), &out); err == nil || out.Len() != 0 {
			t.Errorf("%q: err %v, printed %q", in, err, out.String())
		}
	}
}
