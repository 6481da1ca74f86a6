// Package mailbox is the benchmark's SMTP server: auth delivers the
// employees' login codes to it (AUTH_SMTP_ADDR, plain SMTP on loopback),
// and the login workload waits here for the code of the e-mail it asked
// for, exactly as an employee waits for the message.
package mailbox

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// code is the login code on a line of its own (codes.Body).
var code = regexp.MustCompile(`(?m)^\s*(\d{6})\s*$`)

// Mailbox is a running SMTP server that keeps the last code per address.
type Mailbox struct {
	srv  *smtp.Server
	addr string

	mu     sync.Mutex
	boxes  map[string]chan string // by lower-case address
	failed error                  // first message that did not parse
	count  int
}

// Start listens on a free loopback port.
func Start() (*Mailbox, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &Mailbox{addr: l.Addr().String(), boxes: map[string]chan string{}}
	m.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{box: m}, nil
	}))
	m.srv.Domain = "localhost"
	m.srv.ReadTimeout, m.srv.WriteTimeout = 30*time.Second, 30*time.Second
	m.srv.MaxMessageBytes = 1 << 20
	go func() { _ = m.srv.Serve(l) }()
	return m, nil
}

// Addr is host:port, for AUTH_SMTP_ADDR.
func (m *Mailbox) Addr() string { return m.addr }

// Close stops the server.
func (m *Mailbox) Close() error { return m.srv.Close() }

// Delivered counts the messages received.
func (m *Mailbox) Delivered() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}

// Err is the first message that could not be read, if any.
func (m *Mailbox) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.failed
}

// Code waits for the next code sent to addr.
func (m *Mailbox) Code(ctx context.Context, addr string) (string, error) {
	select {
	case c := <-m.box(addr):
		return c, nil
	case <-ctx.Done():
		return "", fmt.Errorf("nenhum código chegou para %s: %w", addr, ctx.Err())
	}
}

// Drain drops a code that is waiting for addr, if any.
func (m *Mailbox) Drain(addr string) {
	select {
	case <-m.box(addr):
	default:
	}
}

// box is addr's channel; a code that arrives before anyone waits stays
// in it (one at a time: auth keeps only the latest code of an address).
func (m *Mailbox) box(addr string) chan string {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := strings.ToLower(addr)
	b, ok := m.boxes[key]
	if !ok {
		b = make(chan string, 1)
		m.boxes[key] = b
	}
	return b
}

func (m *Mailbox) deliver(to []string, data []byte) {
	c, err := codeOf(data)
	m.mu.Lock()
	m.count++
	if err != nil && m.failed == nil {
		m.failed = err
	}
	m.mu.Unlock()
	if err != nil {
		return
	}
	for _, addr := range to {
		b := m.box(addr)
		select { // replace a code nobody took with the newer one
		case <-b:
		default:
		}
		b <- c
	}
}

// codeOf finds the code in a message, decoding its transfer encoding.
func codeOf(data []byte) (string, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("mailbox: message: %w", err)
	}
	var body io.Reader = msg.Body
	switch strings.ToLower(msg.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		return "", fmt.Errorf("mailbox: body: %w", err)
	}
	found := code.FindSubmatch(text)
	if found == nil {
		return "", errors.New("mailbox: message without a 6-digit code")
	}
	return string(found[1]), nil
}

type session struct {
	box *Mailbox
	to  []string
}

func (s *session) Mail(string, *smtp.MailOptions) error { return nil }

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.box.deliver(s.to, data)
	return nil
}

func (s *session) Reset()        { s.to = nil }
func (s *session) Logout() error { return nil }
