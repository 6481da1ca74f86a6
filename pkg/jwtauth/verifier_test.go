package jwtauth_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
)

// sign builds a token by hand. A nil kid leaves the header without one.
func sign(t *testing.T, method jwt.SigningMethod, key any, kid any, claims jwt.Claims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	if kid != nil {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	return s
}

// goodClaims are claims the verifier accepts, to be spoiled one at a time.
func goodClaims() *jwtauth.Claims {
	now := time.Now()
	return &jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    jwttest.IssuerID,
			Audience:  jwt.ClaimStrings{jwttest.Audience},
			Subject:   "empresa:7",
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(15 * time.Minute)),
		},
		Role:      jwtauth.RoleEmpresa,
		EmpresaID: 7,
	}
}

func newKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return priv
}

func TestVerifyAcceptsValidToken(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	v := iss.NewVerifier(t)

	before := time.Now().Add(-time.Second)
	claims, err := v.Verify(t.Context(), iss.Funcionario(t, 7, 9))
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if claims.Role != jwtauth.RoleFuncionario || claims.EmpresaID != 7 || claims.FuncionarioID != 9 {
		t.Errorf("claims = %+v, want funcionario 9 of empresa 7", claims)
	}
	if claims.Subject != "funcionario:9" || claims.Issuer != jwttest.IssuerID {
		t.Errorf("sub/iss = %q/%q", claims.Subject, claims.Issuer)
	}
	if len(claims.Audience) != 1 || claims.Audience[0] != jwttest.Audience {
		t.Errorf("aud = %v", claims.Audience)
	}
	if claims.IssuedAt == nil || claims.IssuedAt.Before(before.Truncate(time.Second)) {
		t.Errorf("iat = %v, want about now", claims.IssuedAt)
	}
	if ttl := claims.ExpiresAt.Sub(claims.IssuedAt.Time); ttl != 15*time.Minute {
		t.Errorf("exp - iat = %v, want 15m", ttl)
	}

	for name, tok := range map[string]string{
		"empresa": iss.Empresa(t, 3),
		"admin":   iss.Admin(t),
	} {
		if _, err := v.Verify(t.Context(), tok); err != nil {
			t.Errorf("%s: Verify: %v", name, err)
		}
	}
}

