// Package session keeps a browser's session in one encrypted cookie: the
// user's access and refresh tokens never reach the page's JavaScript
// (HttpOnly) and cannot be read or forged without the server's key
// (AES-256-GCM). Holding the session in the cookie keeps the web service
// stateless, so any replica serves any request and it needs no store.
package session

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ponto/ponto/pkg/clock"
)

// Roles a session may hold once logged in; "" is an anonymous session.
const (
	RoleFuncionario = "funcionario"
	RoleEmpresa     = "empresa"
)

// Session is what the cookie carries. Short JSON names keep the cookie
// far below the browsers' 4 KiB limit.
type Session struct {
	// CSRF is the synchronizer token every unsafe request must echo.
	CSRF string `json:"c"`
	// Role is funcionario, empresa or "" (not logged in).
	Role          string `json:"r,omitempty"`
	Token         string `json:"t,omitempty"`
	Refresh       string `json:"f,omitempty"`
	EmpresaID     int64  `json:"e,omitempty"`
	FuncionarioID int64  `json:"u,omitempty"`
	Nome          string `json:"n,omitempty"`
	// TZ is the IANA time zone the pages show times in.
	TZ string `json:"z,omitempty"`
	// Expires ends the session even while its refresh token lives.
	Expires int64 `json:"x"`
}

// LoggedIn reports whether the session holds a user.
func (s *Session) LoggedIn() bool { return s.Role != "" && s.Token != "" }

// CheckCSRF compares token with the session's in constant time.
func (s *Session) CheckCSRF(token string) bool {
	return s.CSRF != "" && subtle.ConstantTimeCompare([]byte(s.CSRF), []byte(token)) == 1
}

// Codec seals and opens session cookies with one key.
type Codec struct {
	aead  cipher.AEAD
	name  string
	ttl   time.Duration
	clock *clock.Clock
}

// NewCodec takes a 32-byte key; name is bound into every sealed value, so
// a value made for another cookie does not open as this one; sessions
// expire ttl after they begin on clk.
func NewCodec(key []byte, name string, ttl time.Duration, clk *clock.Clock) (*Codec, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("session key must have 32 bytes, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Codec{aead: aead, name: name, ttl: ttl, clock: clk}, nil
}

// New is a fresh anonymous session with its own CSRF token.
func (c *Codec) New() *Session {
	return &Session{CSRF: RandomToken(), Expires: c.clock.Now().Add(c.ttl).Unix()}
}

// TTL is how long a session lives.
func (c *Codec) TTL() time.Duration { return c.ttl }

// Seal encrypts s into a cookie value.
func (c *Codec) Seal(s *Session) (string, error) {
	plain, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, c.aead.NonceSize(), c.aead.NonceSize()+len(plain)+c.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	sealed := c.aead.Seal(nonce, nonce, plain, []byte(c.name))
	return base64.RawURLEncoding.EncodeToString(sealed), nil
}

// ErrInvalid is a cookie that does not open: tampered, made with another
// key, or expired.
var ErrInvalid = errors.New("session: invalid or expired cookie")

// Open decrypts a cookie value made by Seal.
func (c *Codec) Open(value string) (*Session, error) {
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil || len(raw) < c.aead.NonceSize() {
		return nil, ErrInvalid
	}
	n := c.aead.NonceSize()
	plain, err := c.aead.Open(nil, raw[:n], raw[n:], []byte(c.name))
	if err != nil {
		return nil, ErrInvalid
	}
	var s Session
	if err := json.Unmarshal(plain, &s); err != nil || s.CSRF == "" {
		return nil, ErrInvalid
	}
	if c.clock.Now().Unix() >= s.Expires {
		return nil, ErrInvalid
	}
	return &s, nil
}

// RandomToken is 256 random bits, URL-safe.
func RandomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand panics instead)
	return base64.RawURLEncoding.EncodeToString(b)
}
