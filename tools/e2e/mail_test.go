package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/mailtest"
)

// mailbox is the SMTP server auth sends login codes to: a real SMTP
// server (pkg/mailtest) on loopback that keeps every
// message by recipient.
type mailbox struct {
	addr string
	srv  *mailtest.Server

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
	srv, err := mailtest.Start(mailtest.Config{}, m.receive)
	if err != nil {
		return nil, err
	}
	m.srv, m.addr = srv, srv.Addr
	return m, nil
}

func (m *mailbox) Close() { _ = m.srv.Close() }

// receive decodes a message and files it; one that does not decode is
// refused to the sender.
func (m *mailbox) receive(raw mailtest.Message) error {
	d, err := mailtest.Decode(raw.Data)
	if err != nil {
		return err
	}
	m.deliver(receivedMail{From: raw.From, To: raw.To, Subject: d.Subject, Body: d.Body})
	return nil
}

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
	msg, err := m.wait(rcpt, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// wait is next for callers outside the test's goroutine: it returns an
// error instead of failing the test.
func (m *mailbox) wait(rcpt string, timeout time.Duration) (receivedMail, error) {
	key := strings.ToLower(rcpt)
	deadline := time.After(timeout)
	for {
		m.mu.Lock()
		if msgs := m.byRcpt[key]; len(msgs) > 0 {
			m.byRcpt[key] = msgs[1:]
			m.mu.Unlock()
			return msgs[0], nil
		}
		m.mu.Unlock()
		select {
		case <-m.arrived:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			return receivedMail{}, fmt.Errorf("no e-mail arrived for %s in %s", rcpt, timeout)
		}
	}
}

var codeLine = regexp.MustCompile(`(?m)^\s*(\d{6})\s*$`)

// code reads the login code from the next message to rcpt.
func (m *mailbox) code(t testing.TB, rcpt string) string {
	t.Helper()
	code, err := m.waitCode(rcpt, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// waitCode is code for callers outside the test's goroutine.
func (m *mailbox) waitCode(rcpt string, timeout time.Duration) (string, error) {
	msg, err := m.wait(rcpt, timeout)
	if err != nil {
		return "", err
	}
	found := codeLine.FindAllStringSubmatch(msg.Body, -1)
	if len(found) != 1 {
		return "", fmt.Errorf("the e-mail to %s should have exactly one line with the 6-digit code:\n%s", rcpt, msg.Body)
	}
	return found[0][1], nil
}
