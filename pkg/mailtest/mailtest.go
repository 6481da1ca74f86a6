// Package mailtest is a real SMTP server (github.com/emersion/go-smtp) on
// loopback for tests: auth sends its login codes over real SMTP, and the
// tests read what arrived. It is imported only from _test.go files and
// test tools.
package mailtest

import (
	"bytes"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one e-mail as the server received it.
type Message struct {
	From string
	To   []string
	Data []byte // the raw message, headers and body
	// TLS tells that the message came over STARTTLS; User and Pass are
	// the SMTP AUTH PLAIN credentials the client logged in with.
	TLS        bool
	User, Pass string
}

// Config is what the server offers beyond plain SMTP.
type Config struct {
	// TLS, when set, offers STARTTLS with it.
	TLS *tls.Config
	// Login, when set, offers AUTH PLAIN (once TLS is on) and accepts
	// the credentials it returns nil for.
	Login func(user, pass string) error
}

// Server is a running SMTP server.
type Server struct {
	// Addr is host:port.
	Addr    string
	srv     *smtp.Server
	cfg     Config
	deliver func(Message) error
}

// Start serves SMTP on a free loopback port and hands every message to
// deliver, from the connection's goroutine; an error deliver returns is
// the client's answer to the message.
func Start(cfg Config, deliver func(Message) error) (*Server, error) {
	s := &Server{cfg: cfg, deliver: deliver}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{srv: s, conn: c}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.srv.TLSConfig = cfg.TLS
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.Addr = l.Addr().String()
	go func() { _ = s.srv.Serve(l) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Inbox is a server for one test that keeps the messages in the order
// they arrived.
type Inbox struct {
	*Server
	mail chan Message
}

// NewInbox starts a server that lives as long as the test.
func NewInbox(t testing.TB, cfg Config) *Inbox {
	t.Helper()
	in := &Inbox{mail: make(chan Message, 100)}
	srv, err := Start(cfg, func(m Message) error {
		in.mail <- m
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	in.Server = srv
	t.Cleanup(func() { _ = srv.Close() })
	return in
}

// Next waits for the next message.
func (in *Inbox) Next(t testing.TB) Message {
	t.Helper()
	select {
	case m := <-in.mail:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no e-mail arrived")
		return Message{}
	}
}

// None fails if a message is waiting.
func (in *Inbox) None(t testing.TB) {
	t.Helper()
	select {
	case m := <-in.mail:
		t.Fatalf("unexpected e-mail to %v", m.To)
	default:
	}
}

// Decoded is what a reader sees of a single-part message.
type Decoded struct {
	Subject, Body, To string
}

// Decode reads the subject, the recipient header and the text of a
// single-part message, undoing its transfer encoding.
func Decode(raw []byte) (Decoded, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Decoded{}, fmt.Errorf("unreadable e-mail: %w", err)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return Decoded{}, err
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
		return Decoded{}, err
	}
	return Decoded{Subject: subject, Body: string(text), To: msg.Header.Get("To")}, nil
}

type session struct {
	srv  *Server
	conn *smtp.Conn
	msg  Message
}

// AuthMechanisms offers AUTH PLAIN only when the server checks logins.
func (s *session) AuthMechanisms() []string {
	if s.srv.cfg.Login == nil {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if err := s.srv.cfg.Login(user, pass); err != nil {
			return err
		}
		s.msg.User, s.msg.Pass = user, pass
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.msg.From = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.msg.To = append(s.msg.To, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := s.msg
	m.Data = data
	_, m.TLS = s.conn.TLSConnectionState()
	return s.srv.deliver(m)
}

// Reset forgets the message but not the login, which holds for the
// whole connection.
func (s *session) Reset()        { s.msg = Message{User: s.msg.User, Pass: s.msg.Pass} }
func (s *session) Logout() error { return nil }
