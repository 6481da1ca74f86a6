// Package validate collects the field errors of a request so that one 400
// answer names every offending field, and holds the checks the contract's
// formats need (e-mail, DD/MM/YYYY dates, HH:MM times, digits, lengths).
package validate

import (
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ponto/ponto/pkg/domainerr"
)

// Errors maps a field name to what is wrong with it (pt-BR).
type Errors map[string]string

// Check records message for field unless ok. The first problem of a field
// wins, so checks go from the most basic (required) to the finest.
func (e Errors) Check(ok bool, field, message string) {
	if ok {
		return
	}
	if _, seen := e[field]; !seen {
		e[field] = message
	}
}

// Required records "obrigatório" when s is blank.
func (e Errors) Required(s, field string) bool {
	ok := strings.TrimSpace(s) != ""
	e.Check(ok, field, "campo obrigatório")
	return ok
}

// RequiredEmail records "obrigatório" when s is blank, else "e-mail
// inválido" unless s is an address Email accepts.
func (e Errors) RequiredEmail(s, field string) {
	if e.Required(s, field) {
		e.Check(Email(s), field, "e-mail inválido")
	}
}

// Length records a message unless s has between min and max characters.
func (e Errors) Length(s, field string, min, max int) {
	n := utf8.RuneCountInString(s)
	e.Check(n >= min && n <= max, field, "deve ter entre "+strconv.Itoa(min)+" e "+strconv.Itoa(max)+" caracteres")
}

// Err is nil when nothing was recorded, else an invalid-input domain error
// naming every field.
func (e Errors) Err() error {
	if len(e) == 0 {
		return nil
	}
	return domainerr.Invalid(e)
}

// Email reports whether s is a bare address (no display name) of at most
// 254 characters whose domain has a dot.
func Email(s string) bool {
	if len(s) > 254 || strings.TrimSpace(s) != s {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	return at > 0 && strings.Contains(s[at+1:], ".") && !strings.HasSuffix(s, ".")
}

// DateBR parses a DD/MM/YYYY date that exists on the calendar
// (31/02/2024 is refused, 29/02/2024 accepted).
func DateBR(s string) (time.Time, bool) {
	if len(s) != len("02/01/2006") {
		return time.Time{}, false
	}
	t, err := time.Parse("02/01/2006", s)
	return t, err == nil
}

// DateISO parses a YYYY-MM-DD date that exists on the calendar.
func DateISO(s string) (time.Time, bool) {
	if len(s) != len("2006-01-02") {
		return time.Time{}, false
	}
	t, err := time.Parse(time.DateOnly, s)
	return t, err == nil
}

var hhmm = regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d$`)

// ClockTime parses an HH:MM time of day (00:00 to 23:59) into minutes
// after midnight.
func ClockTime(s string) (int, bool) {
	if !hhmm.MatchString(s) {
		return 0, false
	}
	return int(s[0]-'0')*600 + int(s[1]-'0')*60 + int(s[3]-'0')*10 + int(s[4]-'0'), true
}

// Digits reports whether s is made of ASCII digits only, between min and
// max of them.
func Digits(s string, min, max int) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
