package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// pdfText opens a PDF answer and extracts its text, row by row (the
// pieces of a row joined by a space), so that tests read what a person
// reads.
func pdfText(t *testing.T, r response) string {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/pdf" {
		t.Fatalf("Content-Type %q, want application/pdf: %.200s", ct, r.body)
	}
	rd, err := pdf.NewReader(bytes.NewReader(r.body), int64(len(r.body)))
	if err != nil {
		t.Fatalf("not a PDF: %v", err)
	}
	var sb strings.Builder
	for i := 1; i <= rd.NumPage(); i++ {
		rows, err := rd.Page(i).GetTextByRow()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			parts := make([]string, 0, len(row.Content))
			for _, w := range row.Content {
				parts = append(parts, w.S)
			}
			sb.WriteString(strings.Join(parts, " "))
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// wantText fails unless text holds every piece, blanks compared as one
// space (the extraction spaces cells its own way).
func wantText(t *testing.T, text string, pieces ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(text), " ")
	for _, p := range pieces {
		if !strings.Contains(flat, strings.Join(strings.Fields(p), " ")) {
			t.Errorf("the PDF does not say %q; it says:\n%s", p, text)
		}
	}
}
