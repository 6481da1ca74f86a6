package jwtauth

import (
	"crypto/ed25519"
	"sync"

	"github.com/golang-jwt/jwt/v5"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// A token seen for the first time costs its Ed25519 check, and at a shift
// change every token is new: the check was a third of timekeeping's CPU
// for such a clock-in (docs/performance.md). crypto/ed25519 decodes the
// key and builds its table on every call; curve25519-voi (a port of
// curve25519-dalek, the verifier CometBFT runs on) keeps a key expanded
// and checks a signature in half the time.
//
// So the EdDSA method golang-jwt picks for a token's "alg" is replaced,
// for every parser in the process, by one that checks the signature
// against a key expanded once per JWKS key (expandedKeys), with the
// standard library's rules (VerifyOptionsStdLib): the same signatures
// pass and fail as with crypto/ed25519. Any other key type, and signing,
// stay golang-jwt's own.
func init() {
	jwt.RegisterSigningMethod(jwt.SigningMethodEdDSA.Alg(), func() jwt.SigningMethod { return eddsa })
}

var eddsa = &expandedEd25519{jwt.SigningMethodEdDSA}

// stdlibRules are crypto/ed25519's verification rules: cofactorless,
// a canonical S, any A and R the standard library decodes.
var stdlibRules = &voi.Options{Verify: voi.VerifyOptionsStdLib}

// expandedEd25519 is golang-jwt's EdDSA whose Verify also takes a key
// expanded by curve25519-voi.
type expandedEd25519 struct {
	*jwt.SigningMethodEd25519
}

func (m *expandedEd25519) Verify(signingString string, sig []byte, key any) error {
	k, ok := key.(*voi.ExpandedPublicKey)
	if !ok {
		return m.SigningMethodEd25519.Verify(signingString, sig, key)
	}
	if !voi.VerifyExpandedWithOptions(k, []byte(signingString), sig, stdlibRules) {
		return jwt.ErrEd25519Verification
	}
	return nil
}

// maxExpandedKeys bounds expandedKeys: auth publishes a couple of keys at
// a time (the current one and those still valid), and only keys of the
// JWKS reach it. Past the bound it starts over.
const maxExpandedKeys = 16

// expandedKeys keeps the expanded form (about 1.5 KiB) of each key tokens
// were checked against.
type expandedKeys struct {
	mu   sync.RWMutex
	keys map[[ed25519.PublicKeySize]byte]*voi.ExpandedPublicKey
}

// expand is key ready for expandedEd25519: an Ed25519 public key
// expanded, anything else as it is (golang-jwt then refuses it).
func (e *expandedKeys) expand(key any) (any, error) {
	pub, ok := key.(ed25519.PublicKey)
	if !ok || len(pub) != ed25519.PublicKeySize {
		return key, nil
	}
	id := [ed25519.PublicKeySize]byte(pub)
	e.mu.RLock()
	k, ok := e.keys[id]
	e.mu.RUnlock()
	if ok {
		return k, nil
	}
	k, err := voi.NewExpandedPublicKey(voi.PublicKey(pub))
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.keys == nil || len(e.keys) >= maxExpandedKeys {
		e.keys = map[[ed25519.PublicKeySize]byte]*voi.ExpandedPublicKey{}
	}
	e.keys[id] = k
	return k, nil
}
