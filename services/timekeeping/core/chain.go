// The hash chain of a company's punches. The stored hash is the one the
// AFD (Portaria MTP 671/2021, Anexo V, layout 003) carries in each type-7
// record of a REP-P, so the AFD export writes it as stored:
//
//	hash(n) = lowercase hex SHA-256( prefix(n) + hash(n-1) )
//
// where hash(n-1) is the previous punch of the same company (by NSR) and is
// empty for the company's first punch. prefix(n) is the type-7 record's
// first 73 characters:
//
//	pos  len  field
//	1    9    NSR, zero-padded
//	10   1    record type "7"
//	11   24   punch date-time, AAAA-MM-ddThh:mm:00-0300
//	35   12   CPF, digits, zero-padded to 12
//	47   24   recording date-time, AAAA-MM-ddThh:mm:00-0300
//	71   2    collector: 01 mobile app, 02 browser, 03 desktop app, 04 device, 05 other
//	73   1    0 on-line, 1 off-line
//
// Both date-times are the server's stamp of the punch in the UTC offset of
// the employee's zone at that instant (the punch is recorded when it is
// made), except for an off-line punch (Anexo IX item 5): field 3 is the
// device's time of the punch, field 5 the server's at its arrival, and
// field 7 is "1". The official text leaves the exact chaining input and the hex
// letter case open; this is the reading chosen here.
//
// Hash rule versions. Version 1, which ponto used first, wrote the
// recording date-time with its seconds (hh:mm:ss), against Anexo V item 6
// (every DH field ends in ":00"). Version 2 hashes exactly the characters
// the AFD prints. Stored punches are never rewritten, so each punch keeps
// the version it was hashed with (registros_ponto.hash_versao), the
// writer uses HashVersion for new punches, and the verifiers take the
// version into account: with the stored fields (VerifyMarcacao) the
// version is known; in an AFD file, where a version-1 record's seconds
// are not printed, the verifier accepts the record when one of the 60
// possible seconds gives its hash (VerifyCadeia).
package core

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

// Field 7: "0" for a punch that reached the server when it was made, "1"
// for one recorded off-line and sent later (Anexo V, type 7, field 7).
const (
	onLine  = "0"
	offLine = "1"
)

// Prefix7Len is the length of the hashed part of a type-7 record.
const Prefix7Len = 73

// Hash rule versions (see the top of this file).
const (
	// HashV1 hashed the recording date-time with its seconds.
	HashV1 = 1
	// HashV2 hashes the type-7 record's first 73 characters as printed.
	HashV2 = 2
	// HashVersion is the version new punches are hashed with.
	HashVersion = HashV2
)

// Marcacao is what a type-7 record says about one punch.
type Marcacao struct {
	NSR int64
	// Horario is the server's stamp of the punch, or the device's for an
	// off-line one.
	Horario time.Time
	// Gravacao is the recording time (field 5) when it is not Horario:
	// the server's at the arrival of an off-line punch.
	Gravacao time.Time
	// OffLine is field 7: the punch was recorded off-line.
	OffLine bool
	// OffsetMinutes is the UTC offset of the employee's zone at Horario
	// (-180 for America/Sao_Paulo), stored with the punch.
	OffsetMinutes int
	// CPF holds the employee's CPF; anything but digits is ignored.
	CPF     string
	Coletor string
	// Versao is the hash rule the punch was hashed with; 0 means
	// HashVersion.
	Versao int
}

// dhFormat is Anexo V's DH format: seconds always "00".
const dhFormat = "2006-01-02T15:04:00-0700"

// Prefix7 renders the type-7 record's first 73 characters as the AFD
// prints them (and as HashV2 hashes them).
func Prefix7(m Marcacao) (string, error) {
	return prefix7(m, dhFormat)
}

// prefix7 renders the prefix with the recording date-time in recording's
// layout: dhFormat, or with seconds for HashV1.
func prefix7(m Marcacao, recording string) (string, error) {
	cpf := digits(m.CPF)
	switch {
	case checkNSR(m.NSR) != nil:
		return "", checkNSR(m.NSR)
	case len(cpf) == 0 || len(cpf) > 12:
		return "", fmt.Errorf("afd: CPF must have 1 to 12 digits")
	case !ColetorValido(m.Coletor):
		return "", fmt.Errorf("afd: collector %q", m.Coletor)
	}
	local := m.Horario.In(fixed(m.OffsetMinutes))
	gravacao := local
	if !m.Gravacao.IsZero() {
		gravacao = m.Gravacao.In(fixed(m.OffsetMinutes))
	}
	flag := onLine
	if m.OffLine {
		flag = offLine
	}
	s := fmt.Sprintf("%09d7%s%s%s%s%s", m.NSR, local.Format(dhFormat), pad12(cpf), gravacao.Format(recording),
		m.Coletor, flag)
	if len(s) != Prefix7Len {
		return "", fmt.Errorf("afd: type-7 prefix has %d characters", len(s))
	}
	return s, nil
}

// ColetorValido reports whether c is one of field 6's codes, 01 to 05.
func ColetorValido(c string) bool { return len(c) == 2 && c[0] == '0' && c[1] >= '1' && c[1] <= '5' }

// Hash chains m to the previous punch's hash (empty for the first), with
// m's hash rule version.
func Hash(m Marcacao, anterior string) (string, error) {
	var p string
	var err error
	switch m.Versao {
	case 0, HashV2:
		p, err = Prefix7(m)
	case HashV1:
		p, err = prefix7(m, "2006-01-02T15:04:05-0700")
	default:
		err = fmt.Errorf("afd: hash rule version %d", m.Versao)
	}
	if err != nil {
		return "", err
	}
	return chain(p, anterior), nil
}

// VerifyMarcacao checks a stored punch's hash against its stored
// fields (with its own version) and the previous punch's hash.
func VerifyMarcacao(m Marcacao, anterior, hash string) error {
	want, err := Hash(m, anterior)
	if err != nil {
		return err
	}
	if want != hash {
		return fmt.Errorf("afd: NSR %d: hash %s, recomputed %s", m.NSR, hash, want)
	}
	return nil
}

// chain is the hash of a type-7 record whose first 73 characters are
// prefix, following the record whose hash is anterior. The parser's
// verification calls it too, so export and check cannot drift apart.
func chain(prefix, anterior string) string {
	sum := sha256.Sum256([]byte(prefix + anterior))
	return hex.EncodeToString(sum[:])
}

// chainPrinted checks a type-7 record read from a file: its printed
// prefix (HashV2), or, for a HashV1 record whose recording seconds the
// file does not show, the prefix with one of the 60 possible seconds.
func chainPrinted(prefix, anterior, hash string) bool {
	if chain(prefix, anterior) == hash {
		return true
	}
	// Field 5 starts at 0-based index 46; its seconds are its characters
	// 17 and 18.
	b := []byte(prefix)
	for s := 0; s < 60; s++ {
		b[63], b[64] = byte('0'+s/10), byte('0'+s%10)
		if chain(string(b), anterior) == hash {
			return true
		}
	}
	return false
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
