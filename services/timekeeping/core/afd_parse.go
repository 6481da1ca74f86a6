package core

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/encoding/charmap"
)

// Arquivo is an AFD read back: every record checked for length, CRC
// (types 1 to 5), NSR order and trailer counts. VerifyCadeia then
// checks the hashes of the type-7 records.
type Arquivo struct {
	Cabecalho      CabecalhoLido
	Empresas       []EmpresaLida
	MarcacoesREPC  []MarcacaoREPCLida
	AjustesRelogio []AjusteRelogioLido
	Empregados     []EmpregadoLido
	Eventos        []EventoLido
	Marcacoes      []MarcacaoLida
	Trailer        Trailer
	Assinatura     string
}

// CabecalhoLido is the header's fields as written.
type CabecalhoLido struct {
	TipoEmpregador, Empregador, CNOCAEPF, RazaoSocial, INPI string
	Inicio, Fim, Geracao, Layout                            string
	TipoDesenvolvedor, Desenvolvedor                        string
}

// EmpregadoLido is a type-5 record's fields as written.
type EmpregadoLido struct {
	NSR                                        int64
	Gravacao, Operacao, CPF, Nome, Responsavel string
}

// EmpresaLida is a type-2 record's fields as written.
type EmpresaLida struct {
	NSR                                                                      int64
	Gravacao, Responsavel, TipoEmpregador, Empregador, CNOCAEPF, RazaoSocial string
	Local                                                                    string
}

// MarcacaoREPCLida is a type-3 record's fields as written.
type MarcacaoREPCLida struct {
	NSR          int64
	Horario, CPF string
}

// AjusteRelogioLido is a type-4 record's fields as written.
type AjusteRelogioLido struct {
	NSR                        int64
	Antes, Depois, Responsavel string
}

// EventoLido is a type-6 record's fields as written.
type EventoLido struct {
	NSR              int64
	Gravacao, Codigo string
}

// MarcacaoLida is a type-7 record's fields as written.
type MarcacaoLida struct {
	NSR                                     int64
	Horario, CPF, Gravacao, Coletor, OnLine string
	Hash                                    string
	prefix                                  string
}

// recordLen is the length of each record type between the header and
// the trailer, and whether it ends with a CRC.
var recordLen = map[byte]struct {
	n   int
	crc bool
}{'2': {Len2, true}, '3': {Len3, true}, '4': {Len4, true}, '5': {Len5, true}, '6': {Len6, false}, '7': {Len7, false}}

// ParseAFD parses an AFD file.
func ParseAFD(file []byte) (*Arquivo, error) {
	if !bytes.HasSuffix(file, []byte("\r\n")) {
		return nil, fmt.Errorf("afd: the file must end with CR LF")
	}
	raw := bytes.Split(file[:len(file)-2], []byte("\r\n"))
	if len(raw) < 3 {
		return nil, fmt.Errorf("afd: %d lines, want at least header, trailer and signature", len(raw))
	}
	lines := make([]string, len(raw))
	for i, r := range raw {
		if bytes.ContainsAny(r, "\r\n") {
			return nil, fmt.Errorf("afd: line %d: a lone CR or LF", i+1)
		}
		s, err := charmap.ISO8859_1.NewDecoder().Bytes(r)
		if err != nil {
			return nil, fmt.Errorf("afd: line %d: %w", i+1, err)
		}
		lines[i] = string(s)
	}
	a := &Arquivo{}
	if err := a.header(lines[0]); err != nil {
		return nil, err
	}
	body, trailer, sig := lines[1:len(lines)-2], lines[len(lines)-2], lines[len(lines)-1]
	var counted Trailer
	var last int64
	for i, l := range body {
		t, nsr, err := record(l)
		if err != nil {
			return nil, fmt.Errorf("afd: line %d: %w", i+2, err)
		}
		if last != 0 && nsr != last+1 {
			return nil, fmt.Errorf("afd: line %d: NSR %d after %d", i+2, nsr, last)
		}
		last = nsr
		counted[t-'0']++
		a.add(t, nsr, l)
	}
	if err := a.trailer(trailer, counted); err != nil {
		return nil, err
	}
	if len([]rune(sig)) != LenAssinatura {
		return nil, fmt.Errorf("afd: signature line of %d characters", len([]rune(sig)))
	}
	a.Assinatura = strings.TrimRight(sig, " ")
	for _, dh := range a.dates() {
		if !dhValido(dh) {
			return nil, fmt.Errorf("afd: date-time %q is not AAAA-MM-ddThh:mm:00ZZZZZ", dh)
		}
	}
	return a, nil
}

