package e2e

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkSigned checks the signed outputs through the gateway with the
// verifiers of the issue, against the development CA the stack made: the
// AFD zip's .p7s with `openssl cms -verify -cades` (and not once a byte of
// the AFD changes), the receipt's PAdES signature with pdfsig, and the
// receipt's public check without a token.
func checkSigned(t *testing.T, e *env, c *company, punch obj, receipt []byte) {
	t.Helper()
	ca := filepath.Join(e.stack.Options().DataDir, "signing", "ca.pem")
	a := e.api.do(t, request{Method: http.MethodGet, Path: "/registropontos/afd?formato=zip", Token: c.Token,
		CheckRequest: true}).expect(t, http.StatusOK)
	if ct := a.Header.Get("Content-Type"); ct != "application/zip" {
		t.Fatalf("AFD zip: Content-Type %q", ct)
	}
	zr, err := zip.NewReader(bytes.NewReader(a.Body), int64(len(a.Body)))
	if err != nil || len(zr.File) != 2 || zr.File[1].Name != zr.File[0].Name+".p7s" ||
		!strings.HasPrefix(zr.File[0].Name, "AFD") {
		t.Fatalf("AFD zip: %v, %d entries", err, len(zr.File))
	}
	dir := t.TempDir()
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || os.WriteFile(filepath.Join(dir, f.Name), b, 0o600) != nil {
			t.Fatal(err)
		}
	}
	afd := filepath.Join(dir, zr.File[0].Name)
	verify := func() ([]byte, error) {
		return exec.Command("openssl", "cms", "-verify", "-cades", "-binary", "-inform", "DER", "-content", afd,
			"-in", afd+".p7s", "-CAfile", ca, "-out", os.DevNull).CombinedOutput()
	}
	if out, err := verify(); err != nil {
		t.Fatalf("openssl refused the AFD's signature: %s", out)
	}
	b, _ := os.ReadFile(afd)
	b[len(b)/2] ^= 1
	if err := os.WriteFile(afd, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := verify(); err == nil {
		t.Fatal("openssl accepted the signature of a changed AFD")
	}

	pdf := filepath.Join(dir, "comprovante.pdf")
	if err := os.WriteFile(pdf, receipt, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("pdfsig", pdf).CombinedOutput()
	if !strings.Contains(string(out), "Signature is Valid") || !strings.Contains(string(out), "PONTO DESENVOLVIMENTO LTDA") {
		t.Fatalf("pdfsig on the receipt:\n%s", out)
	}

	v := e.api.do(t, request{Method: http.MethodGet, Path: "/verificacao/" + punch.str("hash"), CheckRequest: true}).
		expect(t, http.StatusOK).object(t)
	if v["existe"] != true || v["cadeiaVerificada"] != true || v.str("cnpjEmpregador") != c.Saved.str("cnpj") {
		t.Fatalf("public check: %v", v)
	}
}
