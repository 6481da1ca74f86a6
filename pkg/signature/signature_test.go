package signature_test

import (
	"bytes"
	"context"
	"crypto/x509/pkix"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smallstep/pkcs7"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/pkg/signature/devca"
)

// fixture is a test CA and the files of one certificate it issued.
type fixture struct {
	ca                     *devca.CA
	dir, caFile, p12, pass string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ca, err := devca.New("AC de teste")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := &fixture{ca: ca, dir: dir, caFile: filepath.Join(dir, "ca.pem"), p12: filepath.Join(dir, "cert.p12"),
		pass: filepath.Join(dir, "senha")}
	write(t, f.caFile, ca.PEM())
	f.issue(t, "EMPRESA TESTE LTDA:11222333000181", time.Now().Add(-time.Hour), time.Now().AddDate(0, 6, 0), "s3nha")
	return f
}

// issue writes a new certificate for cn and its password to the files.
func (f *fixture) issue(t *testing.T, cn string, notBefore, notAfter time.Time, password string) *devca.Leaf {
	t.Helper()
	leaf, err := f.ca.Issue(pkix.Name{CommonName: cn, Country: []string{"BR"}}, notBefore, notAfter)
	if err != nil {
		t.Fatal(err)
	}
	p12, err := f.ca.PKCS12(leaf, password)
	if err != nil {
		t.Fatal(err)
	}
	write(t, f.p12, p12)
	write(t, f.pass, []byte(password+"\n"))
	return leaf
}

func (f *fixture) config() signature.Config {
	return signature.Config{CertFile: f.p12, PasswordFile: f.pass, ReloadInterval: 10 * time.Millisecond}
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// opensslVerify runs the verifier of the issue on content and its .p7s.
func opensslVerify(t *testing.T, caFile string, content, p7s []byte) error {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "f"), content)
	write(t, filepath.Join(dir, "f.p7s"), p7s)
	out, err := exec.Command("openssl", "cms", "-verify", "-cades", "-binary", "-inform", "DER",
		"-content", filepath.Join(dir, "f"), "-in", filepath.Join(dir, "f.p7s"), "-CAfile", caFile,
		"-out", os.DevNull).CombinedOutput()
	if err != nil {
		return errors.New(string(out))
	}
	return nil
}