func TestVerifyRejects(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	v := iss.NewVerifier(t)
	kid, priv := iss.SigningKey()
	pub := priv.Public().(ed25519.PublicKey)
	now := time.Now()

	tampered := func() string {
		// A funcionario promotes itself to admin, keeping the signature.
		parts := strings.Split(iss.Funcionario(t, 7, 9), ".")
		payload, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(payload, &m); err != nil {
			t.Fatal(err)
		}
		m["role"] = jwtauth.RoleAdmin
		delete(m, "empresaId") // so that only the signature can stop it
		delete(m, "funcionarioId")
		payload, _ = json.Marshal(m)
		parts[1] = base64.RawURLEncoding.EncodeToString(payload)
		return strings.Join(parts, ".")
	}

	tests := []struct {
		name  string
		token string
		want  error
	}{
		{"garbage", "not.a.jwt", jwt.ErrTokenMalformed},
		{"empty", "", jwt.ErrTokenMalformed},
		{
			"alg none",
			sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, kid, goodClaims()),
			jwt.ErrTokenSignatureInvalid,
		},
		{
			"HS256 with the public key as secret",
			sign(t, jwt.SigningMethodHS256, []byte(pub), kid, goodClaims()),
			jwt.ErrTokenSignatureInvalid,
		},
		{
			"expired beyond leeway",
			iss.Mint(t, jwtauth.Claims{
				RegisteredClaims: jwt.RegisteredClaims{
					IssuedAt:  jwt.NewNumericDate(now.Add(-16 * time.Minute)),
					ExpiresAt: jwt.NewNumericDate(now.Add(-time.Minute)),
				},
				Role: jwtauth.RoleAdmin,
			}),
			jwt.ErrTokenExpired,
		},
		{
			"issued in the future",
			iss.Mint(t, jwtauth.Claims{
				RegisteredClaims: jwt.RegisteredClaims{IssuedAt: jwt.NewNumericDate(now.Add(5 * time.Minute))},
				Role:             jwtauth.RoleAdmin,
			}),
			jwt.ErrTokenUsedBeforeIssued,
		},
		{
			"wrong aud",
			iss.Mint(t, jwtauth.Claims{
				RegisteredClaims: jwt.RegisteredClaims{Audience: jwt.ClaimStrings{"outro-servico"}},
				Role:             jwtauth.RoleAdmin,
			}),
			jwt.ErrTokenInvalidAudience,
		},
		{
			"wrong iss",
			iss.Mint(t, jwtauth.Claims{
				RegisteredClaims: jwt.RegisteredClaims{Issuer: "https://evil.example"},
				Role:             jwtauth.RoleAdmin,
			}),
			jwt.ErrTokenInvalidIssuer,
		},
		{
			"missing aud",
			iss.Sign(t, func() *jwtauth.Claims { c := goodClaims(); c.Audience = nil; return c }()),
			jwt.ErrTokenRequiredClaimMissing,
		},
		{
			"missing iss",
			iss.Sign(t, func() *jwtauth.Claims { c := goodClaims(); c.Issuer = ""; return c }()),
			jwt.ErrTokenRequiredClaimMissing,
		},
		{
			"missing exp",
			iss.Sign(t, func() *jwtauth.Claims { c := goodClaims(); c.ExpiresAt = nil; return c }()),
			jwt.ErrTokenRequiredClaimMissing,
		},
		{
			"unknown kid never published",
			sign(t, jwt.SigningMethodEdDSA, newKey(t), "never-published", goodClaims()),
			jwkset.ErrKeyNotFound,
		},
		{
			// Correctly signed by a published key: only the kid rule stops it.
			"no kid",
			sign(t, jwt.SigningMethodEdDSA, priv, nil, goodClaims()),
			jwtauth.ErrMissingKID,
		},
		{
			"empty kid",
			sign(t, jwt.SigningMethodEdDSA, priv, "", goodClaims()),
			jwtauth.ErrMissingKID,
		},
		{
			"non-string kid",
			sign(t, jwt.SigningMethodEdDSA, priv, 42, goodClaims()),
			jwtauth.ErrMissingKID,
		},
		{"tampered payload", tampered(), jwt.ErrTokenSignatureInvalid},
		{
			"foreign key under a published kid",
			sign(t, jwt.SigningMethodEdDSA, newKey(t), kid, goodClaims()),
			jwt.ErrTokenSignatureInvalid,
		},
		{
			"funcionario without funcionarioId",
			iss.Mint(t, jwtauth.Claims{Role: jwtauth.RoleFuncionario, EmpresaID: 7}),
			jwtauth.ErrTenantClaims,
		},
		{
			"empresa without empresaId",
			iss.Mint(t, jwtauth.Claims{Role: jwtauth.RoleEmpresa}),
			jwtauth.ErrTenantClaims,
		},
		{
			"unknown role",
			iss.Mint(t, jwtauth.Claims{Role: "superusuario", EmpresaID: 7}),
			jwtauth.ErrUnknownRole,
		},
		{
			"no role",
			iss.Mint(t, jwtauth.Claims{EmpresaID: 7}),
			jwtauth.ErrUnknownRole,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			claims, err := v.Verify(t.Context(), tt.token)
			if err == nil {
				t.Fatalf("Verify accepted the token: %+v", claims)
			}
			if claims != nil {
				t.Errorf("claims = %+v, want nil on error", claims)
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestVerifyToleratesSmallClockSkew(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	v := iss.NewVerifier(t)
	now := time.Now()
	tok := iss.Mint(t, jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			IssuedAt:  jwt.NewNumericDate(now.Add(-15 * time.Minute)),
			ExpiresAt: jwt.NewNumericDate(now.Add(-10 * time.Second)),
		},
		Role: jwtauth.RoleAdmin,
	})
	if _, err := v.Verify(t.Context(), tok); err != nil {
		t.Fatalf("token expired 10s ago (within leeway) rejected: %v", err)
	}
}

func TestVerifyRefetchesOnUnknownKID(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	v := iss.NewVerifier(t) // periodic refresh at its 5-minute default
	if got := iss.JWKSRequests(); got != 1 {
		t.Fatalf("JWKS requests after start = %d, want 1", got)
	}
	oldToken := iss.Empresa(t, 1)

	iss.Rotate(t)
	newToken := iss.Empresa(t, 1)
	if _, err := v.Verify(t.Context(), newToken); err != nil {
		t.Fatalf("token signed with the rotated key: %v", err)
	}
	if got := iss.JWKSRequests(); got != 2 {
		t.Errorf("JWKS requests = %d, want 2 (one refetch)", got)
	}
	// The old key is still published, so its tokens stay valid.
	if _, err := v.Verify(t.Context(), oldToken); err != nil {
		t.Errorf("token signed with the old key: %v", err)
	}
	// Known kids are served from the cache.
	if _, err := v.Verify(t.Context(), newToken); err != nil {
		t.Fatal(err)
	}
	if got := iss.JWKSRequests(); got != 2 {
		t.Errorf("JWKS requests = %d, want still 2", got)
	}
}

func TestVerifyRateLimitsUnknownKIDRefetch(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	v := iss.NewVerifier(t)
	for i := range 5 {
		tok := sign(t, jwt.SigningMethodEdDSA, newKey(t), fmt.Sprintf("random-%d", i), goodClaims())
		start := time.Now()
		_, err := v.Verify(t.Context(), tok)
		// The first lookup refetches and finds nothing; the next ones are
		// refused by the limiter without asking auth.
		if !errors.Is(err, jwt.ErrTokenUnverifiable) || (i == 0 && !errors.Is(err, jwkset.ErrKeyNotFound)) {
			t.Fatalf("random kid %d: err = %v", i, err)
		}
		// Rate-limited lookups must fail fast, not queue the request.
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("random kid %d: Verify took %v", i, d)
		}
	}
	// The start-up fetch plus a single refetch.
	if got := iss.JWKSRequests(); got != 2 {
		t.Errorf("JWKS requests = %d, want 2", got)
	}
}

