// Package accounts decides who may log in: admins come from
// configuration; companies and employees are asked of company-billing and
// employee through their clients (internal/clients).
package accounts

import (
	"fmt"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/pkg/validate"
)

// Admins maps a lower-case e-mail to its bcrypt hash. Admins are
// provisioned only through configuration (AUTH_ADMINS, from a Secret),
// never through a public route.
type Admins map[string]string

// ParseAdmins reads "email:bcrypthash,email2:hash2". Every entry must be a
// valid e-mail with a bcrypt hash (make one with `htpasswd -bnBC 10 "" pw`
// or password.Hash), so a typo fails the start-up instead of locking an
// admin out. An empty string means no admins.
func ParseAdmins(s string) (Admins, error) {
	admins := Admins{}
	for entry := range strings.SplitSeq(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		email, hash, ok := strings.Cut(entry, ":")
		email = NormalizeEmail(email)
		if !ok || !validate.Email(email) {
			return nil, fmt.Errorf("AUTH_ADMINS: entry %d: want email:bcrypthash", len(admins)+1)
		}
		if _, err := bcrypt.Cost([]byte(hash)); err != nil {
			return nil, fmt.Errorf("AUTH_ADMINS: %s: not a bcrypt hash: %w", email, err)
		}
		if _, dup := admins[email]; dup {
			return nil, fmt.Errorf("AUTH_ADMINS: %s listed twice", email)
		}
		admins[email] = hash
	}
	return admins, nil
}

// Check reports whether email is an admin and whether password is right.
// An e-mail that is no admin still costs a full bcrypt comparison, so
// timing does not tell admins apart.
func (a Admins) Check(email, pw string) (isAdmin, ok bool) {
	hash, isAdmin := a[NormalizeEmail(email)]
	ok = password.Matches(hash, pw)
	return isAdmin, ok && isAdmin
}

// Has reports whether email is still a configured admin.
func (a Admins) Has(email string) bool {
	_, ok := a[NormalizeEmail(email)]
	return ok
}

// NormalizeEmail is the form e-mails take in keys and comparisons: e-mail
// addresses are matched case-insensitively in practice.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }
