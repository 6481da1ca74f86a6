// Package jwttest plays the auth service in tests: it holds Ed25519 keys,
// serves them as a JWKS over a real HTTP server and mints access tokens, so
// services can test their authenticated routes with jwtauth.NewVerifier
// exactly as in production.
//
//	iss := jwttest.NewIssuer(t)
//	v := iss.NewVerifier(t)
//	app.Use(v.Middleware())
//	req.Header.Set("Authorization", "Bearer "+iss.Empresa(t, 42))
package jwttest

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/jwtauth"
)

// Issuer and audience put in minted tokens and in Config.
const (
	IssuerID = "https://auth.ponto.test"
	Audience = "ponto-api"
)

// JWKSPath is where auth publishes its keys.
const JWKSPath = "/.well-known/jwks.json"

// TokenTTL is the lifetime Mint gives tokens, as auth does.
const TokenTTL = 15 * time.Minute

type signingKey struct {
	kid  string
	priv ed25519.PrivateKey
}

// Issuer is a fake auth service. It is safe for concurrent use.
type Issuer struct {
	srv *httptest.Server

	mu       sync.Mutex
	keys     []signingKey // all published; the last one signs
	down     bool
	requests int
}

// NewIssuer starts a JWKS server with one key; it stops at test cleanup.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	i := &Issuer{}
	i.Rotate(t)
	i.srv = httptest.NewServer(i.Handler())
	t.Cleanup(i.srv.Close)
	return i
}

// Handler serves GET JWKSPath. NewIssuer already serves it; it is exported
// for tests that need to choose when and where the server listens.
func (i *Issuer) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+JWKSPath, func(w http.ResponseWriter, r *http.Request) {
		body, down, err := i.jwks()
		switch {
		case down:
			http.Error(w, "auth indisponível", http.StatusServiceUnavailable)
		case err != nil:
			http.Error(w, err.Error(), http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}
	})
	return mux
}

// jwks counts the request and renders the public keys.
func (i *Issuer) jwks() ([]byte, bool, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.requests++
	if i.down {
		return nil, true, nil
	}
	set := jwkset.JWKSMarshal{Keys: make([]jwkset.JWKMarshal, 0, len(i.keys))}
	for _, k := range i.keys {
		jwk, err := jwkset.NewJWKFromKey(k.priv.Public(), jwkset.JWKOptions{
			Metadata: jwkset.JWKMetadataOptions{ALG: jwkset.AlgEdDSA, KID: k.kid, USE: jwkset.UseSig},
		})
		if err != nil {
			return nil, false, err
		}
		set.Keys = append(set.Keys, jwk.Marshal())
	}
	body, err := json.Marshal(set)
	return body, false, err
}

// JWKSURL is the URL to give jwtauth.Config.JWKSURL.
func (i *Issuer) JWKSURL() string { return i.srv.URL + JWKSPath }

// Config points a verifier at this issuer.
func (i *Issuer) Config() jwtauth.Config {
	return jwtauth.Config{JWKSURL: i.JWKSURL(), Issuer: IssuerID, Audience: Audience}
}

// NewVerifier returns a verifier for this issuer whose background refresh
// stops at test cleanup.
func (i *Issuer) NewVerifier(t testing.TB) *jwtauth.Verifier {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	v, err := jwtauth.NewVerifier(ctx, i.Config())
	if err != nil {
		t.Fatalf("jwttest: NewVerifier: %v", err)
	}
	return v
}

// Rotate adds a key that signs from now on. Old keys stay published, as
// they do in auth while tokens signed with them may still be valid.
func (i *Issuer) Rotate(t testing.TB) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatalf("jwttest: generate key: %v", err)
	}
	kid := make([]byte, 8)
	_, _ = rand.Read(kid)
	i.mu.Lock()
	defer i.mu.Unlock()
	i.keys = append(i.keys, signingKey{kid: "test-" + hex.EncodeToString(kid), priv: priv})
}

// SigningKey returns the current key, for tests that build unusual tokens
// by hand.
func (i *Issuer) SigningKey() (kid string, key ed25519.PrivateKey) {
	i.mu.Lock()
	defer i.mu.Unlock()
	k := i.keys[len(i.keys)-1]
	return k.kid, k.priv
}

// SetDown makes the JWKS endpoint answer 503 (true) or serve keys again.
func (i *Issuer) SetDown(down bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.down = down
}

// JWKSRequests counts the requests the JWKS endpoint has received.
func (i *Issuer) JWKSRequests() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.requests
}

// Mint signs claims with the current key, filling iss, aud, iat and exp
// (iat + TokenTTL) when they are empty. Set them to test bad tokens.
func (i *Issuer) Mint(t testing.TB, claims jwtauth.Claims) string {
	t.Helper()
	now := time.Now()
	if claims.Issuer == "" {
		claims.Issuer = IssuerID
	}
	if len(claims.Audience) == 0 {
		claims.Audience = jwt.ClaimStrings{Audience}
	}
	if claims.IssuedAt == nil {
		claims.IssuedAt = jwt.NewNumericDate(now)
	}
	if claims.ExpiresAt == nil {
		claims.ExpiresAt = jwt.NewNumericDate(claims.IssuedAt.Add(TokenTTL))
	}
	return i.Sign(t, &claims)
}

// Sign signs any claims exactly as given (no defaults) with the current
// key and its kid.
func (i *Issuer) Sign(t testing.TB, claims jwt.Claims) string {
	t.Helper()
	kid, key := i.SigningKey()
	tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims)
	tok.Header["kid"] = kid
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatalf("jwttest: sign: %v", err)
	}
	return s
}

// Empresa mints a token for the company account empresaID.
func (i *Issuer) Empresa(t testing.TB, empresaID int64) string {
	t.Helper()
	return i.Mint(t, jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{Subject: "empresa:" + strconv.FormatInt(empresaID, 10)},
		Role:             jwtauth.RoleEmpresa,
		EmpresaID:        empresaID,
	})
}

// Funcionario mints a token for employee funcionarioID of empresaID.
func (i *Issuer) Funcionario(t testing.TB, empresaID, funcionarioID int64) string {
	t.Helper()
	return i.Mint(t, jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{Subject: "funcionario:" + strconv.FormatInt(funcionarioID, 10)},
		Role:             jwtauth.RoleFuncionario,
		EmpresaID:        empresaID,
		FuncionarioID:    funcionarioID,
	})
}

// Admin mints a token for a platform admin.
func (i *Issuer) Admin(t testing.TB) string {
	t.Helper()
	return i.Mint(t, jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{Subject: "admin:1"},
		Role:             jwtauth.RoleAdmin,
	})
}

// Service mints the service token auth gives the service name
// (jwtauth.RoleServico, audience jwtauth.AudienceInternal).
func (i *Issuer) Service(t testing.TB, name string) string {
	t.Helper()
	now := time.Now()
	return i.Mint(t, jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   name,
			Audience:  jwt.ClaimStrings{jwtauth.AudienceInternal},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(jwtauth.ServiceTokenTTL)),
		},
		Role: jwtauth.RoleServico,
	})
}

// Tokens is a svcclient token source handing out Service(name) tokens.
func (i *Issuer) Tokens(t testing.TB, name string) StaticToken {
	t.Helper()
	return StaticToken(i.Service(t, name))
}

// StaticToken is a token source that always answers the same token.
type StaticToken string

// Token answers the token.
func (s StaticToken) Token(context.Context) (string, error) { return string(s), nil }
