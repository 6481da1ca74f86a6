// Package codes makes, keeps and checks the one-time login codes that
// employees receive by e-mail: 6 digits, valid 10 minutes, at most 5
// tries, usable once. Codes live in Redis only as an HMAC.
package codes

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
)

// Digits is the length of a code.
const Digits = 6

var codeSpace = big.NewInt(1_000_000)

// newCode draws a uniform 6-digit code from crypto/rand.
func newCode() string {
	n, err := rand.Int(rand.Reader, codeSpace)
	if err != nil {
		panic(err) // crypto/rand does not fail since Go 1.24
	}
	return fmt.Sprintf("%0*d", Digits, n.Int64())
}

// hasher turns a code into what is stored. With only 10^6 codes, a plain
// hash would be reversed at once; an HMAC under a server secret is not,
// without the secret. The e-mail key is mixed in so that equal codes of two
// employees never hash alike.
type hasher struct{ secret []byte }

func (h hasher) hash(emailKey, code string) string {
	m := hmac.New(sha256.New, h.secret)
	m.Write([]byte("ponto-login-code\x00" + emailKey + "\x00" + code))
	return hex.EncodeToString(m.Sum(nil))
}