// add keeps the fields of record l, of type t.
func (a *Arquivo) add(t byte, nsr int64, l string) {
	f := func(pos, n int) string { return field(l, pos, n) }
	switch t {
	case '2':
		a.Empresas = append(a.Empresas, EmpresaLida{NSR: nsr, Gravacao: f(11, 24), Responsavel: f(35, 14),
			TipoEmpregador: f(49, 1), Empregador: f(50, 14), CNOCAEPF: f(64, 14),
			RazaoSocial: strings.TrimRight(f(78, 150), " "), Local: strings.TrimRight(f(228, 100), " ")})
	case '3':
		a.MarcacoesREPC = append(a.MarcacoesREPC, MarcacaoREPCLida{NSR: nsr, Horario: f(11, 24), CPF: f(35, 12)})
	case '4':
		a.AjustesRelogio = append(a.AjustesRelogio, AjusteRelogioLido{NSR: nsr, Antes: f(11, 24), Depois: f(35, 24),
			Responsavel: f(59, 11)})
	case '6':
		a.Eventos = append(a.Eventos, EventoLido{NSR: nsr, Gravacao: f(11, 24), Codigo: f(35, 2)})
	case '5':
		a.Empregados = append(a.Empregados, EmpregadoLido{NSR: nsr, Gravacao: field(l, 11, 24),
			Operacao: field(l, 35, 1), CPF: field(l, 36, 12), Nome: strings.TrimRight(field(l, 48, 52), " "),
			Responsavel: field(l, 104, 11)})
	case '7':
		a.Marcacoes = append(a.Marcacoes, MarcacaoLida{NSR: nsr, Horario: field(l, 11, 24), CPF: field(l, 35, 12),
			Gravacao: field(l, 47, 24), Coletor: field(l, 71, 2), OnLine: field(l, 73, 1), Hash: field(l, 74, 64),
			prefix: l[:Prefix7Len]})
	}
}

// dates lists every DH field of the file.
func (a *Arquivo) dates() []string {
	out := []string{a.Cabecalho.Geracao}
	for _, e := range a.Empresas {
		out = append(out, e.Gravacao)
	}
	for _, m := range a.MarcacoesREPC {
		out = append(out, m.Horario)
	}
	for _, r := range a.AjustesRelogio {
		out = append(out, r.Antes, r.Depois)
	}
	for _, e := range a.Empregados {
		out = append(out, e.Gravacao)
	}
	for _, e := range a.Eventos {
		out = append(out, e.Gravacao)
	}
	for _, m := range a.Marcacoes {
		out = append(out, m.Horario, m.Gravacao)
	}
	return out
}

// dhValido checks a DH field: a real date and time, seconds "00", and an
// offset of a sign and four digits.
func dhValido(s string) bool {
	if len(s) != 24 || s[17:19] != "00" || (s[19] != '-' && s[19] != '+') {
		return false
	}
	_, err := time.Parse("2006-01-02T15:04:05-0700", s)
	return err == nil
}

