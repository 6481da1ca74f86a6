package core

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/encoding/charmap"
)

// The AEJ (Arquivo Eletrônico de Jornada, Portaria MTP 671/2021 art. 83,
// Anexo VI, layout 001): what the time-treatment program made of the
// REP's punches. ISO-8859-1 text, one record per line ended by CR LF,
// fields separated by "|" (none after the last), types 01 to 08 in that
// order, the trailer (99) and the signature line. FormatAEJ writes it
// and ParseAEJ reads it back; both check every record against aejLayout,
// the layout's field table, so what one writes the other accepts. The
// choices the layout leaves open are in docs/compliance.md.

// AEJVersao is field 10 of the header.
const AEJVersao = "001"

// REPTipoP is tpRep of a REP-P (type-02 record).
const REPTipoP = "3"

// Sources of a punch (fonteMarc of a type-05 record).
const (
	FonteOriginal      = "O"
	FonteIncluida      = "I"
	FontePreAssinalada = "P"
)

// Kinds of a punch (tpMarc of a type-05 record).
const (
	MarcEntrada        = "E"
	MarcSaida          = "S"
	MarcDesconsiderada = "D"
)

// Kinds of a type-07 record (tipoAusenOuComp).
const (
	AusenciaDSR        = "1"
	AusenciaFalta      = "2"
	AusenciaBancoHoras = "3"
	AusenciaFolgaFer   = "4"
)

// AEJ is the content of one file.
type AEJ struct {
	Cabecalho  AEJCabecalho
	REPs       []AEJREP
	Vinculos   []AEJVinculo
	Horarios   []AEJHorario
	Marcacoes  []AEJMarcacao
	Matriculas []AEJMatricula
	Ausencias  []AEJAusencia
	PTRP       AEJPTRP
}

// AEJCabecalho is the type-01 record.
type AEJCabecalho struct {
	// Empregador is the employer's CNPJ (14 characters) or CPF (11),
	// punctuation ignored; CAEPF and CNO are written only when set.
	Empregador, CAEPF, CNO, RazaoSocial string
	Inicio, Fim                         time.Time // civil dates
	Geracao                             time.Time
	OffsetMinutes                       int
}

// AEJREP is a type-02 record: a REP whose punches the file holds.
type AEJREP struct {
	ID     int
	Tipo   string // REPTipoP for ponto
	Numero string // the INPI registration of a REP-P
}

// AEJVinculo is a type-03 record: an employment bond (an employee
// record).
type AEJVinculo struct {
	ID        int
	CPF, Nome string
}

// AEJHorario is a type-04 record: a contractual schedule. Pares are the
// entrada/saída pairs in minutes after the workday's midnight (past 1440
// for a shift crossing midnight, written modulo a day); Duracao is the
// workday's length in minutes, night minutes reduced (art. 73 §1).
type AEJHorario struct {
	Codigo  string
	Duracao int
	Pares   [][2]int
}

// AEJMarcacao is a type-05 record. REP is the type-02 id (0 for a punch
// not from a REP); Horario is the code of the type-04 record, required
// on the first entrada; Motivo is required for a disregarded or included
// punch.
type AEJMarcacao struct {
	Vinculo       int
	Horario       time.Time
	OffsetMinutes int
	REP           int
	Tipo          string // MarcEntrada, MarcSaida or MarcDesconsiderada
	Seq           int
	Fonte         string // FonteOriginal, FonteIncluida or FontePreAssinalada
	CodHorario    string
	Motivo        string
}

// AEJMatricula is a type-06 record: the eSocial registration of a bond,
// for employees with more than one bond in the file.
type AEJMatricula struct {
	Vinculo   int
	Matricula string
}

// AEJAusencia is a type-07 record. Minutos and Movimento ("1" credit, "2"
// compensation) are required for an hour-bank movement and blank
// otherwise.
type AEJAusencia struct {
	Vinculo   int
	Tipo      string
	Data      time.Time
	Minutos   *int
	Movimento string
}

// AEJPTRP is the type-08 record: the time-treatment program.
type AEJPTRP struct {
	Nome, Versao string
	// Desenvolvedor is the developer's CNPJ or CPF.
	Desenvolvedor, RazaoNome, Email string
}

