package documento

import (
	"fmt"

	"github.com/skip2/go-qrcode"
)

// QR draws a QR code of content (medium error correction, skip2/go-qrcode)
// as vector squares, size mm wide, at the left margin below the current
// line, with caption under it. Drawing the modules needs no image
// encoding, so the PDF stays small and deterministic.
func (p *PDF) QR(content string, size float64, caption string) error {
	code, err := qrcode.New(content, qrcode.Medium)
	if err != nil {
		return fmt.Errorf("documento: QR code: %w", err)
	}
	bits := code.Bitmap() // with its quiet zone
	module := size / float64(len(bits))
	p.f.Ln(2)
	x0, y0 := p.f.GetX(), p.f.GetY()
	if y0+size > 297-15 { // A4 height minus the bottom margin
		p.f.AddPage()
		x0, y0 = p.f.GetX(), p.f.GetY()
	}
	p.f.SetFillColor(0, 0, 0)
	for row, line := range bits {
		// One rectangle per run of dark modules.
		for col := 0; col < len(line); {
			if !line[col] {
				col++
				continue
			}
			start := col
			for col < len(line) && line[col] {
				col++
			}
			p.f.Rect(x0+float64(start)*module, y0+float64(row)*module, float64(col-start)*module, module, "F")
		}
	}
	p.f.SetY(y0 + size)
	p.f.SetFont("Helvetica", "", 8)
	p.f.MultiCell(0, 4, p.tr(caption), "", "L", false)
	return nil
}
