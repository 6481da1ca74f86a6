package jwttest_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
)

type jwk struct {
	KTY string `json:"kty"`
	CRV string `json:"crv"`
	X   string `json:"x"`
	D   string `json:"d"`
	KID string `json:"kid"`
	ALG string `json:"alg"`
	USE string `json:"use"`
}

func fetchJWKS(t *testing.T, url string) []jwk {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	var set struct{ Keys []jwk }
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		t.Fatal(err)
	}
	return set.Keys
}

// The JWKS has the shape auth publishes and only public material.
func TestJWKS(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	keys := fetchJWKS(t, iss.JWKSURL())
	if len(keys) != 1 {
		t.Fatalf("keys = %d, want 1", len(keys))
	}
	kid, priv := iss.SigningKey()
	k := keys[0]
	if k.KTY != "OKP" || k.CRV != "Ed25519" || k.ALG != "EdDSA" || k.USE != "sig" || k.KID != kid {
		t.Errorf("jwk = %+v", k)
	}
	if k.D != "" {
		t.Error("JWKS leaks the private key")
	}
	x, err := base64.RawURLEncoding.DecodeString(k.X)
	if err != nil || !ed25519.PublicKey(x).Equal(priv.Public()) {
		t.Errorf("x = %q does not encode the signing key's public key (%v)", k.X, err)
	}

	iss.Rotate(t)
	newKID, _ := iss.SigningKey()
	keys = fetchJWKS(t, iss.JWKSURL())
	if len(keys) != 2 || keys[0].KID != kid || keys[1].KID != newKID || newKID == kid {
		t.Errorf("after Rotate: keys = %+v, want old %q and new %q", keys, kid, newKID)
	}

	iss.SetDown(true)
	resp, err := http.Get(iss.JWKSURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("down: status = %d, want 503", resp.StatusCode)
	}
	if got := iss.JWKSRequests(); got != 3 {
		t.Errorf("JWKSRequests = %d, want 3", got)
	}
}