// A closed port, then the issuer listening there: auth starting after us.
func TestNewVerifierWhileAuthIsDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()

	iss := jwttest.NewIssuer(t)
	cfg := iss.Config()
	cfg.JWKSURL = "http://" + addr + jwttest.JWKSPath
	v, err := jwtauth.NewVerifier(t.Context(), cfg)
	if err != nil {
		t.Fatalf("NewVerifier with auth down: %v", err)
	}

	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("relisten on %s: %v", addr, err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: iss.Handler()}}
	srv.Start()
	t.Cleanup(srv.Close)

	claims, err := v.Verify(t.Context(), iss.Empresa(t, 5))
	if err != nil {
		t.Fatalf("Verify once auth is up: %v", err)
	}
	if claims.EmpresaID != 5 {
		t.Errorf("EmpresaID = %d, want 5", claims.EmpresaID)
	}
}

func TestNewVerifierWhileAuthAnswers503(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	iss.SetDown(true)
	v := iss.NewVerifier(t)
	iss.SetDown(false)

	if _, err := v.Verify(t.Context(), iss.Admin(t)); err != nil {
		t.Fatalf("Verify once auth is up: %v", err)
	}
	// The failed first fetch and the unknown-kid refetch (a background
	// retry may have come in between).
	if got := iss.JWKSRequests(); got < 2 {
		t.Errorf("JWKS requests = %d, want at least 2", got)
	}
}

// Auth still down when the first token arrives: that token's refetch
// fails too, and the next one is not allowed for unknownKIDRefreshEvery
// (30 s). The background fetches get the keys once auth is up, well
// before that.
func TestVerifierGetsTheKeysSoonAfterAuthComesUp(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	iss.SetDown(true)
	v := iss.NewVerifier(t)
	token := iss.Admin(t)
	if _, err := v.Verify(t.Context(), token); err == nil {
		t.Fatal("Verify succeeded while auth was down")
	}
	iss.SetDown(false)
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := v.Verify(t.Context(), token)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Verify still fails 10s after auth came up: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The background fetches stop with the verifier's context.
func TestStartupFetchesStopWithContext(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	iss.SetDown(true)
	ctx, cancel := context.WithCancel(t.Context())
	if _, err := jwtauth.NewVerifier(ctx, iss.Config()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for iss.JWKSRequests() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("JWKS requests = %d after 10s, want a background retry", iss.JWKSRequests())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	time.Sleep(100 * time.Millisecond) // let an in-flight fetch land
	n := iss.JWKSRequests()
	time.Sleep(2500 * time.Millisecond) // past the next retry or two
	if got := iss.JWKSRequests(); got != n {
		t.Errorf("JWKS requests went from %d to %d after ctx was cancelled", n, got)
	}
}

func TestPeriodicRefreshStopsWithContext(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	cfg := iss.Config()
	cfg.RefreshInterval = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if _, err := jwtauth.NewVerifier(ctx, cfg); err != nil {
		t.Fatal(err)
	}

	deadline := time.Now().Add(10 * time.Second)
	for iss.JWKSRequests() < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("JWKS requests = %d after 10s, want periodic refreshes", iss.JWKSRequests())
		}
		time.Sleep(10 * time.Millisecond)
	}

	cancel()
	time.Sleep(100 * time.Millisecond) // let an in-flight refresh land
	n := iss.JWKSRequests()
	time.Sleep(300 * time.Millisecond)
	if got := iss.JWKSRequests(); got != n {
		t.Errorf("JWKS requests went from %d to %d after ctx was cancelled", n, got)
	}
}

