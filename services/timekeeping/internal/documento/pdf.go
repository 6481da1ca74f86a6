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

// lineHeight is a table line's height (mm) at 8 points; cellPad the
// space kept on each side of a cell's text.
const (
	lineHeight = 3.8
	cellPad    = 0.8
)

// row writes one table row: each cell's text wrapped inside its column
// (never running into the next), the row as tall as its tallest cell,
// on a new page when it does not fit in this one.
func (p *PDF) row(widths []float64, cells []string, fill bool) {
	lines := make([][]string, len(widths))
	n := 1
	for i, w := range widths {
		s := ""
		if i < len(cells) {
			s = cells[i]
		}
		lines[i] = p.wrap(s, w-2*cellPad)
		n = max(n, len(lines[i]))
	}
	h := float64(n)*lineHeight + 1
	_, pageH := p.f.GetPageSize()
	_, _, _, bottom := p.f.GetMargins()
	if p.f.GetY()+h > pageH-bottom {
		p.f.AddPage()
	}
	p.f.SetFillColor(230, 230, 230)
	x, y := p.f.GetX(), p.f.GetY()
	style := "D"
	if fill {
		style = "FD"
	}
	for i, w := range widths {
		p.f.Rect(x, y, w, h, style)
		for j, l := range lines[i] {
			p.f.SetXY(x+cellPad, y+0.5+float64(j)*lineHeight)
			p.f.CellFormat(w-2*cellPad, lineHeight, l, "", 0, "L", false, 0, "")
		}
		x += w
	}
	p.f.SetXY(p.f.GetX(), y+h)
	left, _, _, _ := p.f.GetMargins()
	p.f.SetX(left)
}

// wrap splits s (UTF-8) into lines of at most width mm in the fonts'
// encoding, at spaces, cutting a word longer than a line.
func (p *PDF) wrap(s string, width float64) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	for _, u := range p.f.SplitText(s, width) {
		l := p.tr(u)
		for p.f.GetStringWidth(l) > width && len(l) > 1 {
			k := len(l) - 1
			for k > 1 && p.f.GetStringWidth(l[:k]) > width {
				k--
			}
			out, l = append(out, l[:k]), l[k:]
		}
		out = append(out, l)
	}
	return out
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
