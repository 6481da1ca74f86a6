package e2e

import (
	"testing"
	"time"
)

// TestWebQuiosque walks the shared kiosk through the web client in
// Debian's chromium (tools/webtest/quiosque.mjs): the employee's PIN, the
// company's kiosk and badge, and punches at the kiosk with CPF and PIN
// and with the badge, axe on every new page. As TestWebWorkday, a missing
// browser or package fails the test.
func TestWebQuiosque(t *testing.T) {
	w := needWebTools(t)
	e := sharedEnv(t)
	w.run(t, e, "quiosque", "kiosk", 4*time.Minute, "PONTO_CODES_URL="+e.serveCodes(t))
}
