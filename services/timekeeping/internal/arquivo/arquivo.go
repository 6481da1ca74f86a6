// Package arquivo answers the files the inspector asks for (the AFD and
// the AEJ) the same way: ISO-8859-1 text as an attachment, or with
// formato=zip the text and its detached CAdES signature (pkg/signature).
package arquivo

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/signature"
)

// ReadFormato reads formato: txt (the default) or zip, which needs a
// signer (409 sem_certificado when no certificate is configured); doc
// names the file in the message ("o AFD").
func ReadFormato(c *fiber.Ctx, signer *signature.Signer, doc string) (zipped bool, err error) {
	switch c.Query("formato", "txt") {
	case "txt":
		return false, nil
	case "zip":
		if signer == nil {
			return false, apierr.Conflict("sem_certificado",
				"nenhum certificado de assinatura configurado: "+doc+" só está disponível sem assinatura (formato=txt)")
		}
		return true, nil
	}
	return false, apierr.Invalid(map[string]string{"formato": "use txt ou zip"})
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
		return apierr.Internal(err)
	}
	c.Set(fiber.HeaderContentType, "application/zip")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+strings.TrimSuffix(name, ".txt")+`.zip"`)
	return c.Send(archive)
}