// FormatAEJ renders a as the file's bytes, signature line included
// (AssinaturaP7S: the signature travels in a detached .p7s). Every record
// is checked against the layout before it is written.
func FormatAEJ(a AEJ) ([]byte, error) {
	var recs [][]string
	add := func(fields ...string) { recs = append(recs, fields) }
	h := a.Cabecalho
	id := Plain(h.Empregador)
	tipo, err := tipoDocumento(id)
	if err != nil {
		return nil, fmt.Errorf("aej: employer: %w", err)
	}
	add("01", tipo, id, Plain(h.CAEPF), Plain(h.CNO), text(h.RazaoSocial, 150), h.Inicio.Format(time.DateOnly),
		h.Fim.Format(time.DateOnly), h.Geracao.In(fixed(h.OffsetMinutes)).Format(dh), AEJVersao)
	for _, r := range a.REPs {
		add("02", strconv.Itoa(r.ID), r.Tipo, num(Plain(r.Numero), 17))
	}
	for _, v := range a.Vinculos {
		add("03", strconv.Itoa(v.ID), num(digits(v.CPF), 11), text(v.Nome, 150))
	}
	for _, hc := range a.Horarios {
		f := []string{"04", text(hc.Codigo, 30), strconv.Itoa(hc.Duracao)}
		for _, p := range hc.Pares {
			f = append(f, hhmm(p[0]), hhmm(p[1]))
		}
		if len(hc.Pares) == 1 { // the second pair's fields are there, empty ("0 ou 4")
			f = append(f, "", "")
		}
		add(f...)
	}
	for _, m := range a.Marcacoes {
		rep := ""
		if m.REP > 0 {
			rep = strconv.Itoa(m.REP)
		}
		add("05", strconv.Itoa(m.Vinculo), m.Horario.In(fixed(m.OffsetMinutes)).Format(dh), rep, m.Tipo,
			fmt.Sprintf("%03d", m.Seq), m.Fonte, text(m.CodHorario, 30), text(m.Motivo, 150))
	}
	for _, m := range a.Matriculas {
		add("06", strconv.Itoa(m.Vinculo), text(m.Matricula, 30))
	}
	for _, x := range a.Ausencias {
		minutos := ""
		if x.Minutos != nil {
			minutos = strconv.Itoa(*x.Minutos)
		}
		add("07", strconv.Itoa(x.Vinculo), x.Tipo, x.Data.Format(time.DateOnly), minutos, x.Movimento)
	}
	p := a.PTRP
	dev := Plain(p.Desenvolvedor)
	devTipo, err := tipoDocumento(dev)
	if err != nil {
		return nil, fmt.Errorf("aej: developer: %w", err)
	}
	add("08", text(p.Nome, 150), text(p.Versao, 8), devTipo, dev, text(p.RazaoNome, 150), text(p.Email, 50))
	var counts [9]int
	for _, r := range recs {
		n, _ := strconv.Atoi(r[0])
		counts[n]++
	}
	trailer := []string{"99"}
	for t := 1; t <= 8; t++ {
		trailer = append(trailer, strconv.Itoa(counts[t]))
	}
	recs = append(recs, trailer)
	var buf bytes.Buffer
	for _, r := range recs {
		if err := checkAEJRecord(r); err != nil {
			return nil, err
		}
		buf.WriteString(strings.Join(r, "|"))
		buf.WriteString("\r\n")
	}
	buf.WriteString(alpha(AssinaturaP7S, LenAssinatura))
	buf.WriteString("\r\n")
	out, err := charmap.ISO8859_1.NewEncoder().Bytes(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("aej: not ISO-8859-1: %w", err)
	}
	return out, nil
}

// NomeArquivoAEJ names the file: the layout gives no name, so it follows
// the AFD's pattern, "AEJ" + employer's CNPJ/CPF + the period.
func NomeArquivoAEJ(empregador string, inicio, fim time.Time) string {
	return "AEJ" + Plain(empregador) + "_" + inicio.Format("20060102") + "_" + fim.Format("20060102") + ".txt"
}

// text prepares a free-text field: the separator "|" and control
// characters become spaces, characters outside ISO-8859-1 "?", surrounding
// spaces go and the rest is cut at size characters.
func text(s string, size int) string {
	s = strings.TrimSpace(strings.ReplaceAll(alpha(s, size+len(s)), "|", " "))
	r := []rune(s)
	if len(r) > size {
		s = strings.TrimSpace(string(r[:size]))
	}
	return s
}

// hhmm writes minutes after midnight (modulo a day) as hhmm.
func hhmm(m int) string {
	m = ((m % 1440) + 1440) % 1440
	return fmt.Sprintf("%02d%02d", m/60, m%60)
}
