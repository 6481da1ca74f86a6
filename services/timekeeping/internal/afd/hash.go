// Package afd is the one place that says what a punch's NSR-chained hash
// covers. The stored hash is the one the AFD (Arquivo Fonte de Dados,
// Portaria MTP 671/2021, layout 003) carries in each type-7 record of a
// REP-P, so the AFD export can write it as is:
//
//	hash(n) = lowercase hex SHA-256( Prefix7(n) + hash(n-1) )
//
// where hash(n-1) is the previous punch of the same company (by NSR) and is
// empty for NSR 1. Prefix7 is the type-7 record's first 73 characters:
//
//	pos  len  field
//	1    9    NSR, zero-padded
//	10   1    record type "7"
//	11   24   punch date-time, AAAA-MM-ddThh:mm:00-0300 (seconds always 00)
//	35   12   CPF, digits, zero-padded to 12
//	47   24   recording date-time, AAAA-MM-ddThh:mm:ss-0300
//	71   2    collector: 01 mobile app, 02 browser, 03 desktop app, 04 device, 05 other
//	73   1    0 on-line, 1 off-line
//
// Both date-times are the server's stamp of the punch in the company's UTC
// offset at that instant (the punch is recorded when it is made). The
// official text leaves the exact chaining input and the hex letter case
// open; this is the reading chosen here. Changing it means changing only
// this file (and re-verifying stored chains).
package afd

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Collector codes of field 6.
const (
	ColetorMobile  = "01"
	ColetorBrowser = "02"
	ColetorDesktop = "03"
	ColetorDevice  = "04"
	ColetorOutro   = "05"
)

// onLine is field 7: punches reach the server when they are made.
const onLine = "0"

// Prefix7Len is the length of the hashed part of a type-7 record.
const Prefix7Len = 73

// Marcacao is what a type-7 record says about one punch.
type Marcacao struct {
	NSR int64
	// Horario is the server's stamp of the punch.
	Horario time.Time
	// OffsetMinutes is the company's UTC offset at Horario (-180 for
	// America/Sao_Paulo).
	OffsetMinutes int
	// CPF holds the employee's CPF; anything but digits is ignored.
	CPF     string
	Coletor string
}

// Prefix7 renders the type-7 record's first 73 characters.
func Prefix7(m Marcacao) (string, error) {
	cpf := digits(m.CPF)
	switch {
	case m.NSR < 1 || m.NSR > 999_999_999:
		return "", fmt.Errorf("afd: NSR %d out of range", m.NSR)
	case len(cpf) == 0 || len(cpf) > 12:
		return "", fmt.Errorf("afd: CPF must have 1 to 12 digits")
	case len(m.Coletor) != 2:
		return "", fmt.Errorf("afd: collector %q", m.Coletor)
	}
	local := m.Horario.In(time.FixedZone("", m.OffsetMinutes*60))
	s := fmt.Sprintf("%09d7%s%s%s%s%s", m.NSR,
		local.Format("2006-01-02T15:04:00-0700"), pad12(cpf),
		local.Format("2006-01-02T15:04:05-0700"), m.Coletor, onLine)
	if len(s) != Prefix7Len {
		return "", fmt.Errorf("afd: type-7 prefix has %d characters", len(s))
	}
	return s, nil
}

// Hash chains m to the previous punch's hash (empty for the first).
func Hash(m Marcacao, anterior string) (string, error) {
	p, err := Prefix7(m)
	if err != nil {
		return "", err
	}
	return chain(p, anterior), nil
}

// chain is the hash of a type-7 record whose first 73 characters are
// prefix, following the record whose hash is anterior. The parser's
// verification calls it too, so export and check cannot drift apart.
func chain(prefix, anterior string) string {
	sum := sha256.Sum256([]byte(prefix + anterior))
	return hex.EncodeToString(sum[:])
}

// CPF12 is the CPF as field 4 writes it: 12 digits, zero-padded.
func CPF12(cpf string) string { return pad12(digits(cpf)) }

func pad12(d string) string {
	if len(d) >= 12 {
		return d
	}
	return strings.Repeat("0", 12-len(d)) + d
}

func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
