package documento

import (
	"fmt"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/signature"
)

// Signing is how one PDF answer is signed: with the configured
// certificate (PAdES, pkg/signature), or not, and why not.
type Signing struct {
	signer *signature.Signer // nil: unsigned
	reason string            // why unsigned
}

// ReadSigning reads the query value assinar (true, the default, or false:
// a quicker unsigned copy) for a route whose PDFs signer signs (nil when
// no certificate is configured).
func ReadSigning(c *fiber.Ctx, signer *signature.Signer) (Signing, error) {
	switch c.Query("assinar", "true") {
	case "true":
	case "false":
		return Signing{reason: "via sem assinatura digital, pedida assim (assinar=false)"}, nil
	default:
		return Signing{}, domainerr.InvalidField("assinar", "use true ou false")
	}
	if signer == nil {
		return Signing{reason: "nenhum certificado de assinatura está configurado"}, nil
	}
	return Signing{signer: signer}, nil
}

// Notice is the line the PDF prints about its signature.
func (s Signing) Notice() string {
	if s.signer == nil {
		return "Documento sem assinatura digital: " + s.reason + "."
	}
	return fmt.Sprintf("Documento assinado digitalmente (PAdES) com o certificado de %s.",
		s.signer.Certificate().Leaf.Subject.CommonName)
}

// Sign returns pdf signed for reason, or as it is when unsigned.
func (s Signing) Sign(pdf []byte, reason string) ([]byte, error) {
	if s.signer == nil {
		return pdf, nil
	}
	return s.signer.SignPDF(pdf, reason)
}

// Send answers pdf signed for reason (Sign), as application/pdf shown
// inline as filename.
func (s Signing) Send(c *fiber.Ctx, pdf []byte, reason, filename string) error {
	pdf, err := s.Sign(pdf, reason)
	if err != nil {
		return err
	}
	return Send(c, pdf, "inline", filename)
}

// Send answers pdf as application/pdf with the disposition (inline or
// attachment) and filename.
func Send(c *fiber.Ctx, pdf []byte, disposition, filename string) error {
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, disposition+`; filename="`+filename+`"`)
	return c.Send(pdf)
}
