// Package arquivo answers the files the inspector asks for (the AFD and
// the AEJ) the same way: ISO-8859-1 text as an attachment, or with
// formato=zip the text and its detached CAdES signature (pkg/signature).
package arquivo

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Files is what the file routes hold: the clock, the companies' zones
// and the signer (nil: no certificate, no zip).
type Files struct {
	Clock  *clock.Clock
	Zones  *fuso.Zones
	Signer *signature.Signer
}

// Handler serves the file named doc ("o AFD") of a period of at most
// maxDays: it reads the request (ReadExport), has build make the file of
// x at now, the generation instant (its name and its bytes), and sends it
// (Send).
func (f Files) Handler(doc string, maxDays int,
	build func(c *fiber.Ctx, x Export, now time.Time) (name string, file []byte, err error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		x, err := ReadExport(c, f.Signer, f.Zones, f.Clock, doc, maxDays)
		if err != nil {
			return err
		}
		now := f.Clock.Now()
		name, file, err := build(c, x, now)
		if err != nil {
			return err
		}
		return Send(c, name, file, x.Zipped, f.Signer, now)
	}
}

// Export is what a file route reads before it builds the file: the
// company's current record (its zone, CNPJ and name go into the header),
// the period and whether the signed zip is wanted.
type Export struct {
	EmpresaID   int64
	Empresa     fuso.Empresa
	Inicio, Fim time.Time
	Zipped      bool
}

// ReadExport reads a company's request for a file named doc ("o AFD"):
// the caller, formato (ReadFormato), the company's fresh record, and the
// period (request.Period: default this month in the company's zone, at
// most maxDays).
func ReadExport(c *fiber.Ctx, signer *signature.Signer, zones *fuso.Zones, clk *clock.Clock, doc string,
	maxDays int) (Export, error) {
	caller, err := request.Caller(c)
	if err != nil {
		return Export{}, err
	}
	zipped, err := ReadFormato(c, signer, doc)
	if err != nil {
		return Export{}, err
	}
	emp, err := zones.Fresh(c.UserContext(), caller.EmpresaID)
	if err != nil {
		return Export{}, err
	}
	inicio, fim, err := request.Period(c, clk.Today(emp.Zone), maxDays)
	if err != nil {
		return Export{}, err
	}
	return Export{EmpresaID: caller.EmpresaID, Empresa: emp, Inicio: inicio, Fim: fim, Zipped: zipped}, nil
}

// ReadFormato reads formato: txt (the default) or zip, which needs a
// signer (409 sem_certificado when no certificate is configured); doc
// names the file in the message ("o AFD").
func ReadFormato(c *fiber.Ctx, signer *signature.Signer, doc string) (zipped bool, err error) {
	switch c.Query("formato", "txt") {
	case "txt":
		return false, nil
	case "zip":
		if signer == nil {
			return false, domainerr.Conflict("sem_certificado",
				"nenhum certificado de assinatura configurado: "+doc+" só está disponível sem assinatura (formato=txt)")
		}
		return true, nil
	}
	return false, domainerr.InvalidField("formato", "use txt ou zip")
}

// Send answers file, named name (.txt): the text itself, or a zip holding
// it and its signature name.p7s, made at now.
func Send(c *fiber.Ctx, name string, file []byte, zipped bool, signer *signature.Signer, now time.Time) error {
	if !zipped {
		c.Set(fiber.HeaderContentType, "text/plain; charset=ISO-8859-1")
		c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
		return c.Send(file)
	}
	archive, err := signer.DetachedZip(name, file, now)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/zip")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+strings.TrimSuffix(name, ".txt")+`.zip"`)
	return c.Send(archive)
}
