// Package mail delivers auth's e-mails (the employees' login codes): over
// SMTP in every real environment, or to the log in local development when
// no SMTP server is configured.
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
// local development only (AUTH_SMTP_ADDR empty): the log then holds live
// login codes.
type LogSink struct {
	Log *slog.Logger
}

// Send logs m at warning level, so it shows at any log level and stands
// out as something production must never do.
func (s LogSink) Send(ctx context.Context, m Message) error {
	s.Log.WarnContext(ctx, "mail: no SMTP configured (AUTH_SMTP_ADDR empty), e-mail written to the log: local development only",
		"to", m.To, "subject", m.Subject, "body", m.Body)
	return nil
}
