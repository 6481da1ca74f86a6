// Package keys holds auth's Ed25519 signing keys: it loads them from PEM
// files (a Kubernetes Secret mounted as a directory), picks the one that
// signs, publishes all of them as a JWKS and generates new ones.
//
// Rotation: every *.pem file in the directory is published, so tokens
// signed with an older key keep verifying while that file is there; the
// file whose name sorts last signs. Key files are named after their
// creation time in UTC (2026-11-21T120000Z.pem, see Generate), so "sorts
// last" means "newest", the same on every replica whatever the mtimes of
// the mounted files. To rotate: add a newer file, wait for the old tokens
// to expire (15 minutes plus the verifiers' JWKS refresh), remove the old
// file.
package keys

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Key is one signing key.
type Key struct {
	// Name is the file name the key was read from; it orders the keys.
	Name string
	// ID is the RFC 7638 JWK thumbprint of the public key: stable across
	// restarts and replicas, and it needs no bookkeeping.
	ID      string
	Private ed25519.PrivateKey
	Public  ed25519.PublicKey
}

// ErrNoKeys means the directory holds no *.pem file.
var ErrNoKeys = errors.New("no signing key")

// LoadDir reads every *.pem file of dir, ordered by file name (the last
// one signs). Hidden files are skipped, which also skips the "..data"
// entries Kubernetes adds to a mounted Secret. A file that is not a PKCS#8
// Ed25519 private key is an error: silently skipping it could leave the
// service signing with a key the operator meant to retire.
func LoadDir(dir string) ([]Key, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.pem"))
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	var keys []Key
	for _, p := range paths {
		if filepath.Base(p)[0] == '.' {
			continue
		}
		if info, err := os.Stat(p); err != nil || info.IsDir() {
			continue
		}
		k, err := loadFile(p)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w in %s: create one with `auth keygen` (AUTH_KEYS_DIR=%s)", ErrNoKeys, dir, dir)
	}
	return keys, nil
}

func loadFile(path string) (Key, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Key{}, fmt.Errorf("signing key %s: %w", path, err)
	}
	priv, err := Parse(raw)
	if err != nil {
		return Key{}, fmt.Errorf("signing key %s: %w", path, err)
	}
	return NewKey(filepath.Base(path), priv), nil
}

// Parse decodes a PEM "PRIVATE KEY" block holding a PKCS#8 Ed25519 key.
func Parse(pemBytes []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, errors.New(`not a PEM "PRIVATE KEY" (PKCS#8) block`)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("PKCS#8: %w", err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("want an Ed25519 key, got %T", k)
	}
	return priv, nil
}

// NewKey wraps priv with its public half and kid.
func NewKey(name string, priv ed25519.PrivateKey) Key {
	pub := priv.Public().(ed25519.PublicKey)
	return Key{Name: name, ID: Thumbprint(pub), Private: priv, Public: pub}
}

// Thumbprint is the RFC 7638 thumbprint of an Ed25519 public key (RFC 8037
// section A.3): SHA-256 over the required members in lexical order, no
// whitespace, base64url without padding.
func Thumbprint(pub ed25519.PublicKey) string {
	canonical := `{"crv":"Ed25519","kty":"OKP","x":"` + b64(pub) + `"}`
	sum := sha256.Sum256([]byte(canonical))
	return b64(sum[:])
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
