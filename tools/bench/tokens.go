package bench

import (
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/jwtauth"
)

// minter signs employee access tokens with auth's own signing key, read
// from the stack's key directory, and auth's own claims type.
//
// The clock-in and photo workloads act as thousands of employees. Logging
// each of them in through the code flow would cost an e-mail and four
// service calls apiece before the measurement even starts; the login
// workload measures that flow itself. A token made here is one auth could
// have made: same key (kid from auth's published JWKS), same
// jwtauth.Claims, so the services verify it exactly as any other.
type minter struct {
	key      ed25519.PrivateKey
	kid      string
	issuer   string
	audience string
	ttl      time.Duration
}

// newMinter loads the newest *.pem of keysDir (the one auth signs with)
// and finds its kid in the JWKS auth publishes at jwksURL.
func newMinter(ctx context.Context, keysDir, jwksURL, issuer, audience string, ttl time.Duration) (*minter, error) {
	paths, err := filepath.Glob(filepath.Join(keysDir, "*.pem"))
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("nenhuma chave de assinatura em %s", keysDir)
	}
	slices.Sort(paths)
	raw, err := os.ReadFile(paths[len(paths)-1])
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(raw)
	if block == nil {
		return nil, errors.New("chave de assinatura: PEM inválido")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("chave de assinatura: %w", err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("chave de assinatura: %T, esperava Ed25519", k)
	}
	kid, err := kidOf(ctx, jwksURL, priv.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	return &minter{key: priv, kid: kid, issuer: issuer, audience: audience, ttl: ttl}, nil
}

// kidOf finds pub in the JWKS.
func kidOf(ctx context.Context, jwksURL string, pub ed25519.PublicKey) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, jwksURL, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("JWKS: %w", err)
	}
	defer resp.Body.Close()
	var set struct {
		Keys []struct {
			Kid string `json:"kid"`
			X   string `json:"x"`
		} `json:"keys"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		return "", fmt.Errorf("JWKS: %w", err)
	}
	x := base64.RawURLEncoding.EncodeToString(pub)
	for _, k := range set.Keys {
		if k.X == x {
			return k.Kid, nil
		}
	}
	return "", errors.New("a chave de assinatura do auth não está no JWKS publicado")
}

// funcionario mints an access token for employee funcionarioID of
// empresaID.
func (m *minter) funcionario(empresaID, funcionarioID int64) (string, error) {
	return m.mint(jwtauth.RoleFuncionario, funcionarioID, empresaID, funcionarioID)
}

// empresa mints an access token for the company's administrator: it
// outlives a login's (15 minutes), which a long soak would outrun.
func (m *minter) empresa(empresaID int64) (string, error) {
	return m.mint(jwtauth.RoleEmpresa, empresaID, empresaID, 0)
}

// mint signs the claims auth gives role's subject id.
func (m *minter) mint(role string, id, empresaID, funcionarioID int64) (string, error) {
	now := time.Now()
	claims := &jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    m.issuer,
			Subject:   role + ":" + strconv.FormatInt(id, 10),
			Audience:  jwt.ClaimStrings{m.audience},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(m.ttl)),
		},
		Role:          role,
		EmpresaID:     empresaID,
		FuncionarioID: funcionarioID,
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims)
	tok.Header["kid"] = m.kid
	return tok.SignedString(m.key)
}
