package core

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// The AFD file of a REP-P (Portaria MTP 671/2021, Anexo V, layout 003):
// ISO-8859-1 text, one fixed-width record per line ended by CR LF, in NSR
// order: the header (type 1), the employee records (type 5) and punches
// (type 7) interleaved by NSR, the trailer (type 9) and the signature
// line. Every record type of the layout can be formatted and parsed here;
// which ones ponto writes is said in docs/compliance.md, with every choice
// the layout leaves open.

// Record lengths, without CR LF.
const (
	Len1          = 302
	Len2          = 331
	Len3          = 50
	Len4          = 73
	Len5          = 118
	Len6          = 36
	Len7          = 137
	Len9          = 64
	LenAssinatura = 100
)

// Layout is the layout version in the header.
const Layout = "003"

// AssinaturaP7S is the signature line of a REP-P: the signature itself
// (CAdES) travels in a detached .p7s file.
const AssinaturaP7S = "ASSINATURA_DIGITAL_EM_ARQUIVO_P7S"

// dh is the layout's DH format, AAAA-MM-ddThh:mm:00ZZZZZ: seconds are
// always written as 00 (Anexo V item 6), in every DH field.
const dh = dhFormat

// REP identifies the REP-P program in every header: its INPI registration
// number and its developer's CNPJ (or CPF), from configuration.
type REP struct {
	INPI          string
	Desenvolvedor string
}

// Cabecalho is the type-1 record.
type Cabecalho struct {
	// Empregador is the employer's CNPJ (14 characters, letters allowed
	// for the alphanumeric CNPJ) or CPF (11 digits), punctuation ignored.
	Empregador string
	// CNOCAEPF is written only when set (blank otherwise).
	CNOCAEPF    string
	RazaoSocial string
	REP         REP
	Inicio, Fim time.Time // civil dates
	Geracao     time.Time
	// OffsetMinutes is the company's UTC offset at Geracao.
	OffsetMinutes int
}

// Empregado is a type-5 record: an employee included in (I), changed in
// (A) or excluded from (E) the REP.
type Empregado struct {
	NSR           int64
	Gravacao      time.Time
	OffsetMinutes int
	Operacao      string // I, A or E
	CPF           string
	Nome          string
	// Responsavel is the CPF of whoever made the change; zeros when no
	// person did (see docs/compliance.md).
	Responsavel string
}

// Empresa is a type-2 record: the employer's identification included in
// or changed in the REP.
type Empresa struct {
	NSR           int64
	Gravacao      time.Time
	OffsetMinutes int
	// Responsavel is the CPF of the person who made the change.
	Responsavel string
	// Empregador is the employer's CNPJ or CPF (see Cabecalho).
	Empregador  string
	CNOCAEPF    string
	RazaoSocial string
	// Local is the place where the services are rendered.
	Local string
}

// MarcacaoREPC is a type-3 record, a punch of a REP-C or REP-A. ponto is a
// REP-P and never writes one; it is here so that every record type of the
// layout reads back.
type MarcacaoREPC struct {
	NSR           int64
	Horario       time.Time
	OffsetMinutes int
	CPF           string
}

// AjusteRelogio is a type-4 record: the REP's clock set from Antes to
// Depois by Responsavel.
type AjusteRelogio struct {
	NSR           int64
	Antes, Depois time.Time
	OffsetMinutes int
	Responsavel   string
}

// Sensitive event codes of a type-6 record a REP-P may write.
const (
	EventoRetornoEnergia    = "02"
	EventoDisponibilidade   = "07"
	EventoIndisponibilidade = "08"
)

// Evento is a type-6 record: a sensitive event of the REP.
type Evento struct {
	NSR           int64
	Gravacao      time.Time
	OffsetMinutes int
	Codigo        string
}

// Trailer is the type-9 record: how many records of types 2 to 7 the file
// holds (index 2 to 7).
type Trailer [8]int