// A hand-written JWKS, as auth serves it, and the "use" rule: only keys
// published for signatures verify tokens.
func TestVerifyHonoursJWKUse(t *testing.T) {
	priv := newKey(t)
	x := base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey))
	for _, tt := range []struct {
		use    string
		wantOK bool
	}{
		{"sig", true},
		{"enc", false},
	} {
		t.Run(tt.use, func(t *testing.T) {
			body := fmt.Sprintf(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":%q,"kid":"k1","alg":"EdDSA","use":%q}]}`, x, tt.use)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(body))
			}))
			t.Cleanup(srv.Close)

			v, err := jwtauth.NewVerifier(t.Context(), jwtauth.Config{
				JWKSURL: srv.URL + jwttest.JWKSPath, Issuer: jwttest.IssuerID, Audience: jwttest.Audience,
			})
			if err != nil {
				t.Fatal(err)
			}
			_, err = v.Verify(t.Context(), sign(t, jwt.SigningMethodEdDSA, priv, "k1", goodClaims()))
			if (err == nil) != tt.wantOK {
				t.Errorf("use %q: err = %v, want ok=%v", tt.use, err, tt.wantOK)
			}
		})
	}
}

func TestNewVerifierConfig(t *testing.T) {
	good := jwtauth.Config{JWKSURL: "http://127.0.0.1:1/jwks.json", Issuer: "i", Audience: "a"}
	for name, mutate := range map[string]func(*jwtauth.Config){
		"no JWKSURL":  func(c *jwtauth.Config) { c.JWKSURL = "" },
		"no Issuer":   func(c *jwtauth.Config) { c.Issuer = "" },
		"no Audience": func(c *jwtauth.Config) { c.Audience = "" },
		"bad URL":     func(c *jwtauth.Config) { c.JWKSURL = "not a url" },
	} {
		cfg := good
		mutate(&cfg)
		if _, err := jwtauth.NewVerifier(t.Context(), cfg); err == nil {
			t.Errorf("%s: NewVerifier succeeded", name)
		}
	}
}

func TestNewVerifierFromKeyfunc(t *testing.T) {
	priv := newKey(t)
	v := jwtauth.NewVerifierFromKeyfunc(func(*jwt.Token) (any, error) {
		return priv.Public(), nil
	}, jwttest.IssuerID, jwttest.Audience)

	if _, err := v.Verify(t.Context(), sign(t, jwt.SigningMethodEdDSA, priv, "static", goodClaims())); err != nil {
		t.Fatalf("valid token: %v", err)
	}
	// The same rules apply as with a JWKS.
	if _, err := v.Verify(t.Context(), sign(t, jwt.SigningMethodEdDSA, priv, nil, goodClaims())); !errors.Is(err, jwtauth.ErrMissingKID) {
		t.Errorf("no kid: err = %v", err)
	}
	bad := goodClaims()
	bad.Issuer = "other"
	if _, err := v.Verify(t.Context(), sign(t, jwt.SigningMethodEdDSA, priv, "static", bad)); !errors.Is(err, jwt.ErrTokenInvalidIssuer) {
		t.Errorf("wrong iss: err = %v", err)
	}
}

// An Ed25519 signature is 64 bytes: 86 base64url characters whose last
// one carries 2 bits of the signature and 4 padding bits that must be 0.
// Setting those bits spells the same signature differently; a strict
// parser refuses it, and so does Verify, even after the canonical token
// was verified (and cached).
func TestVerifyRejectsNonCanonicalBase64(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	v := iss.NewVerifier(t)
	tok := iss.Funcionario(t, 7, 9)
	if _, err := v.Verify(t.Context(), tok); err != nil {
		t.Fatalf("canonical token refused: %v", err)
	}
	dot := strings.LastIndexByte(tok, '.')
	sig := tok[dot+1:]
	canonical, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || len(sig) != 86 {
		t.Fatalf("signature %q: %v", sig, err)
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, sig[85])
	alt := sig[:85] + string(alphabet[last|0x1])
	loose, err := base64.RawURLEncoding.DecodeString(alt)
	if err != nil || !bytes.Equal(loose, canonical) {
		t.Fatalf("the altered signature should decode leniently to the same bytes: %v", err)
	}
	if _, err := v.Verify(t.Context(), tok[:dot+1]+alt); err == nil {
		t.Fatal("a non-canonical signature was accepted")
	}
}

// Ready fails until the verifier holds auth's keys: a replica started
// while auth is down stays out of the load balancer instead of refusing
// valid tokens, and turns Ready once the keys arrive.
func TestReadyWaitsForTheKeys(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	iss.SetDown(true)
	v, err := jwtauth.NewVerifier(t.Context(), iss.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Ready(t.Context()); !errors.Is(err, jwtauth.ErrNoKeys) {
		t.Fatalf("Ready without keys = %v, want ErrNoKeys", err)
	}
	iss.SetDown(false)
	deadline := time.Now().Add(5 * time.Second)
	for v.Ready(t.Context()) != nil && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if err := v.Ready(t.Context()); err != nil {
		t.Fatalf("Ready once auth answers = %v", err)
	}
	if _, err := v.Verify(t.Context(), iss.Empresa(t, 1)); err != nil {
		t.Fatalf("a valid token once Ready: %v", err)
	}
}
