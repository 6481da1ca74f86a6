package validate

import (
	"unicode/utf8"
)

// MsgBadText is the field message for text that Text refuses.
const MsgBadText = "contém caracteres não permitidos"

// Text reports whether s is text a person could have typed into a form:
// valid UTF-8 without the Unicode replacement character (what a decoder
// makes of invalid bytes and lone surrogates), without C0 and C1 control
// characters or DEL, and without the bidirectional embeddings, overrides
// and isolates that make a name display as something else (U+202A–U+202E,
// U+2066–U+2069). A multiline field also accepts tab, CR and LF.
//
// PostgreSQL refuses NUL in text, and the other characters corrupt what
// is shown to people (names on receipts, the AFD, reports), so they are
// refused at the edge rather than stored.
func Text(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf { // ASCII fast path: most text is
			if (b < 0x20 || b == 0x7f) && !(multiline && (b == '\t' || b == '\n' || b == '\r')) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !textRune(r) {
			return false
		}
		i += size
	}
	return true
}

// textRune reports whether a non-ASCII rune may appear in text.
// utf8.RuneError covers both invalid bytes and a literal U+FFFD.
func textRune(r rune) bool {
	switch {
	case r == utf8.RuneError:
		return false
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return false
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return false
	}
	return true
}

// CheckText records MsgBadText for field unless Text(s, multiline).
func (e Errors) CheckText(s, field string, multiline bool) bool {
	ok := Text(s, multiline)
	e.Check(ok, field, MsgBadText)
	return ok
}
