package tokens

import (
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/auth/internal/keys"
)

// Signer mints access tokens with the keyring's signing key. The claims
// are jwtauth.Claims, the very type the verifiers decode, so what auth
// signs and what the other services accept cannot drift apart.
type Signer struct {
	Keys     *keys.Keyring
	Issuer   string
	Audience string
	TTL      time.Duration
	// Clock dates the tokens.
	Clock *clock.Clock
	// Revocations, when set, tells the last second whose tokens of an
	// account were voided: a token signed in that same second (a login
	// right after a reactivation) is dated the second after, or it would
	// be void at birth (revocation voids tokens by their issue second).
	Revocations interface {
		NotBefore(empresaID, funcionarioID int64) int64
	}
}

// Sign returns a signed access token for id, valid for TTL from now.
func (s *Signer) Sign(id Identity) (string, error) {
	now := s.Clock.Now()
	if s.Revocations != nil {
		if nb := s.Revocations.NotBefore(id.EmpresaID, id.FuncionarioID); nb >= now.Unix() {
			now = time.Unix(nb+1, 0)
		}
	}
	claims := &jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    s.Issuer,
			Subject:   id.Subject,
			Audience:  jwt.ClaimStrings{s.Audience},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.TTL)),
		},
		Role:          id.Role,
		EmpresaID:     id.EmpresaID,
		FuncionarioID: id.FuncionarioID,
		SessionID:     id.SessionID,
	}
	// Sign only what a verifier would accept: a bug here must fail loudly
	// in auth, not as a 401 in some other service.
	if err := claims.Validate(); err != nil {
		return "", fmt.Errorf("tokens: claims for %s: %w", id.Subject, err)
	}
	key := s.Keys.Signing()
	tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims)
	tok.Header["kid"] = key.ID
	signed, err := tok.SignedString(key.Private)
	if err != nil {
		return "", fmt.Errorf("tokens: sign: %w", err)
	}
	return signed, nil
}
