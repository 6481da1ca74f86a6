package jwtauth

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func cacheTestToken(t *testing.T, priv ed25519.PrivateKey, ttl time.Duration) string {
	t.Helper()
	now := time.Now()
	tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, &Claims{
		RegisteredClaims: jwt.RegisteredClaims{Issuer: "iss", Audience: jwt.ClaimStrings{"aud"}, Subject: "funcionario:3",
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(ttl))},
		Role: RoleFuncionario, EmpresaID: 2, FuncionarioID: 3,
	})
	tok.Header["kid"] = "k"
	s, err := tok.SignedString(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A token is verified once; later requests with it within the TTL take
// the cached claims, and after the TTL it is verified again.
func TestVerifiedTokensAreCached(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	var lookups atomic.Int32
	v := NewVerifierFromKeyfunc(func(*jwt.Token) (any, error) {
		lookups.Add(1)
		return priv.Public(), nil
	}, "iss", "aud")
	clock := time.Now()
	v.now = func() time.Time { return clock }
	tok := cacheTestToken(t, priv, 15*time.Minute)

	for range 3 {
		c, err := v.Verify(t.Context(), tok)
		if err != nil || c.FuncionarioID != 3 || c.EmpresaID != 2 || c.Role != RoleFuncionario {
			t.Fatalf("claims %+v, %v", c, err)
		}
		c.FuncionarioID = 99 // a caller changing its copy changes nothing for the next
	}
	if n := lookups.Load(); n != 1 {
		t.Fatalf("signature checked %d times, want once", n)
	}
	clock = clock.Add(verifiedTTL)
	if _, err := v.Verify(t.Context(), tok); err != nil {
		t.Fatal(err)
	}
	if n := lookups.Load(); n != 2 {
		t.Fatalf("after the TTL: %d checks, want 2", n)
	}
}

// A refused token is never cached, and a cached one is never served past
// its expiry.
func TestVerifiedCacheRespectsFailuresAndExpiry(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	var lookups atomic.Int32
	v := NewVerifierFromKeyfunc(func(*jwt.Token) (any, error) {
		lookups.Add(1)
		return priv.Public(), nil
	}, "iss", "aud")
	forged := cacheTestToken(t, other, 15*time.Minute)
	for range 2 {
		if _, err := v.Verify(t.Context(), forged); err == nil {
			t.Fatal("token signed by another key accepted")
		}
	}
	if n := lookups.Load(); n != 2 {
		t.Fatalf("refused token checked %d times, want every time", n)
	}

	short := cacheTestToken(t, priv, 5*time.Second)
	if _, err := v.Verify(t.Context(), short); err != nil {
		t.Fatal(err)
	}
	key := sha256.Sum256([]byte(short))
	if _, ok := v.verified.get(key, time.Now().Add(5*time.Second+Leeway)); ok {
		t.Fatal("cached claims served after the token expired")
	}
	if _, ok := v.verified.get(key, time.Now()); !ok {
		t.Fatal("valid token not cached")
	}
}

func TestVerifiedCacheIsBounded(t *testing.T) {
	c := newVerifiedCache()
	now := time.Now()
	claims := &Claims{Role: RoleAdmin}
	for i := range verifiedMax + 10 {
		c.put(sha256.Sum256([]byte{byte(i), byte(i >> 8), byte(i >> 16)}), claims, now)
	}
	if n := len(c.entries); n > verifiedMax {
		t.Fatalf("%d entries, bound %d", n, verifiedMax)
	}
}
