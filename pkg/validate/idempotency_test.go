package validate

import (
	"strings"
	"testing"
)

func TestIdempotencyKey(t *testing.T) {
	for _, k := range []string{"a", "3f2b9c1e-6d4a-4f9e-8b7a-0c1d2e3f4a5b", "!~", strings.Repeat("k", 255)} {
		if !IdempotencyKey(k) {
			t.Errorf("IdempotencyKey(%q) = false, want true", k)
		}
	}
	for _, k := range []string{"", " ", "a b", "tab\t", "ç", "\x7f", strings.Repeat("k", 256)} {
		if IdempotencyKey(k) {
			t.Errorf("IdempotencyKey(%q) = true, want false", k)
		}
	}
}
