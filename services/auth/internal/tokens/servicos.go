package tokens

import (
	"context"
	"crypto/subtle"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/pkg/validate"
)

// minServiceSecret is the shortest service secret accepted, in bytes.
const minServiceSecret = 32

// ParseServiceSecrets reads AUTH_SERVICE_SECRETS: "name=secret" pairs
// joined by commas, one per service that may ask for tokens.
func ParseServiceSecrets(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		name, secret, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || name == "" || len(secret) < minServiceSecret {
			return nil, fmt.Errorf("AUTH_SERVICE_SECRETS: want name=secret pairs with secrets of %d+ bytes (entry %q)", minServiceSecret, name)
		}
		out[name] = secret
	}
	return out, nil
}

// ReadServiceSecrets adds to secrets those of dir (AUTH_SERVICE_SECRETS_DIR,
// the chart's Secret mounted as files): one file per service, named after
// it, holding its secret. Hidden files (a mounted Secret's "..data") are
// skipped; an empty dir name reads nothing.
func ReadServiceSecrets(dir string, secrets map[string]string) error {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("AUTH_SERVICE_SECRETS_DIR: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return fmt.Errorf("AUTH_SERVICE_SECRETS_DIR: %w", err)
		}
		secret := strings.TrimSpace(string(b))
		if len(secret) < minServiceSecret {
			return fmt.Errorf("AUTH_SERVICE_SECRETS_DIR: the secret of %q has fewer than %d bytes", e.Name(), minServiceSecret)
		}
		secrets[e.Name()] = secret
	}
	return nil
}

// SignService mints a service token for name: role servico, audience
// jwtauth.AudienceInternal, valid jwtauth.ServiceTokenTTL.
func (s *Signer) SignService(name string) (string, time.Time, error) {
	now := s.Clock.Now().Truncate(time.Second) // a JWT's times are whole seconds
	exp := now.Add(jwtauth.ServiceTokenTTL)
	claims := &jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer: s.Issuer, Subject: name, Audience: jwt.ClaimStrings{jwtauth.AudienceInternal},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp),
		},
		Role: jwtauth.RoleServico,
	}
	if err := claims.Validate(); err != nil {
		return "", time.Time{}, fmt.Errorf("tokens: service claims for %q: %w", name, err)
	}
	key := s.Keys.Signing()
	tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims)
	tok.Header["kid"] = key.ID
	signed, err := tok.SignedString(key.Private)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("tokens: sign: %w", err)
	}
	return signed, exp, nil
}

// errServiceRefused is the one 401 of the token route: an unknown service
// and a wrong secret are not told apart.
var errServiceRefused = domainerr.Unauthenticated("servico_nao_autenticado", "serviço ou segredo inválido")

// Services serves POST /internal/servicos/token.
type Services struct {
	Signer  *Signer
	Secrets map[string]string // service name → its secret
}

// Routes registers the token route on the internal listener.
func (s *Services) Routes(r fiber.Router) { r.Post(svcclient.TokenPath, s.issue) }

// issue: {"servico","segredo"} → 200 {"token","expiraEm"}; 401 for an
// unknown service or a wrong secret (compared in constant time).
func (s *Services) issue(c *fiber.Ctx) error {
	var in svcclient.TokenRequest
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	errs := validate.Errors{}
	errs.Required(in.Servico, "servico")
	errs.Required(in.Segredo, "segredo")
	errs.Check(len(in.Servico) <= 64 && len(in.Segredo) <= 256, "segredo", "muito longo")
	if err := errs.Err(); err != nil {
		return err
	}
	want, known := s.Secrets[in.Servico]
	if !known {
		want = strings.Repeat("x", minServiceSecret) // same work either way
	}
	if subtle.ConstantTimeCompare([]byte(want), []byte(in.Segredo)) != 1 || !known {
		return errServiceRefused
	}
	token, exp, err := s.Signer.SignService(in.Servico)
	if err != nil {
		return err
	}
	return c.JSON(svcclient.TokenAnswer{Token: token, ExpiraEm: clock.FormatISO(exp)})
}

// Own is auth's own svcclient.TokenSource: auth signs its service tokens
// itself, and keeps each until shortly before it expires.
type Own struct {
	Signer *Signer
	Name   string

	mu      sync.Mutex
	token   string
	expires time.Time
}

// Token answers the current token of auth.
func (o *Own) Token(context.Context) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.token != "" && o.Signer.Clock.Now().Before(o.expires.Add(-2*time.Minute)) {
		return o.token, nil
	}
	token, exp, err := o.Signer.SignService(o.Name)
	if err != nil {
		return "", err
	}
	o.token, o.expires = token, exp
	return token, nil
}
