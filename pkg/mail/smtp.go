package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// TLS modes of SMTPConfig.TLS.
const (
	TLSStartTLS      = "starttls"      // STARTTLS required (port 587)
	TLSImplicit      = "tls"           // TLS from the first byte (port 465)
	TLSOpportunistic = "opportunistic" // STARTTLS when offered
	TLSNone          = "none"          // plain text: a relay on localhost or tests only
)

// SMTPConfig is read from a service's <PREFIX>_SMTP_* (AUTH_SMTP_*,
// LEMBRETES_SMTP_*). An empty Addr selects the log sink.
type SMTPConfig struct {
	Addr     string        `conf:"help:host:port of the SMTP server; empty writes e-mails to the log (local development only)"`
	From     string        `conf:"default:ponto <nao-responda@ponto.local>,help:sender of the e-mails"`
	Username string        `conf:"help:SMTP AUTH user; empty sends without authentication"`
	Password string        `conf:"mask"`
	TLS      string        `conf:"default:starttls,help:starttls or tls or opportunistic or none"`
	Timeout  time.Duration `conf:"default:10s,help:deadline of one delivery"`
}

// Validate checks an SMTP configuration when one is given.
func (c *SMTPConfig) Validate() error {
	if c.Addr == "" {
		return nil
	}
	var errs []error
	if _, port, err := net.SplitHostPort(c.Addr); err != nil {
		errs = append(errs, fmt.Errorf("SMTP Addr: %w", err))
	} else if _, err := strconv.Atoi(port); err != nil {
		errs = append(errs, fmt.Errorf("SMTP Addr: bad port %q", port))
	}
	if _, err := mail.ParseAddress(c.From); err != nil {
		errs = append(errs, fmt.Errorf("SMTP From: %w", err))
	}
	switch c.TLS {
	case TLSStartTLS, TLSImplicit, TLSOpportunistic, TLSNone:
	default:
		errs = append(errs, fmt.Errorf("SMTP TLS: %q is none of starttls, tls, opportunistic, none", c.TLS))
	}
	if c.Timeout <= 0 {
		errs = append(errs, errors.New("SMTP Timeout must be positive"))
	}
	return errors.Join(errs...)
}

// SMTP sends through an SMTP server with github.com/wneessen/go-mail.
type SMTP struct {
	cfg  SMTPConfig
	host string
	port int
	// tlsConfig replaces go-mail's default (system roots, ServerName =
	// host); tests set it to trust their own certificate.
	tlsConfig *tls.Config
}

// NewSMTP checks cfg and returns a sender; it does not dial.
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	host, p, _ := net.SplitHostPort(cfg.Addr)
	port, _ := strconv.Atoi(p)
	return &SMTP{cfg: cfg, host: host, port: port}, nil
}

// client builds a go-mail client per delivery: deliveries are rare (one
// per code request) and a fresh client shares no connection state between
// concurrent sends.
func (s *SMTP) client() (*gomail.Client, error) {
	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(s.cfg.Timeout)}
	switch s.cfg.TLS {
	case TLSImplicit:
		opts = append(opts, gomail.WithSSL())
	case TLSOpportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.tlsConfig != nil {
		opts = append(opts, gomail.WithTLSConfig(s.tlsConfig))
	}
	if s.cfg.Username != "" {
		// go-mail picks the strongest mechanism the server offers, and
		// refuses to send a password in clear off localhost.
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.cfg.Username), gomail.WithPassword(s.cfg.Password))
	}
	return gomail.NewClient(s.host, opts...)
}

// Send delivers m as a UTF-8 plain-text e-mail.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.cfg.From); err != nil {
		return fmt.Errorf("mail: from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)

	c, err := s.client()
	if err != nil {
		return fmt.Errorf("mail: client: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: send via %s: %w", s.cfg.Addr, err)
	}
	return nil
}
