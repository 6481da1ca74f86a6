package core

import "testing"

// Anexo V, type 7, field 6: each kind of kiosk gets its own code.
func TestColetorDoQuiosque(t *testing.T) {
	for kind, want := range map[string]string{"aplicativo_movel": "01", "navegador": "02",
		"aplicativo_desktop": "03", "dispositivo_eletronico": "04", "outro": "05"} {
		if got, ok := ColetorDoQuiosque(kind); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", kind, got, ok, want)
		}
	}
	for _, bad := range []string{"", "tablet", "04"} {
		if _, ok := ColetorDoQuiosque(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}
