package e2e

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// mailbox is the SMTP server auth sends login codes to: a real SMTP
// server (github.com/emersion/go-smtp) on loopback that keeps every
// message by recipient.
type mailbox struct {
	addr string
	srv  *smtp.Server

	mu      sync.Mutex
	byRcpt  map[string][]receivedMail
	arrived chan struct{} // signalled on every message
}

type receivedMail struct {
	From    string
	To      []string
	Subject string
	Body    string
}

func startMailbox() (*mailbox, error) {
	m := &mailbox{byRcpt: map[string][]receivedMail{}, arrived: make(chan struct{}, 1)}
	m.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &smtpSession{box: m}, nil
	}))
	m.srv.Domain = "localhost"
	m.srv.ReadTimeout, m.srv.WriteTimeout = 10*time.Second, 10*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m.addr = l.Addr().String()
	go func() { _ = m.srv.Serve(l) }()
	return m, nil
}

func (m *mailbox) Close() { _ = m.srv.Close() }

func (m *mailbox) deliver(msg receivedMail) {
	m.mu.Lock()
	for _, to := range msg.To {
		key := strings.ToLower(to)
		m.byRcpt[key] = append(m.byRcpt[key], msg)
	}
	m.mu.Unlock()
	select {
	case m.arrived <- struct{}{}:
	default:
	}
}

// next waits for the next message to rcpt and takes it out of the box.
func (m *mailbox) next(t testing.TB, rcpt string) receivedMail {
	t.Helper()
	key := strings.ToLower(rcpt)
	deadline := time.After(30 * time.Second)
	for {
		m.mu.Lock()
		if msgs := m.byRcpt[key]; len(msgs) > 0 {
			m.byRcpt[key] = msgs[1:]
			m.mu.Unlock()
			return msgs[0]
		}
		m.mu.Unlock()
		select {
		case <-m.arrived:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no e-mail arrived for %s in 30 s", rcpt)
		}
	}
}

var codeLine = regexp.MustCompile(`(?m)^\s*(\d{6})\s*$`)

// code reads the login code from the next message to rcpt.
func (m *mailbox) code(t testing.TB, rcpt string) string {
	t.Helper()
	msg := m.next(t, rcpt)
	found := codeLine.FindAllStringSubmatch(msg.Body, -1)
	if len(found) != 1 {
		t.Fatalf("the e-mail to %s should have exactly one line with the 6-digit code:\n%s", rcpt, msg.Body)
	}
	return found[0][1]
}

type smtpSession struct {
	box *mailbox
	msg receivedMail
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	s.msg.From = from
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.msg.To = append(s.msg.To, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	msg := s.msg
	if msg.Subject, msg.Body, err = decodeMail(raw); err != nil {
		return err
	}
	s.box.deliver(msg)
	return nil
}

func (s *smtpSession) Reset()        { s.msg = receivedMail{} }
func (s *smtpSession) Logout() error { return nil }

// decodeMail returns the subject and the text of a single-part message.
func decodeMail(raw []byte) (subject, body string, err error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return "", "", fmt.Errorf("unreadable e-mail: %w", err)
	}
	if subject, err = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return "", "", err
	}
	var r io.Reader = msg.Body
	switch strings.ToLower(msg.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	text, err := io.ReadAll(r)
	return subject, string(text), err
}
