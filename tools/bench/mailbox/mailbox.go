// Package mailbox is the benchmark's inbox of login codes: auth delivers
// the employees' codes over plain SMTP on loopback (AUTH_SMTP_ADDR) to a
// pkg/mailtest server, and the login workload waits here for the code of
// the e-mail it asked for, exactly as an employee waits for the message.
package mailbox

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/ponto/ponto/pkg/mailtest"
)

// code is the login code on a line of its own (codes.Body).
var code = regexp.MustCompile(`(?m)^\s*(\d{6})\s*$`)

// Mailbox is a running SMTP server that keeps the last code per address.
type Mailbox struct {
	srv *mailtest.Server

	mu    sync.Mutex
	boxes map[string]chan string // by lower-case address
}

// Start listens on a free loopback port.
func Start() (*Mailbox, error) {
	m := &Mailbox{boxes: map[string]chan string{}}
	srv, err := mailtest.Start(mailtest.Config{}, m.deliver)
	if err != nil {
		return nil, err
	}
	m.srv = srv
	return m, nil
}

// Addr is host:port, for AUTH_SMTP_ADDR.
func (m *Mailbox) Addr() string { return m.srv.Addr }

// Close stops the server.
func (m *Mailbox) Close() error { return m.srv.Close() }

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

// deliver refuses a message without a code, so that auth's send fails
// and the login that asked for it counts as an error.
func (m *Mailbox) deliver(msg mailtest.Message) error {
	d, err := mailtest.Decode(msg.Data)
	if err != nil {
		return err
	}
	found := code.FindStringSubmatch(d.Body)
	if found == nil {
		return errors.New("mailbox: message without a 6-digit code")
	}
	for _, addr := range msg.To {
		b := m.box(addr)
		select { // replace a code nobody took with the newer one
		case <-b:
		default:
		}
		b <- found[1]
	}
	return nil
}
