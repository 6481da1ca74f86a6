package mail

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log/slog"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/ponto/ponto/pkg/mailtest"
)

// startSMTP starts a real SMTP server on loopback; with cert it offers
// STARTTLS and, once TLS is on, AUTH PLAIN for ponto/segredo.
func startSMTP(t *testing.T, cert *tls.Certificate) *mailtest.Inbox {
	t.Helper()
	cfg := mailtest.Config{Login: func(user, pass string) error {
		if user != "ponto" || pass != "segredo" {
			return smtp.ErrAuthFailed
		}
		return nil
	}}
	if cert != nil {
		cfg.TLS = &tls.Config{Certificates: []tls.Certificate{*cert}}
	}
	return mailtest.NewInbox(t, cfg)
}

// selfSigned makes a certificate for 127.0.0.1 and a pool trusting it.
func selfSigned(t *testing.T) (*tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:   time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// The production path: STARTTLS required, then SMTP AUTH, UTF-8 text.
func TestSMTPStartTLSAndAuth(t *testing.T) {
	cert, pool := selfSigned(t)
	srv := startSMTP(t, cert)
	s, err := NewSMTP(SMTPConfig{
		Addr: srv.Addr, From: "ponto <nao-responda@ponto.test>", TLS: TLSStartTLS,
		Username: "ponto", Password: "segredo", Timeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.tlsConfig = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}

	err = s.Send(context.Background(), Message{To: "ana@padaria.com.br", Subject: "Seu código", Body: "Olá, João!\n\n    123456\n"})
	if err != nil {
		t.Fatal(err)
	}
	d := srv.Next(t)
	if !d.TLS || d.User != "ponto" || d.Pass != "segredo" {
		t.Errorf("tls %v, auth %q/%q", d.TLS, d.User, d.Pass)
	}
	if d.From != "nao-responda@ponto.test" || len(d.To) != 1 || d.To[0] != "ana@padaria.com.br" {
		t.Errorf("envelope %q → %v", d.From, d.To)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(d.Data))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if subject != "Seu código" {
		t.Errorf("subject %q", subject)
	}
	if ct := msg.Header.Get("Content-Type"); !strings.Contains(ct, "text/plain") || !strings.Contains(strings.ToLower(ct), "utf-8") {
		t.Errorf("Content-Type %q", ct)
	}
	var body io.Reader = msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	text, _ := io.ReadAll(body)
	if !strings.Contains(string(text), "Olá, João!") || !strings.Contains(string(text), "123456") {
		t.Errorf("body %q", text)
	}
	if msg.Header.Get("Message-Id") == "" || msg.Header.Get("Date") == "" {
		t.Error("Message-Id or Date missing")
	}
}

// With TLS required, a server that does not offer STARTTLS gets nothing:
// no password and no code in clear.
func TestSMTPRefusesPlainTextWhenTLSRequired(t *testing.T) {
	srv := startSMTP(t, nil)
	s, err := NewSMTP(SMTPConfig{Addr: srv.Addr, From: "nao-responda@ponto.test", TLS: TLSStartTLS,
		Username: "ponto", Password: "segredo", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), Message{To: "ana@padaria.com.br", Subject: "x", Body: "123456"}); err == nil {
		t.Fatal("sent without TLS")
	}
	srv.None(t)
}

func TestSMTPConfigValidate(t *testing.T) {
	ok := SMTPConfig{Addr: "smtp.example.com:587", From: "ponto <a@b.com>", TLS: TLSStartTLS, Timeout: time.Second}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := (&SMTPConfig{}).Validate(); err != nil {
		t.Errorf("empty Addr (log sink) refused: %v", err)
	}
	for name, mutate := range map[string]func(*SMTPConfig){
		"no port":  func(c *SMTPConfig) { c.Addr = "smtp.example.com" },
		"bad from": func(c *SMTPConfig) { c.From = "not an address" },
		"bad tls":  func(c *SMTPConfig) { c.TLS = "sometimes" },
		"timeout":  func(c *SMTPConfig) { c.Timeout = 0 },
	} {
		c := ok
		mutate(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestLogSink(t *testing.T) {
	var buf bytes.Buffer
	s := LogSink{Log: slog.New(slog.NewJSONHandler(&buf, nil))}
	if err := s.Send(context.Background(), Message{To: "a@b.com", Subject: "s", Body: "código 123456"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "123456") || !strings.Contains(buf.String(), "local development only") {
		t.Errorf("log %s", buf.String())
	}
}
