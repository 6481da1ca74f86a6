package documento

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"
)

// Text extracts a PDF's text, as the route tests do.
func text(t *testing.T, b []byte) string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		rows, err := r.Page(i).GetTextByRow()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for _, w := range row.Content {
				sb.WriteString(w.S)
			}
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

func TestPDFKeepsPortugueseLetters(t *testing.T) {
	at := time.Date(2024, 3, 4, 12, 0, 0, 0, time.UTC)
	p := New("Comprovante de Registro de Ponto do Trabalhador", at, false)
	p.Field("Empregador", "Panificação São João Ltda")
	p.Mono("Hash", strings.Repeat("ab", 32))
	p.Table([]float64{30, 30}, []string{"Data", "Situação"}, [][]string{{"2024-03-04", "incluída"}})
	b, err := p.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	s := text(t, b)
	for _, want := range []string{"Comprovante de Registro de Ponto do Trabalhador", "Panificação São João Ltda",
		strings.Repeat("ab", 32), "Situação", "incluída"} {
		if !strings.Contains(s, want) {
			t.Errorf("PDF text lacks %q:\n%s", want, s)
		}
	}
}
