package e2e

import (
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
