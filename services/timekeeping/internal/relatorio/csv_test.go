package relatorio

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// appendCell writes a field as encoding/csv does with ";" and CRLF.
func TestCellsAsEncodingCSV(t *testing.T) {
	for _, field := range []string{"", "Ana", `\.`, `\.x`, " a", "\ta", "\u00a0a", "a b", "a;b", `a"b`, `"`, "a\nb",
		"a\r\nb", "a\rb", "\r", "=x", "ção", "08:00 entrada | 12:00 almoço (ajustada)", "-480", "\u2028x"} {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.Comma, w.UseCRLF = ';', true
		if err := w.Write([]string{field}); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		got := appendCell(nil, field)
		if want := bytes.TrimSuffix(want.Bytes(), []byte("\r\n")); !bytes.Equal(got, want) {
			t.Errorf("appendCell(%q) = %q, want %q", field, got, want)
		}
		if b := appendCell(nil, []byte(field)); !bytes.Equal(b, got) {
			t.Errorf("appendCell([]byte(%q)) = %q, want %q", field, b, got)
		}
	}
}
