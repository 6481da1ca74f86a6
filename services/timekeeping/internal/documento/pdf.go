// Package documento lays out the PDFs of the service (the punch receipt
// and the timesheet) with go-pdf/fpdf's built-in fonts, which need no font
// files: texts are translated from UTF-8 to the fonts' cp1252, where every
// Portuguese letter exists.
package documento

import (
	"bytes"
	"fmt"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// PDF is a document being written: A4, portrait, millimetres.
type PDF struct {
	f  *fpdf.Fpdf
	tr func(string) string
}

// New starts a document with title (also its metadata title) dated at:
// the creation date is the document's own, so that the same data give
// the same file.
func New(title string, at time.Time, landscape bool) *PDF {
	orientation := "P"
	if landscape {
		orientation = "L"
	}
	f := fpdf.New(orientation, "mm", "A4", "")
	p := &PDF{f: f, tr: f.UnicodeTranslatorFromDescriptor("")}
	f.SetCreationDate(at)
	f.SetModificationDate(at)
	f.SetTitle(title, true)
	f.SetCreator("ponto", true)
	f.SetMargins(15, 15, 15)
	f.SetAutoPageBreak(true, 15)
	f.AddPage()
	f.SetFont("Helvetica", "B", 14)
	f.MultiCell(0, 8, p.tr(title), "", "C", false)
	f.Ln(3)
	return p
}

// Section writes a bold heading.
func (p *PDF) Section(s string) {
	p.f.Ln(2)
	p.f.SetFont("Helvetica", "B", 11)
	p.f.MultiCell(0, 6, p.tr(s), "", "L", false)
}

// Field writes "label: value" on its own line(s).
func (p *PDF) Field(label, value string) {
	p.f.SetFont("Helvetica", "B", 10)
	w := p.f.GetStringWidth(p.tr(label+": ")) + 1
	p.f.CellFormat(w, 6, p.tr(label+": "), "", 0, "L", false, 0, "")
	p.f.SetFont("Helvetica", "", 10)
	p.f.MultiCell(0, 6, p.tr(value), "", "L", false)
}

// Mono writes a value in a fixed-width font (hashes, codes).
func (p *PDF) Mono(label, value string) {
	p.f.SetFont("Helvetica", "B", 10)
	p.f.MultiCell(0, 6, p.tr(label+":"), "", "L", false)
	p.f.SetFont("Courier", "", 9)
	p.f.MultiCell(0, 5, value, "", "L", false)
}

// Text writes a paragraph.
func (p *PDF) Text(s string) {
	p.f.SetFont("Helvetica", "", 9)
	p.f.MultiCell(0, 5, p.tr(s), "", "L", false)
}

// Table writes a header row and rows with the given column widths (mm).
func (p *PDF) Table(widths []float64, header []string, rows [][]string) {
	p.f.SetFont("Helvetica", "B", 8)
	p.row(widths, header, true)
	p.f.SetFont("Helvetica", "", 8)
	for _, r := range rows {
		p.row(widths, r, false)
	}
}

func (p *PDF) row(widths []float64, cells []string, fill bool) {
	p.f.SetFillColor(230, 230, 230)
	for i, w := range widths {
		s := ""
		if i < len(cells) {
			s = cells[i]
		}
		p.f.CellFormat(w, 5, p.tr(s), "1", 0, "L", fill, 0, "")
	}
	p.f.Ln(-1)
}

// Bytes finishes the document.
func (p *PDF) Bytes() ([]byte, error) {
	var buf bytes.Buffer
	if err := p.f.Output(&buf); err != nil {
		return nil, fmt.Errorf("documento: %w", err)
	}
	return buf.Bytes(), nil
}

// CPF writes 12345678909 (or its 12-digit AFD form) as 123.456.789-09.
func CPF(digits string) string {
	if len(digits) == 12 && digits[0] == '0' {
		digits = digits[1:]
	}
	if len(digits) != 11 {
		return digits
	}
	return digits[0:3] + "." + digits[3:6] + "." + digits[6:9] + "-" + digits[9:]
}