// Linha1 renders the header, with its CRC.
func Linha1(h Cabecalho) (string, error) {
	id := Plain(h.Empregador)
	tipo, err := tipoDocumento(id)
	if err != nil {
		return "", fmt.Errorf("afd: employer: %w", err)
	}
	devID := Plain(h.REP.Desenvolvedor)
	devTipo := "1"
	if devID != "" {
		if devTipo, err = tipoDocumento(devID); err != nil {
			return "", fmt.Errorf("afd: developer: %w", err)
		}
	}
	zone := fixed(h.OffsetMinutes)
	s := "000000000" + "1" + tipo + num(id, 14) + blankOrNum(Plain(h.CNOCAEPF), 14) +
		alpha(h.RazaoSocial, 150) + num(Plain(h.REP.INPI), 17) +
		h.Inicio.Format(time.DateOnly) + h.Fim.Format(time.DateOnly) + h.Geracao.In(zone).Format(dh) +
		Layout + devTipo + num(devID, 14) + alpha("", 30)
	return withCRC(s, Len1)
}

// Linha2 renders an employer identification record, with its CRC.
func Linha2(e Empresa) (string, error) {
	if err := checkNSR(e.NSR); err != nil {
		return "", err
	}
	id := Plain(e.Empregador)
	tipo, err := tipoDocumento(id)
	if err != nil {
		return "", fmt.Errorf("afd: employer: %w", err)
	}
	s := fmt.Sprintf("%09d2", e.NSR) + e.Gravacao.In(fixed(e.OffsetMinutes)).Format(dh) +
		num(digits(e.Responsavel), 14) + tipo + num(id, 14) + blankOrNum(Plain(e.CNOCAEPF), 14) +
		alpha(e.RazaoSocial, 150) + alpha(e.Local, 100)
	return withCRC(s, Len2)
}

// Linha3 renders a REP-C punch record, with its CRC.
func Linha3(m MarcacaoREPC) (string, error) {
	if err := checkNSR(m.NSR); err != nil {
		return "", err
	}
	cpf := digits(m.CPF)
	if cpf == "" || len(cpf) > 12 {
		return "", fmt.Errorf("afd: CPF must have 1 to 12 digits")
	}
	s := fmt.Sprintf("%09d3", m.NSR) + m.Horario.In(fixed(m.OffsetMinutes)).Format(dh) + num(cpf, 12)
	return withCRC(s, Len3)
}

// Linha4 renders a clock adjustment record, with its CRC.
func Linha4(a AjusteRelogio) (string, error) {
	if err := checkNSR(a.NSR); err != nil {
		return "", err
	}
	zone := fixed(a.OffsetMinutes)
	s := fmt.Sprintf("%09d4", a.NSR) + a.Antes.In(zone).Format(dh) + a.Depois.In(zone).Format(dh) +
		num(digits(a.Responsavel), 11)
	return withCRC(s, Len4)
}

// Linha6 renders a sensitive event record (no CRC: the layout gives
// none for type 6).
func Linha6(e Evento) (string, error) {
	if err := checkNSR(e.NSR); err != nil {
		return "", err
	}
	if len(e.Codigo) != 2 || strings.Trim(e.Codigo, "0123456789") != "" {
		return "", fmt.Errorf("afd: event code %q", e.Codigo)
	}
	return fmt.Sprintf("%09d6", e.NSR) + e.Gravacao.In(fixed(e.OffsetMinutes)).Format(dh) + e.Codigo, nil
}

// Linha5 renders an employee record, with its CRC.
func Linha5(e Empregado) (string, error) {
	if err := checkNSR(e.NSR); err != nil {
		return "", err
	}
	if e.Operacao != "I" && e.Operacao != "A" && e.Operacao != "E" {
		return "", fmt.Errorf("afd: operation %q", e.Operacao)
	}
	cpf := digits(e.CPF)
	if cpf == "" || len(cpf) > 12 {
		return "", fmt.Errorf("afd: CPF must have 1 to 12 digits")
	}
	s := fmt.Sprintf("%09d5", e.NSR) + e.Gravacao.In(fixed(e.OffsetMinutes)).Format(dh) + e.Operacao + num(cpf, 12) +
		alpha(e.Nome, 52) + alpha("", 4) + num(digits(e.Responsavel), 11)
	return withCRC(s, Len5)
}

