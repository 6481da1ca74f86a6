package core

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// aejCampo is one field of Anexo VI's tables: its name, type (N, A, H, D,
// DH, or C for a CNPJ/CPF, which the layout types N but the alphanumeric
// CNPJ may hold letters in) and the sizes it may have.
type aejCampo struct {
	nome, tipo string
	// sizes is "n", "min-max" or "a|b" as the layout writes them.
	sizes string
}

// aejLayout is Anexo VI, field by field. Type 04's last two fields
// (hrEntrada02, hrSaida02 "0 ou 4") stand for any further pairs, which
// the layout says follow in sequence.
var aejLayout = map[string][]aejCampo{
	"01": {{"tipoReg", "N", "2"}, {"tpIdtEmpregador", "N", "1"}, {"idtEmpregador", "C", "11|14"},
		{"caepf", "N", "0|14"}, {"cno", "N", "0|12"}, {"razaoOuNome", "A", "1-150"},
		{"dataInicialAej", "D", "10"}, {"dataFinalAej", "D", "10"}, {"dataHoraGerAej", "DH", "24"},
		{"versaoAej", "A", "3"}},
	"02": {{"tipoReg", "N", "2"}, {"idRepAej", "N", "1-9"}, {"tpRep", "N", "1"}, {"nrRep", "N", "17"}},
	"03": {{"tipoReg", "N", "2"}, {"idtVinculoAej", "N", "1-9"}, {"cpf", "N", "11"}, {"nomeEmp", "A", "1-150"}},
	"04": {{"tipoReg", "N", "2"}, {"codHorContratual", "A", "1-30"}, {"durJornada", "N", "1-12"},
		{"hrEntrada01", "H", "4"}, {"hrSaida01", "H", "4"}, {"hrEntradaNN", "H", "0|4"}, {"hrSaidaNN", "H", "0|4"}},
	"05": {{"tipoReg", "N", "2"}, {"idtVinculoAej", "N", "1-9"}, {"dataHoraMarc", "DH", "24"},
		{"idRepAej", "N", "0-9"}, {"tpMarc", "A", "1"}, {"seqEntSaida", "N", "3"}, {"fonteMarc", "A", "1"},
		{"codHorContratual", "A", "0-30"}, {"motivo", "A", "0-150"}},
	"06": {{"tipoReg", "N", "2"}, {"idtVinculoAej", "N", "1-9"}, {"matEsocial", "A", "1-30"}},
	"07": {{"tipoReg", "N", "2"}, {"idtVinculoAej", "N", "1-9"}, {"tipoAusenOuComp", "N", "1"},
		{"data", "D", "10"}, {"qtMinutos", "N", "0-12"}, {"tipoMovBH", "N", "0|1"}},
	// emailDesenv is typed N in the layout, which no e-mail address can
	// be: it is read as text.
	"08": {{"tipoReg", "N", "2"}, {"nomeProg", "A", "1-150"}, {"versaoProg", "A", "1-8"},
		{"tpIdtDesenv", "N", "1"}, {"idtDesenv", "C", "11|14"}, {"razaoNomeDesenv", "A", "1-150"},
		{"emailDesenv", "A", "1-50"}},
	"99": {{"tipoReg", "N", "2"}, {"qtRegistrosTipo01", "N", "1-9"}, {"qtRegistrosTipo02", "N", "1-9"},
		{"qtRegistrosTipo03", "N", "1-9"}, {"qtRegistrosTipo04", "N", "1-9"}, {"qtRegistrosTipo05", "N", "1-9"},
		{"qtRegistrosTipo06", "N", "1-9"}, {"qtRegistrosTipo07", "N", "1-9"}, {"qtRegistrosTipo08", "N", "1-9"}},
}

