package main

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/pkg/signature/devca"
)

// signedEnv is a test world whose timekeeping signs with a certificate of
// a development CA; ca is that CA's PEM file for the verifiers.
func signedEnv(t *testing.T) (e *env, ca string) {
	t.Helper()
	files, err := devca.EnsureFiles(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	signer, err := signature.Open(signature.Config{CertFile: files.Cert, PasswordFile: files.Password,
		ReloadInterval: time.Minute}, slog.Default(), clock.New(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	e = newEnv(t)
	e.tune = func(d *dependencies) { d.signer = signer }
	e.public = e.startTimekeeping(e.db)
	return e, files.CA
}

// verifyP7S runs `openssl cms -verify -cades` on content and its
// detached signature.
func verifyP7S(t *testing.T, ca string, content, p7s []byte) error {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, content, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file+".p7s", p7s, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("openssl", "cms", "-verify", "-cades", "-binary", "-inform", "DER",
		"-content", file, "-in", file+".p7s", "-CAfile", ca, "-out", os.DevNull).CombinedOutput()
	if err != nil {
		return &exec.ExitError{Stderr: out}
	}
	return nil
}

func unzip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestAFDZipHoldsTheFileAndAVerifyingCAdESSignature(t *testing.T) {
	t.Parallel()
	e, ca := signedEnv(t)
	c, _, _ := setUpAFDMonth(e)

	r := e.pub("GET", "/registropontos/afd?inicio=2024-03-01&fim=2024-03-31&formato=zip", c.token, nil)
	want(t, r, 200)
	if ct := r.header.Get("Content-Type"); ct != "application/zip" {
		t.Errorf("Content-Type %q", ct)
	}
	name := "AFD12345678901234567" + strings.NewReplacer(".", "", "/", "", "-", "").Replace(companyCNPJ(7)) + "REP_P.txt"
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="`+strings.TrimSuffix(name, ".txt")+`.zip"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	files := unzip(t, r.body)
	if len(files) != 2 || files[name] == nil || files[name+".p7s"] == nil {
		t.Fatalf("zip holds %v, want %s and its .p7s", keys(files), name)
	}
	golden, err := os.ReadFile("testdata/afd-2024-03.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files[name], golden) {
		t.Fatal("the zipped AFD differs from the text one")
	}
	if err := verifyP7S(t, ca, files[name], files[name+".p7s"]); err != nil {
		t.Fatalf("openssl refused the AFD's signature: %s", err.(*exec.ExitError).Stderr)
	}
	changed := bytes.Clone(files[name])
	changed[len(changed)/2] ^= 0x01
	if err := verifyP7S(t, ca, changed, files[name+".p7s"]); err == nil {
		t.Fatal("openssl accepted the signature over a changed AFD")
	}

	// The text stays as it was; any other format is refused.
	r = e.pub("GET", "/registropontos/afd?inicio=2024-03-01&fim=2024-03-31&formato=txt", c.token, nil)
	want(t, r, 200)
	if !bytes.Equal(r.body, golden) {
		t.Fatal("formato=txt changed")
	}
	wantErr(t, e.pub("GET", "/registropontos/afd?formato=pdf", c.token, nil), 400, "validacao")
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestAFDZipWithoutCertificateIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(3)
	wantErr(t, e.pub("GET", "/registropontos/afd?formato=zip", c.token, nil), 409, "sem_certificado")
	wantErr(t, e.pub("GET", "/registropontos/afd?formato=ZIP", c.token, nil), 400, "validacao")
	want(t, e.pub("GET", "/registropontos/afd", c.token, nil), 200)
}

// TestStartupFailsOnAWrongCertificatePassword runs main's run as the
// binary would: the error names the variable and nothing panics.
func TestStartupFailsOnAWrongCertificatePassword(t *testing.T) {
	files, err := devca.EnsureFiles(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wrong := filepath.Join(t.TempDir(), "senha")
	if err := os.WriteFile(wrong, []byte("errada\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	saved := os.Args
	t.Cleanup(func() { os.Args = saved })
	os.Args = []string{name}
	t.Setenv("SIGNING_CERT_FILE", files.Cert)
	t.Setenv("SIGNING_CERT_PASSWORD_FILE", wrong)
	t.Setenv("DB_URL", "postgres://postgres@127.0.0.1:1/nada")
	level := new(slog.LevelVar)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = run(ctx, logging.New(name, io.Discard, level), level)
	if err == nil || !strings.Contains(err.Error(), "SIGNING_CERT_PASSWORD_FILE") ||
		!strings.Contains(err.Error(), "wrong PKCS#12 password") {
		t.Fatalf("start-up with a wrong password: %v", err)
	}
}

// pdfsig runs poppler's verifier on a PDF answer and returns its report.
func pdfsig(t *testing.T, body []byte) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("pdfsig", file).CombinedOutput() // non-zero on an invalid signature
	return string(out)
}

// containsSignature tells whether a pdfsig report lists a signature.
func containsSignature(report string) bool { return strings.Contains(report, "Signature #1") }

// wantSigned checks that pdfsig finds one valid PAdES signature over the
// whole PDF by the development certificate.
func wantSigned(t *testing.T, body []byte) {
	t.Helper()
	report := pdfsig(t, body)
	for _, want := range []string{"Signature #1", "Signature is Valid", "Total document signed",
		"CN=PONTO DESENVOLVIMENTO LTDA:11222333000181", "ETSI.CAdES.detached"} {
		if !strings.Contains(report, want) {
			t.Fatalf("pdfsig report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "Signature #2") {
		t.Fatalf("more than one signature:\n%s", report)
	}
}

func TestReceiptAndTimesheetAreSignedPDFs(t *testing.T) {
	t.Parallel()
	e, _ := signedEnv(t)
	c := e.company(7)
	jose := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "José Assinado"})
	p := e.punch(jose, at(2024, 3, 4, 8, 1, 42))
	e.clock.Set(at(2024, 3, 20, 12, 0, 0))

	r := e.pub("GET", path("/registropontos/%d/comprovante", id(p)), jose.token, nil)
	want(t, r, 200)
	wantSigned(t, r.body)
	wantText(t, pdfText(t, r), "José Assinado", p["hash"].(string),
		"Documento assinado digitalmente (PAdES) com o certificado de PONTO DESENVOLVIMENTO LTDA:11222333000181.")

	r = e.pub("GET", path("/registropontos/funcionario/%d/espelho?mes=2024-03&formato=pdf", jose.id), c.token, nil)
	want(t, r, 200)
	wantSigned(t, r.body)
	wantText(t, pdfText(t, r), "Espelho de Ponto", "José Assinado", "Documento assinado digitalmente (PAdES)")

	// assinar=false: a quicker copy without the signature, saying so.
	r = e.pub("GET", path("/registropontos/%d/comprovante?assinar=false", id(p)), jose.token, nil)
	want(t, r, 200)
	if report := pdfsig(t, r.body); strings.Contains(report, "Signature #1") {
		t.Fatalf("assinar=false signed:\n%s", report)
	}
	wantText(t, pdfText(t, r), "Documento sem assinatura digital: via sem assinatura digital, pedida assim (assinar=false).")
	wantErr(t, e.pub("GET", path("/registropontos/%d/comprovante?assinar=talvez", id(p)), jose.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/espelho?formato=pdf&assinar=1", jose.id), c.token, nil),
		400, "validacao")
}

func TestWithoutCertificateThePDFsSayTheyAreUnsigned(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(7)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	p := e.punch(w, at(2024, 3, 4, 8, 1, 42))
	e.clock.Set(at(2024, 3, 20, 12, 0, 0))
	for _, url := range []string{path("/registropontos/%d/comprovante", id(p)),
		path("/registropontos/funcionario/%d/espelho?mes=2024-03&formato=pdf", w.id)} {
		r := e.pub("GET", url, c.token, nil)
		want(t, r, 200)
		if report := pdfsig(t, r.body); strings.Contains(report, "Signature #1") {
			t.Fatalf("%s signed without a certificate:\n%s", url, report)
		}
		wantText(t, pdfText(t, r), "Documento sem assinatura digital: nenhum certificado de assinatura está configurado.")
	}
}

func TestAEJZipHoldsTheFileAndAVerifyingCAdESSignature(t *testing.T) {
	t.Parallel()
	e, ca := signedEnv(t)
	c := setUpAEJMonth(e)

	r := e.pub("GET", "/registropontos/aej?inicio=2024-03-01&fim=2024-03-31&formato=zip", c.token, nil)
	want(t, r, 200)
	name := "AEJ" + strings.NewReplacer(".", "", "/", "", "-", "").Replace(companyCNPJ(7)) + "_20240301_20240331.txt"
	if ct, cd := r.header.Get("Content-Type"), r.header.Get("Content-Disposition"); ct != "application/zip" ||
		cd != `attachment; filename="`+strings.TrimSuffix(name, ".txt")+`.zip"` {
		t.Errorf("Content-Type %q, Content-Disposition %q", ct, cd)
	}
	files := unzip(t, r.body)
	golden, err := os.ReadFile("testdata/aej-2024-03.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || !bytes.Equal(files[name], golden) {
		t.Fatalf("zip holds %v, want %s (the golden AEJ) and its .p7s", keys(files), name)
	}
	if err := verifyP7S(t, ca, files[name], files[name+".p7s"]); err != nil {
		t.Fatalf("openssl refused the AEJ's signature: %s", err.(*exec.ExitError).Stderr)
	}
	changed := bytes.Clone(files[name])
	changed[len(changed)/2] ^= 0x01
	if err := verifyP7S(t, ca, changed, files[name+".p7s"]); err == nil {
		t.Fatal("openssl accepted the signature over a changed AEJ")
	}
}
