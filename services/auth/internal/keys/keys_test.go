package keys

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// RFC 8037 A.3: the thumbprint of the RFC's Ed25519 example key.
func TestThumbprintRFC8037(t *testing.T) {
	x, err := base64.RawURLEncoding.DecodeString("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Thumbprint(ed25519.PublicKey(x)), "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"; got != want {
		t.Fatalf("thumbprint %s, want %s", got, want)
	}
}

func TestLoadDirOrderAndJWKS(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	_, older, err := Generate(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	_, newer, err := Generate(dir, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// Hidden entries (a mounted Secret's ..data) and other files are skipped.
	if err := os.Mkdir(filepath.Join(dir, "..data"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Same second twice: refused rather than overwritten.
	if _, _, err := Generate(dir, now); err == nil {
		t.Fatal("Generate overwrote a key")
	}

	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Signing().ID != newer.ID {
		t.Errorf("signing %s, want the newer key %s", r.Signing().Name, newer.Name)
	}
	if all := r.All(); len(all) != 2 || all[0].ID != older.ID {
		t.Errorf("keys %v", all)
	}
	var set struct {
		Keys []map[string]string `json:"keys"`
	}
	if err := json.Unmarshal(r.JWKS(), &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Keys) != 2 || set.Keys[0]["kid"] != newer.ID || set.Keys[0]["x"] != base64.RawURLEncoding.EncodeToString(newer.Public) {
		t.Errorf("JWKS %s", r.JWKS())
	}
}

func TestLoadDirRefusesBadFiles(t *testing.T) {
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(ecKey)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		"not PEM":     []byte("hello"),
		"not ed25519": pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}),
		"wrong type":  pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "k.pem")
			if err := os.WriteFile(path, content, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("want an error naming %s, got %v", path, err)
			}
		})
	}
	if _, err := LoadDir(t.TempDir()); !errors.Is(err, ErrNoKeys) {
		t.Fatalf("empty dir: %v", err)
	}
}
