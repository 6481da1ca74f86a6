// Package mail is ponto's one SMTP sender: auth's login codes and
// timekeeping's reminders go out through it, over SMTP in every real
// environment, or to the log in local development when no SMTP server is
// configured.
package mail

import (
	"context"
	"log/slog"
)

// Message is a plain-text e-mail.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// LogSink writes messages to the log instead of sending them. It is for
// local development only (the service's SMTP address empty): the log then
// holds what was meant for a mailbox, login codes included.
type LogSink struct {
	Log *slog.Logger
}

// Send logs m at warning level, so it shows at any log level and stands
// out as something production must never do.
func (s LogSink) Send(ctx context.Context, m Message) error {
	s.Log.WarnContext(ctx, "mail: no SMTP configured, e-mail written to the log: local development only",
		"to", m.To, "subject", m.Subject, "body", m.Body)
	return nil
}
