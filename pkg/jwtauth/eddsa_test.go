package jwtauth

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// The EdDSA check golang-jwt uses is the expanded-key one, and it takes
// the same decisions as crypto/ed25519 on well-formed, tampered and
// edge-case signatures and keys.
func TestExpandedEd25519MatchesTheStandardLibrary(t *testing.T) {
	if got := jwt.GetSigningMethod("EdDSA"); got != eddsa {
		t.Fatalf(`GetSigningMethod("EdDSA") = %T, want the expanded-key method`, got)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	otherPub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJmdW5jaW9uYXJpbzo3In0")
	sig := ed25519.Sign(priv, msg)

	// identity is the neutral point's canonical encoding (y = 1), and
	// identityAlias another spelling of it (y = p + 1): keys of small order
	// and non-canonical keys, which crypto/ed25519 decodes. With R the
	// identity and S = 0 such a key "signs" every message.
	identity := fromHex(t, "0100000000000000000000000000000000000000000000000000000000000000")
	identityAlias := fromHex(t, "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
	trivial := append(slices.Clone(identity), make([]byte, 32)...)

	cases := []struct {
		name string
		key  ed25519.PublicKey
		msg  []byte
		sig  []byte
		want bool
	}{
		{"valid", pub, msg, sig, true},
		{"another message", pub, append(slices.Clone(msg), '.'), sig, false},
		{"another key", otherPub, msg, sig, false},
		{"R altered", pub, msg, flip(sig, 3), false},
		{"S altered", pub, msg, flip(sig, 40), false},
		{"S + L (non-canonical S)", pub, msg, withSPlusL(sig), false},
		{"short signature", pub, msg, sig[:63], false},
		{"empty signature", pub, msg, nil, false},
		{"identity key, trivial signature", identity, msg, trivial, true},
		{"non-canonical identity key, trivial signature", identityAlias, msg, trivial, true},
	}
	var keys expandedKeys
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			std := ed25519.Verify(c.key, c.msg, c.sig)
			if std != c.want {
				t.Fatalf("crypto/ed25519 says %v, the case expects %v", std, c.want)
			}
			k, err := keys.expand(c.key)
			if err != nil {
				t.Fatalf("expand: %v", err)
			}
			if _, ok := k.(ed25519.PublicKey); ok {
				t.Fatal("expand left the key as it was")
			}
			got := eddsa.Verify(string(c.msg), c.sig, k) == nil
			if got != std {
				t.Errorf("expanded key says %v, crypto/ed25519 %v", got, std)
			}
			if plain := eddsa.Verify(string(c.msg), c.sig, c.key) == nil; plain != std {
				t.Errorf("plain key says %v, crypto/ed25519 %v", plain, std)
			}
		})
	}
}

// A key that is not Ed25519 goes through as it is, and golang-jwt
// refuses it.
func TestExpandedEd25519RefusesOtherKeys(t *testing.T) {
	var keys expandedKeys
	for _, key := range []any{[]byte("secret"), ed25519.PublicKey(make([]byte, 31)), nil} {
		k, err := keys.expand(key)
		if err != nil {
			t.Fatalf("expand(%T): %v", key, err)
		}
		if err := eddsa.Verify("a.b", make([]byte, 64), k); err == nil {
			t.Errorf("Verify with a %T key succeeded", key)
		}
	}
}

// Each JWKS key is expanded once, and the set stays bounded.
func TestExpandedKeysAreKeptAndBounded(t *testing.T) {
	var keys expandedKeys
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a, _ := keys.expand(pub)
	b, _ := keys.expand(slices.Clone(pub))
	if a != b {
		t.Error("the same key was expanded twice")
	}
	for range 3 * maxExpandedKeys {
		p, _, _ := ed25519.GenerateKey(rand.Reader)
		if _, err := keys.expand(p); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(keys.keys); n > maxExpandedKeys {
		t.Errorf("%d expanded keys kept, at most %d expected", n, maxExpandedKeys)
	}
}

// BenchmarkVerifyNewToken is the check of a token seen for the first
// time (a clock-in at a shift change): parse, key lookup, signature,
// claims. Each iteration verifies a token not verified before.
func BenchmarkVerifyNewToken(b *testing.B) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	v := NewVerifierFromKeyfunc(func(*jwt.Token) (any, error) { return pub, nil }, "ponto-auth", "ponto-api")
	now := time.Now()
	tokens := make([]string, 4096)
	for i := range tokens {
		tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, &Claims{
			RegisteredClaims: jwt.RegisteredClaims{
				Issuer: "ponto-auth", Audience: jwt.ClaimStrings{"ponto-api"},
				Subject:  fmt.Sprintf("funcionario:%d", i+1),
				IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(15 * time.Minute)),
			},
			Role: RoleFuncionario, EmpresaID: 7, FuncionarioID: int64(i + 1),
		})
		tok.Header["kid"] = "k1"
		if tokens[i], err = tok.SignedString(priv); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%len(tokens) == 0 {
			v.verified = newVerifiedCache() // every token new again
		}
		if _, err := v.Verify(b.Context(), tokens[i%len(tokens)]); err != nil {
			b.Fatal(err)
		}
	}
}

func fromHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// flip is sig with one bit of byte i inverted.
func flip(sig []byte, i int) []byte {
	out := slices.Clone(sig)
	out[i] ^= 0x10
	return out
}

// withSPlusL is sig with its scalar S replaced by S + L, the group order:
// the same point, a non-canonical scalar, which RFC 8032 refuses.
func withSPlusL(sig []byte) []byte {
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	s := new(big.Int).SetBytes(reversed(sig[32:]))
	out := slices.Clone(sig)
	copy(out[32:], reversed(s.Add(s, l).FillBytes(make([]byte, 32))))
	return out
}

func reversed(b []byte) []byte {
	out := slices.Clone(b)
	slices.Reverse(out)
	return out
}
