// Package password hashes and checks account passwords with bcrypt and
// holds the strength rule every account shares.
package password

import (
	"errors"
	"fmt"
	"unicode"

	"golang.org/x/crypto/bcrypt"
)

// Cost is bcrypt's work factor: about 50 ms per hash on one core here,
// slow enough to make offline guessing expensive, fast enough for logins.
const Cost = 10

// MaxBytes is bcrypt's input limit; longer passwords would be silently
// truncated, so they are refused instead.
const MaxBytes = 72

// ErrWeak explains the rule; it is a pt-BR sentence meant for the client.
var ErrWeak = errors.New("a senha deve ter de 8 a 72 caracteres, com letras e números")

// CheckStrength returns ErrWeak unless p has 8 to 72 bytes with at least one
// letter and one digit.
func CheckStrength(p string) error {
	if len([]rune(p)) < 8 || len(p) > MaxBytes {
		return ErrWeak
	}
	var letter, digit bool
	for _, r := range p {
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.IsDigit(r)
	}
	if !letter || !digit {
		return ErrWeak
	}
	return nil
}

// Hash returns the bcrypt hash of p.
func Hash(p string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(p), Cost)
	if err != nil {
		return "", fmt.Errorf("password: hash: %w", err)
	}
	return string(h), nil
}

// dummy is compared against when the account does not exist, so that an
// unknown e-mail costs the same time as a wrong password.
var dummy, _ = bcrypt.GenerateFromPassword([]byte("ponto-dummy-password-0"), Cost)

// Matches reports whether p is the password behind hash. With an empty hash
// (unknown account) it still spends a full bcrypt comparison and says no.
func Matches(hash, p string) bool {
	if hash == "" {
		_ = bcrypt.CompareHashAndPassword(dummy, []byte(p))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(p)) == nil
}
