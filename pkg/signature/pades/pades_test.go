package pades_test

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/pkg/signature/devca"
	"github.com/ponto/ponto/pkg/signature/pades"
)

// signer is a development CA's certificate; caFile its CA in PEM.
func signer(t *testing.T) (s *signature.Signer, caFile string) {
	t.Helper()
	files, err := devca.EnsureFiles(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err = signature.Open(signature.Config{CertFile: files.Cert, PasswordFile: files.Password, ReloadInterval: time.Minute},
		slog.Default(), clock.New(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	return s, files.CA
}

// pdfcpuValidate runs pdfcpu's signature validation (as `pdfcpu
// signatures validate` does) trusting only the CA in caFile, with
// pdfcpu's own configuration directory off.
func pdfcpuValidate(t *testing.T, pdf []byte, caFile string) *model.SignatureValidationResult {
	t.Helper()
	ca, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	store := t.TempDir()
	if err := os.WriteFile(filepath.Join(store, "ca.pem"), ca, 0o600); err != nil {
		t.Fatal(err)
	}
	model.ConfigPath, model.TrustedCertDir = "disable", store
	res, err := api.ValidateSignaturesRaw(bytes.NewReader(pdf), true, nil)
	if err != nil || len(res) != 1 {
		t.Fatalf("pdfcpu: %d results, %v", len(res), err)
	}
	return res[0]
}

// pdfsig runs poppler's verifier on pdf and returns its report.
func pdfsig(t *testing.T, pdf []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("pdfsig", path).CombinedOutput() // non-zero on an invalid signature
	return string(out)
}

func TestSignedPDFIsValidForPdfsigAndBreaksOnAnyChange(t *testing.T) {
	original, err := os.ReadFile("testdata/fpdf.pdf") // written by go-pdf/fpdf
	if err != nil {
		t.Fatal(err)
	}
	s, ca := signer(t)
	signed, err := pades.Sign(original, s.SignDetached, pades.Info{Name: "PONTO DESENVOLVIMENTO LTDA",
		Reason: "Comprovante de registro de ponto (Portaria 671)", Location: "São Paulo", Time: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(signed, original) {
		t.Fatal("the original bytes changed: not an incremental update")
	}
	report := pdfsig(t, signed)
	for _, want := range []string{"Signature #1", "Signature is Valid", "PONTO DESENVOLVIMENTO LTDA:11222333000181",
		"ETSI.CAdES.detached", "Signed Ranges: [0 - "} {
		if !strings.Contains(report, want) {
			t.Errorf("pdfsig report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "not total document") {
		t.Errorf("the signature does not cover the whole file:\n%s", report)
	}

	// pdfcpu agrees: the document is intact and signed by the
	// certificate; with no CRL or OCSP in a development CA, revocation is
	// the only thing it cannot tell.
	r := pdfcpuValidate(t, signed, ca)
	if r.Details.SignerIdentity != "PONTO DESENVOLVIMENTO LTDA:11222333000181" || r.Details.SubFilter != "ETSI.CAdES.detached" ||
		!(r.Status == model.SignatureStatusValid ||
			r.Status == model.SignatureStatusUnknown && r.Reason == model.SignatureReasonCertRevocationUnknown) {
		t.Errorf("pdfcpu: %v, %v, signer %q", r.Status, r.Reason, r.Details.SignerIdentity)
	}

	// A byte changed in the original part, then one in the update.
	for _, at := range []int{len(original) / 2, len(signed) - 10} {
		tampered := bytes.Clone(signed)
		tampered[at] ^= 0x01
		if r := pdfsig(t, tampered); strings.Contains(r, "Signature is Valid") {
			t.Errorf("byte %d changed and pdfsig still says valid:\n%s", at, r)
		}
	}
	tampered := bytes.Clone(signed)
	tampered[len(original)/2] ^= 0x01
	if r := pdfcpuValidate(t, tampered, ca); r.Status != model.SignatureStatusInvalid {
		t.Errorf("pdfcpu on a changed document: %v, %v", r.Status, r.Reason)
	}

	// Signed again: the form now exists, which this package does not edit.
	if _, err := pades.Sign(signed, s.SignDetached, pades.Info{Time: time.Now()}); !errors.Is(err, pades.ErrUnsupported) {
		t.Fatalf("second signature: %v", err)
	}
}

func TestRefusesWhatItCannotEdit(t *testing.T) {
	s, _ := signer(t)
	for name, pdf := range map[string][]byte{
		"not a PDF":     []byte("hello"),
		"xref stream":   []byte("%PDF-1.5\n1 0 obj\n<</Type /XRef>>\nstream\nendstream\nendobj\nstartxref\n9\n%%EOF\n"),
		"bad startxref": []byte("%PDF-1.3\nstartxref\n999999\n%%EOF\n"),
	} {
		if _, err := pades.Sign(pdf, s.SignDetached, pades.Info{Time: time.Now()}); !errors.Is(err, pades.ErrUnsupported) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