func TestCAdESVerifiesWithOpenSSLAndBreaksOnAnyChange(t *testing.T) {
	f := newFixture(t)
	s, err := signature.Open(f.config(), slog.Default(), clock.New(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("0000000001ARQUIVO DE TESTE\r\n0000000027...\r\n")
	p7s, err := s.SignDetached(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := opensslVerify(t, f.caFile, data, p7s); err != nil {
		t.Fatalf("openssl refused the signature: %s", err)
	}
	changed := bytes.Clone(data)
	changed[3] ^= 1
	if err := opensslVerify(t, f.caFile, changed, p7s); err == nil {
		t.Fatal("openssl accepted a changed file")
	}
	// The signed attributes are the four CAdES-BES asks for.
	p7, err := pkcs7.Parse(p7s)
	if err != nil {
		t.Fatal(err)
	}
	var st time.Time
	if err := p7.UnmarshalSignedAttribute(pkcs7.OIDAttributeSigningTime, &st); err != nil || time.Since(st) > time.Minute {
		t.Fatalf("signing-time %v %v", st, err)
	}
	out, err := exec.Command("openssl", "cms", "-cmsout", "-print", "-inform", "DER", "-in", write2(t, p7s)).CombinedOutput()
	if err != nil {
		t.Fatal(string(out))
	}
	for _, want := range []string{"contentType", "messageDigest", "signingTime", "id-smime-aa-signingCertificateV2", "sha256"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("CMS lacks %s:\n%s", want, out)
		}
	}
}

func write2(t *testing.T, b []byte) string {
	p := filepath.Join(t.TempDir(), "x.p7s")
	write(t, p, b)
	return p
}

func TestOpenRefusesWhatCannotSign(t *testing.T) {
	f := newFixture(t)
	now := time.Now()

	write(t, f.pass, []byte("errada\n"))
	_, err := signature.Open(f.config(), slog.Default(), clock.New(time.Now))
	if err == nil || !errors.Is(err, signature.ErrPassword) || !strings.Contains(err.Error(), "SIGNING_CERT_PASSWORD_FILE") {
		t.Fatalf("wrong password: %v", err)
	}

	f.issue(t, "VENCIDO", now.AddDate(-1, 0, 0), now.Add(-time.Hour), "x")
	_, err = signature.Open(f.config(), slog.Default(), clock.New(time.Now))
	if !errors.Is(err, signature.ErrExpired) || !strings.HasPrefix(err.Error(), "SIGNING_CERT_FILE") {
		t.Fatalf("expired: %v", err)
	}

	// A PKCS#12 pairing a certificate with another certificate's key.
	a := f.issue(t, "A", now.Add(-time.Hour), now.AddDate(1, 0, 0), "x")
	b := f.issue(t, "B", now.Add(-time.Hour), now.AddDate(1, 0, 0), "x")
	mixed, err := f.ca.PKCS12(&devca.Leaf{Cert: a.Cert, Key: b.Key}, "x")
	if err != nil {
		t.Fatal(err)
	}
	write(t, f.p12, mixed)
	_, err = signature.Open(f.config(), slog.Default(), clock.New(time.Now))
	if !errors.Is(err, signature.ErrKey) || !strings.HasPrefix(err.Error(), "SIGNING_CERT_FILE") {
		t.Fatalf("key mismatch: %v", err)
	}

	write(t, f.p12, []byte("not a pkcs12"))
	if _, err = signature.Open(f.config(), slog.Default(), clock.New(time.Now)); err == nil || !strings.HasPrefix(err.Error(), "SIGNING_CERT_FILE") {
		t.Fatalf("garbage: %v", err)
	}
	os.Remove(f.p12)
	if _, err = signature.Open(f.config(), slog.Default(), clock.New(time.Now)); err == nil || !strings.HasPrefix(err.Error(), "SIGNING_CERT_FILE") {
		t.Fatalf("missing file: %v", err)
	}
}

// TestReloadFollowsASecretVolumeUpdate swaps the files the way the
// kubelet updates a Secret volume (a new timestamped directory, then the
// ..data symbolic link renamed over) and expects the next signature to
// come from the new certificate; a bad file in between is refused and
// the current certificate kept.
func TestReloadFollowsASecretVolumeUpdate(t *testing.T) {
	f := newFixture(t)
	vol := t.TempDir()
	publish := func(version string) {
		t.Helper()
		dir := filepath.Join(vol, version)
		os.Mkdir(dir, 0o700)
		for name, src := range map[string]string{"certificado.p12": f.p12, "senha": f.pass} {
			b, _ := os.ReadFile(src)
			write(t, filepath.Join(dir, name), b)
		}
		tmp := filepath.Join(vol, "..data_tmp")
		if err := os.Symlink(version, tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(vol, "..data")); err != nil {
			t.Fatal(err)
		}
	}
	publish("v1")
	for _, name := range []string{"certificado.p12", "senha"} {
		if err := os.Symlink(filepath.Join("..data", name), filepath.Join(vol, name)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := signature.Config{CertFile: filepath.Join(vol, "certificado.p12"), PasswordFile: filepath.Join(vol, "senha"),
		ReloadInterval: 10 * time.Millisecond}
	logs := &logtest.Buffer{}
	s, err := signature.Open(cfg, slog.New(slog.NewTextHandler(logs, nil)), clock.New(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	first := s.Certificate().Leaf
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go s.Watch(ctx)

	// A renewal whose password file is not yet right: refused, kept.
	f.issue(t, "RENOVADO", time.Now().Add(-time.Hour), time.Now().AddDate(1, 0, 0), "nova")
	good, _ := os.ReadFile(f.pass)
	write(t, f.pass, []byte("velha\n"))
	publish("v2")
	waitFor(t, func() bool { return strings.Contains(logs.String(), "not reloaded") })
	if s.Certificate().Leaf != first {
		t.Fatal("a certificate that does not open replaced the current one")
	}

	write(t, f.pass, good)
	publish("v3")
	waitFor(t, func() bool { return s.Certificate().Leaf != first })
	p7s, err := s.SignDetached([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	p7, err := pkcs7.Parse(p7s)
	if err != nil {
		t.Fatal(err)
	}
	if cn := p7.GetOnlySigner().Subject.CommonName; cn != "RENOVADO" {
		t.Fatalf("next signature by %q, want the renewed certificate", cn)
	}
	if err := opensslVerify(t, f.caFile, []byte("x"), p7s); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5s")
		}
	}
}

func TestDaysLeftGaugeAndReadinessWarning(t *testing.T) {
	f := newFixture(t)
	f.issue(t, "QUASE", time.Now().Add(-time.Hour), time.Now().Add(10*24*time.Hour+time.Hour), "x")
	s, err := signature.Open(f.config(), slog.Default(), clock.New(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	if d := s.DaysLeft(); d < 10 || d > 10.1 {
		t.Fatalf("days left %v", d)
	}
	var w httpserver.Warning
	if err := s.Check().Ping(t.Context()); !errors.As(err, &w) || !strings.Contains(string(w), "10 dias") {
		t.Fatalf("check: %v", err)
	}
	f.issue(t, "LONGE", time.Now().Add(-time.Hour), time.Now().AddDate(1, 0, 0), "x")
	s, err = signature.Open(f.config(), slog.Default(), clock.New(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check().Ping(t.Context()); err != nil {
		t.Fatalf("check a year ahead: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  signature.Config
		want string // "" valid, else a variable the error names
	}{
		{signature.Config{ReloadInterval: time.Second}, ""},
		{signature.Config{CertFile: "a", PasswordFile: "b", ReloadInterval: time.Second, Required: true}, ""},
		{signature.Config{CertFile: "a", ReloadInterval: time.Second}, "SIGNING_CERT_PASSWORD_FILE"},
		{signature.Config{ReloadInterval: time.Second, Required: true}, "SIGNING_REQUIRED"},
		{signature.Config{CertFile: "a", PasswordFile: "b"}, "SIGNING_CERT_RELOAD_INTERVAL"},
	} {
		err := c.cfg.Validate()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}