// VerifyCadeia recomputes every type-7 hash from its record and the
// previous one's; anterior is the hash of the punch before the file's
// first ("" when the file starts at the company's first punch).
func (a *Arquivo) VerifyCadeia(anterior string) error {
	for _, m := range a.Marcacoes {
		if !chainPrinted(m.prefix, anterior, m.Hash) {
			return fmt.Errorf("afd: NSR %d: hash %s does not follow from the record and %q", m.NSR, m.Hash, anterior)
		}
		anterior = m.Hash
	}
	return nil
}

func (a *Arquivo) header(l string) error {
	if len([]rune(l)) != Len1 || !strings.HasPrefix(l, "0000000001") {
		return fmt.Errorf("afd: line 1 is not a header of %d characters", Len1)
	}
	if err := checkCRC(l); err != nil {
		return fmt.Errorf("afd: header: %w", err)
	}
	r := []rune(l)
	f := func(pos, n int) string { return string(r[pos-1 : pos-1+n]) }
	a.Cabecalho = CabecalhoLido{TipoEmpregador: f(11, 1), Empregador: f(12, 14), CNOCAEPF: f(26, 14),
		RazaoSocial: strings.TrimRight(f(40, 150), " "), INPI: f(190, 17), Inicio: f(207, 10), Fim: f(217, 10),
		Geracao: f(227, 24), Layout: f(251, 3), TipoDesenvolvedor: f(254, 1), Desenvolvedor: f(255, 14)}
	if a.Cabecalho.Layout != Layout {
		return fmt.Errorf("afd: layout %q, want %s", a.Cabecalho.Layout, Layout)
	}
	return nil
}

func (a *Arquivo) trailer(l string, counted Trailer) error {
	if len(l) != Len9 || !strings.HasPrefix(l, "999999999") || l[Len9-1] != '9' {
		return fmt.Errorf("afd: the line before the signature is not a trailer")
	}
	for t := 2; t <= 7; t++ {
		n, err := strconv.Atoi(l[9+(t-2)*9 : 18+(t-2)*9])
		if err != nil {
			return fmt.Errorf("afd: trailer: count of type %d: %w", t, err)
		}
		a.Trailer[t] = n
		if n != counted[t] {
			return fmt.Errorf("afd: trailer counts %d records of type %d, the file has %d", n, t, counted[t])
		}
	}
	return nil
}

// record checks one record between header and trailer and returns its
// type and NSR.
func record(l string) (byte, int64, error) {
	if len(l) < 10 {
		return 0, 0, fmt.Errorf("record too short")
	}
	t := l[9]
	spec, ok := recordLen[t]
	if !ok {
		return 0, 0, fmt.Errorf("unknown record type %q", t)
	}
	if n := len([]rune(l)); n != spec.n {
		return 0, 0, fmt.Errorf("type %c record of %d characters, want %d", t, n, spec.n)
	}
	nsr, err := strconv.ParseInt(l[:9], 10, 64)
	if err != nil || nsr < 1 {
		return 0, 0, fmt.Errorf("NSR %q", l[:9])
	}
	if spec.crc {
		if err := checkCRC(l); err != nil {
			return 0, 0, fmt.Errorf("NSR %d: %w", nsr, err)
		}
	}
	if t == '7' && strings.Trim(l[Prefix7Len:], "0123456789abcdef") != "" {
		return 0, 0, fmt.Errorf("NSR %d: hash is not lowercase hexadecimal", nsr)
	}
	return t, nsr, nil
}

// checkCRC compares a record's last four characters with the CRC of the
// rest.
func checkCRC(l string) error {
	r := []rune(l)
	body, got := string(r[:len(r)-4]), string(r[len(r)-4:])
	b, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte(body))
	if err != nil {
		return err
	}
	if want := crcField(b); got != want {
		return fmt.Errorf("CRC %s, computed %s", got, want)
	}
	return nil
}

// field is the n characters from 1-based position pos of line l.
func field(l string, pos, n int) string {
	r := []rune(l)
	return string(r[pos-1 : pos-1+n])
}
