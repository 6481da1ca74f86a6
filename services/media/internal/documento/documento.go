// Package documento keeps other services' documents in MinIO on media's
// internal API: a leave's PDF or image for timekeeping
// (services/media/internalapi). The caller authorises its users; media
// checks the key's shape, the type by the bytes and the size again, so
// nothing else ever lands in the bucket.
package documento

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/media/internal/objectstore"
	mediaapi "github.com/ponto/ponto/services/media/internalapi"
)

// Route is the documents' path on the internal listener; the key is the
// rest of it.
const Route = "/internal/documentos/afastamentos/:empresaId/:afastamentoId/:versao"

// versao is a document version: hex of its hash, as timekeeping names it.
var versao = regexp.MustCompile(`^[0-9a-f]{8,64}$`)

var errNotFound = domainerr.NotFound("documento não encontrado")

// Handlers serve the document routes on store.
type Handlers struct{ store *objectstore.Store }

// NewHandlers returns the document routes on store.
func NewHandlers(store *objectstore.Store) *Handlers { return &Handlers{store: store} }

// Internal mounts the routes on the internal listener r; only timekeeping
// may call them.
func (h *Handlers) Internal(r fiber.Router, v *jwtauth.Verifier) {
	only := v.Services("timekeeping")
	r.Put(Route, only, h.put)
	r.Get(Route, only, h.get)
	r.Delete(Route, only, h.remove)
}

// key reads the object key from the path: 400 for a malformed one.
func key(c *fiber.Ctx) (string, error) {
	e, err := httpserver.PathID(c, "empresaId")
	if err != nil {
		return "", err
	}
	a, err := httpserver.PathID(c, "afastamentoId")
	if err != nil {
		return "", err
	}
	v := c.Params("versao")
	if !versao.MatchString(v) {
		return "", domainerr.InvalidField("versao", "versão inválida (hexadecimal)")
	}
	return fmt.Sprintf("afastamentos/%d/%d/%s", e, a, v), nil
}

// put is PUT /internal/documentos/afastamentos/{empresaId}/{afastamentoId}
// /{versao} {"contentType","dados"}: 204 stored. 415 unless a PDF, JPEG or
// PNG by its bytes (and so declared); 413 over 3 MiB; 400 empty.
func (h *Handlers) put(c *fiber.Ctx) error {
	k, err := key(c)
	if err != nil {
		return err
	}
	var in mediaapi.Documento
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	switch tipo := http.DetectContentType(in.Dados); {
	case len(in.Dados) == 0:
		return domainerr.InvalidField("dados", "documento vazio")
	case len(in.Dados) > mediaapi.MaxDocumentoBytes:
		return domainerr.TooLarge("o documento tem no máximo 3 MiB")
	case !mediaapi.DocumentoTipos[tipo] || tipo != in.ContentType:
		return domainerr.Unsupported("o documento deve ser um PDF, JPEG ou PNG")
	}
	if err := h.store.Put(c.UserContext(), k, in.ContentType, in.Dados); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// get is GET of the route: 200 {"contentType","dados"}; 404 none.
func (h *Handlers) get(c *fiber.Ctx) error {
	k, err := key(c)
	if err != nil {
		return err
	}
	r, obj, err := h.store.Open(c.UserContext(), k)
	if errors.Is(err, objectstore.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, mediaapi.MaxDocumentoBytes+1))
	if err != nil {
		return domainerr.Unavailable("minio", err)
	}
	return c.JSON(mediaapi.Documento{ContentType: obj.ContentType, Dados: data})
}

// remove is DELETE of the route: 204, whether there was one or not.
func (h *Handlers) remove(c *fiber.Ctx) error {
	k, err := key(c)
	if err != nil {
		return err
	}
	if err := h.store.Remove(c.UserContext(), k); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