// Linha7 renders a punch: the hashed prefix followed by its stored hash.
func Linha7(m Marcacao, hash string) (string, error) {
	p, err := Prefix7(m)
	if err != nil {
		return "", err
	}
	if len(hash) != 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		return "", fmt.Errorf("afd: NSR %d: malformed hash", m.NSR)
	}
	return p + hash, nil
}

// Linha9 renders the trailer.
func Linha9(t Trailer) string {
	return fmt.Sprintf("999999999%09d%09d%09d%09d%09d%09d9", t[2], t[3], t[4], t[5], t[6], t[7])
}

// LinhaAssinatura is the last line of a REP-P's AFD.
func LinhaAssinatura() string { return alpha(AssinaturaP7S, LenAssinatura) }

// NomeArquivo is the file name the layout gives a REP-P's AFD (Anexo V
// item 19.3): "AFD" + INPI number + employer's CNPJ/CPF + "REP_P", with
// .txt. The INPI number is written as the header's field writes it (17
// digits, zeros on the left; all zeros when not configured), so that the
// name and the header always agree.
func NomeArquivo(rep REP, empregador string) string {
	return "AFD" + num(Plain(rep.INPI), 17) + Plain(empregador) + "REP_P.txt"
}

// checkNSR refuses an NSR that field 1 (9 digits, from 1) cannot hold.
func checkNSR(nsr int64) error {
	if nsr < 1 || nsr > 999_999_999 {
		return fmt.Errorf("afd: NSR %d out of range", nsr)
	}
	return nil
}

// fixed is the zone of a stored UTC offset.
func fixed(offsetMinutes int) *time.Location { return time.FixedZone("", offsetMinutes*60) }

func withCRC(s string, size int) (string, error) {
	if utf8.RuneCountInString(s) != size-4 {
		return "", fmt.Errorf("afd: record of %d characters, want %d", utf8.RuneCountInString(s)+4, size)
	}
	b, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte(s))
	if err != nil {
		return "", fmt.Errorf("afd: not ISO-8859-1: %w", err)
	}
	return s + crcField(b), nil
}

// tipoDocumento is "1" for a CNPJ (14 characters) and "2" for a CPF (11
// digits).
func tipoDocumento(id string) (string, error) {
	switch len(id) {
	case 14:
		return "1", nil
	case 11:
		return "2", nil
	}
	return "", fmt.Errorf("want a CNPJ (14) or CPF (11), got %d characters", len(id))
}

// num right-aligns a numeric field with zeros; longer values are an
// error caught by the record's length check.
func num(s string, size int) string {
	if len(s) >= size {
		return s
	}
	return strings.Repeat("0", size-len(s)) + s
}

// blankOrNum writes an optional numeric field: blank when absent.
func blankOrNum(s string, size int) string {
	if s == "" {
		return strings.Repeat(" ", size)
	}
	return num(s, size)
}

// alpha left-aligns a text field, padded with spaces and cut at size
// characters. Characters outside ISO-8859-1 become "?" and control
// characters a space, so that the record keeps its width.
func alpha(s string, size int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == size {
			break
		}
		switch {
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
			r = ' '
		case r > 0xff:
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return b.String() + strings.Repeat(" ", size-n)
}

// Plain keeps the digits and (upper-cased) letters of a document number:
// "12.ABC.345/01DE-35" becomes "12ABC34501DE35".
func Plain(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if (r >= '0' && r <= '9') || (r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ResponsavelSistema is field 8 of the type-5 records ponto writes: the
// CPF of the person responsible for the change. Inclusions and
// alterations are recorded by the system at the employee's first punch
// after them, and the company account that registered the employee has no
// CPF, so the field is zeros (docs/compliance.md).
const ResponsavelSistema = "00000000000"