var (
	reDH        = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{4}$`)
	reDocumento = regexp.MustCompile(`^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$`)
)

// fits reports whether a field of n characters has one of the sizes.
func fits(sizes string, n int) bool {
	if lo, hi, ok := strings.Cut(sizes, "-"); ok {
		a, _ := strconv.Atoi(lo)
		b, _ := strconv.Atoi(hi)
		return a <= n && n <= b
	}
	for _, s := range strings.Split(sizes, "|") {
		if v, _ := strconv.Atoi(s); v == n {
			return true
		}
	}
	return false
}

// checkField checks one field's size and type.
func checkField(c aejCampo, v string) error {
	n := utf8.RuneCountInString(v)
	if !fits(c.sizes, n) {
		return fmt.Errorf("%s: %d characters, the layout allows %s", c.nome, n, c.sizes)
	}
	if n == 0 {
		return nil
	}
	ok := true
	switch c.tipo {
	case "N":
		ok = strings.Trim(v, "0123456789") == ""
	case "C":
		ok = reDocumento.MatchString(v)
	case "A":
		ok = !strings.ContainsAny(v, "|\r\n")
	case "H":
		_, err := time.Parse("1504", v)
		ok = err == nil
	case "D":
		_, err := time.Parse(time.DateOnly, v)
		ok = err == nil
	case "DH":
		_, err := time.Parse(dhFormat, v)
		ok = err == nil && reDH.MatchString(v)
	}
	if !ok {
		return fmt.Errorf("%s: %q is not of type %s", c.nome, v, c.tipo)
	}
	return nil
}

// checkAEJRecord checks a record's field count and every field against
// the layout, and the rules between a record's fields.
func checkAEJRecord(f []string) error {
	spec, ok := aejLayout[f[0]]
	if !ok {
		return fmt.Errorf("aej: unknown record type %q", f[0])
	}
	n := len(spec)
	if f[0] == "04" && len(f) >= n && (len(f)-n)%2 == 0 {
		for len(spec) < len(f) { // further pairs, in sequence
			spec = append(spec, spec[n-2], spec[n-1])
		}
	}
	if len(f) != len(spec) {
		return fmt.Errorf("aej: record %s has %d fields, want %d", f[0], len(f), len(spec))
	}
	for i, c := range spec {
		if err := checkField(c, f[i]); err != nil {
			return fmt.Errorf("aej: record %s: %w", f[0], err)
		}
	}
	if err := checkAEJRules(f); err != nil {
		return fmt.Errorf("aej: record %s: %w", f[0], err)
	}
	return nil
}

// checkAEJRules are the layout's conditions within a record.
func checkAEJRules(f []string) error {
	in := func(v string, set ...string) bool { return strings.Contains(" "+strings.Join(set, " ")+" ", " "+v+" ") }
	switch f[0] {
	case "01":
		if !in(f[1], "1", "2") || (f[1] == "1") != (len(f[2]) == 14) {
			return fmt.Errorf("tpIdtEmpregador %q does not match idtEmpregador", f[1])
		}
	case "02":
		if !in(f[2], "1", "2", "3") {
			return fmt.Errorf("tpRep %q", f[2])
		}
	case "04":
		if len(f)%2 == 0 || f[len(f)-1] == "" && f[len(f)-2] != "" || f[len(f)-1] != "" && f[len(f)-2] == "" {
			return fmt.Errorf("an entrada without its saída")
		}
	case "05":
		if !in(f[4], "E", "S", "D") || !in(f[6], "O", "I", "P", "X", "T") {
			return fmt.Errorf("tpMarc %q or fonteMarc %q", f[4], f[6])
		}
		if f[6] == FonteOriginal && f[3] == "" {
			return fmt.Errorf("idRepAej is required for an original punch")
		}
		if f[4] == MarcEntrada && f[5] == "001" && f[7] == "" {
			return fmt.Errorf("codHorContratual is required on the first entrada")
		}
		if (f[4] == MarcDesconsiderada || f[6] == FonteIncluida) && f[8] == "" {
			return fmt.Errorf("motivo is required for a disregarded or included punch")
		}
	case "07":
		if !in(f[2], "1", "2", "3", "4") || (f[2] == AusenciaBancoHoras) != (f[4] != "" && f[5] != "") ||
			(f[5] != "" && !in(f[5], "1", "2")) {
			return fmt.Errorf("tipoAusenOuComp %q with qtMinutos %q and tipoMovBH %q", f[2], f[4], f[5])
		}
	case "08":
		if !in(f[3], "1", "2") || (f[3] == "1") != (len(f[4]) == 14) {
			return fmt.Errorf("tpIdtDesenv %q does not match idtDesenv", f[3])
		}
	}
	return nil
}

// AEJLido is an AEJ read back: its records' fields as written, by type
// ("01" ... "08", "99"), and the signature line.
type AEJLido struct {
	Registros  map[string][][]string
	Assinatura string
}

// ParseAEJ reads an AEJ and checks it whole: ISO-8859-1, CR LF after every
// line and no blank line, every record's field count, field types and
// sizes and the layout's conditions, types in order (one header first,
// one type 08, the trailer, then the signature line), the trailer's
// counts, and that every reference (idRepAej, idtVinculoAej,
// codHorContratual) names a record of the file.
func ParseAEJ(b []byte) (AEJLido, error) {
	out := AEJLido{Registros: map[string][][]string{}}
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		return out, fmt.Errorf("aej: the last line does not end with CR LF")
	}
	s, err := charmap.ISO8859_1.NewDecoder().String(string(b))
	if err != nil {
		return out, fmt.Errorf("aej: not ISO-8859-1: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(s, "\r\n"), "\r\n")
	if len(lines) < 4 {
		return out, fmt.Errorf("aej: %d lines, want at least header, type 08, trailer and signature", len(lines))
	}
	last := ""
	for i, l := range lines[:len(lines)-1] {
		if l == "" || strings.ContainsAny(l, "\r\n") {
			return out, fmt.Errorf("aej: line %d: blank or with a stray CR/LF", i+1)
		}
		f := strings.Split(l, "|")
		if f[0] < last || (f[0] == last && (last == "01" || last == "08" || last == "99")) {
			return out, fmt.Errorf("aej: line %d: record %s out of order after %s", i+1, f[0], last)
		}
		if err := checkAEJRecord(f); err != nil {
			return out, fmt.Errorf("line %d: %w", i+1, err)
		}
		last = f[0]
		out.Registros[f[0]] = append(out.Registros[f[0]], f)
	}
	if last != "99" || len(out.Registros["01"]) != 1 || len(out.Registros["08"]) != 1 {
		return out, fmt.Errorf("aej: want one header, one type 08 and the trailer before the signature")
	}
	out.Assinatura = lines[len(lines)-1]
	if utf8.RuneCountInString(out.Assinatura) != LenAssinatura {
		return out, fmt.Errorf("aej: signature line of %d characters, want %d", len(out.Assinatura), LenAssinatura)
	}
	trailer := out.Registros["99"][0]
	for t := 1; t <= 8; t++ {
		if want := strconv.Itoa(len(out.Registros[fmt.Sprintf("%02d", t)])); trailer[t] != want {
			return out, fmt.Errorf("aej: trailer counts %s records of type %02d, the file has %s", trailer[t], t, want)
		}
	}
	return out, checkAEJRefs(out.Registros)
}

// checkAEJRefs checks that the ids the records name are declared once.
func checkAEJRefs(r map[string][][]string) error {
	ids := func(t string, field int) (map[string]bool, error) {
		m := map[string]bool{}
		for _, f := range r[t] {
			if m[f[field]] {
				return nil, fmt.Errorf("aej: record %s: id %q declared twice", t, f[field])
			}
			m[f[field]] = true
		}
		return m, nil
	}
	reps, err := ids("02", 1)
	if err != nil {
		return err
	}
	vinculos, err := ids("03", 1)
	if err != nil {
		return err
	}
	horarios, err := ids("04", 1)
	if err != nil {
		return err
	}
	for _, f := range r["05"] {
		if !vinculos[f[1]] || (f[3] != "" && !reps[f[3]]) || (f[7] != "" && !horarios[f[7]]) {
			return fmt.Errorf("aej: record 05 %v names an undeclared bond, REP or schedule", f)
		}
	}
	for _, t := range []string{"06", "07"} {
		for _, f := range r[t] {
			if !vinculos[f[1]] {
				return fmt.Errorf("aej: record %s names undeclared bond %s", t, f[1])
			}
		}
	}
	return nil
}
