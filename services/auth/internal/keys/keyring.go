package keys

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/clock"
)

// Keyring is the current key set. Readers never lock: Reload swaps the
// whole set at once, so a request sees either the old or the new keys.
type Keyring struct {
	dir string
	set atomic.Pointer[keySet]
}

type keySet struct {
	keys []Key  // ordered by name; the last signs
	jwks []byte // rendered once per load
}

// Open loads dir; it fails when the directory holds no usable key, so the
// service never starts unable to sign.
func Open(dir string) (*Keyring, error) {
	r := &Keyring{dir: dir}
	if err := r.Reload(); err != nil {
		return nil, err
	}
	return r, nil
}

// Reload reads the directory again. On error the current set is kept.
func (r *Keyring) Reload() error {
	keys, err := LoadDir(r.dir)
	if err != nil {
		return err
	}
	jwks, err := renderJWKS(keys)
	if err != nil {
		return err
	}
	r.set.Store(&keySet{keys: keys, jwks: jwks})
	return nil
}

// Watch reloads the directory every interval until ctx ends, so keys
// added to or removed from the mounted Secret take effect without a
// restart. A failed reload keeps the keys in use and is logged.
func (r *Keyring) Watch(ctx context.Context, interval time.Duration, log *slog.Logger) {
	clock.Every(ctx, interval, func() {
		before := r.Signing().ID
		if err := r.Reload(); err != nil {
			log.ErrorContext(ctx, "keys: reload failed; keeping the current keys", "dir", r.dir, "err", err)
			return
		}
		if after := r.Signing().ID; after != before {
			log.InfoContext(ctx, "keys: signing key changed", "kid", after, "published", len(r.All()))
		}
	})
}

// Signing is the key that signs new tokens: the one whose file name sorts
// last.
func (r *Keyring) Signing() Key {
	keys := r.set.Load().keys
	return keys[len(keys)-1]
}

// All returns every published key, oldest first.
func (r *Keyring) All() []Key { return slices.Clone(r.set.Load().keys) }

// JWKS is the JSON Web Key Set of every published key.
func (r *Keyring) JWKS() []byte { return r.set.Load().jwks }

// jwk is an RFC 8037 OKP public key with the metadata verifiers filter on.
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Kid string `json:"kid"`
	Alg string `json:"alg"`
	Use string `json:"use"`
}

func renderJWKS(keys []Key) ([]byte, error) {
	set := struct {
		Keys []jwk `json:"keys"`
	}{Keys: make([]jwk, 0, len(keys))}
	// Newest first: it is the one verifiers will need most.
	for _, k := range slices.Backward(keys) {
		set.Keys = append(set.Keys, jwk{Kty: "OKP", Crv: "Ed25519", X: b64(k.Public), Kid: k.ID, Alg: "EdDSA", Use: "sig"})
	}
	return json.Marshal(set)
}

// Keyfunc finds the public key of a token's kid among the keyring's keys,
// for auth's own verifier (the service tokens on its internal routes).
func (r *Keyring) Keyfunc(t *jwt.Token) (any, error) {
	kid, _ := t.Header["kid"].(string)
	for _, k := range r.set.Load().keys {
		if k.ID == kid {
			return k.Public, nil
		}
	}
	return nil, fmt.Errorf("keys: unknown kid %q", kid)
}
