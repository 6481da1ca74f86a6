package afastamento

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	mediaapi "github.com/ponto/ponto/services/media/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// MaxDocumentoBytes bounds a leave's document (3 MiB: a scanned
// certificate fits, and media takes it base64 in JSON within its 5 MiB
// body); MaxBodyBytes is the HTTP body that carries it with its
// multipart framing.
const (
	MaxDocumentoBytes = mediaapi.MaxDocumentoBytes
	MaxBodyBytes      = MaxDocumentoBytes + 64<<10
)

// tiposDocumento are the documents' types, recognised by their bytes
// (http.DetectContentType), never by a name or a header.
var tiposDocumento = mediaapi.DocumentoTipos

var (
	errDocTipo    = domainerr.Unsupported("o documento deve ser um PDF, JPEG ou PNG")
	errDocGrande  = domainerr.TooLarge("o documento tem no máximo 3 MiB")
	errDocVazio   = domainerr.InvalidField("documento", "envie o arquivo na parte documento")
	errSemServico = domainerr.Unavailable("media", fmt.Errorf("afastamento: no document store configured"))
)

// Documentos keeps the documents' bytes under a key: the media service's
// internal API (services/media/internalapi).
type Documentos interface {
	PutDocumento(ctx context.Context, chave, contentType string, data []byte) error
	GetDocumento(ctx context.Context, chave string) (data []byte, contentType string, err error)
	DeleteDocumento(ctx context.Context, chave string) error
}

// upload is POST /registropontos/afastamentos/{afastamentoId}/documento
// (multipart, file part documento): 200 the leave with its document. 415
// unless multipart and a PDF, JPEG or PNG by its bytes; 413 over 5 MiB;
// 400 without a file; 404 another company's leave; 409 a cancelled one;
// 503 media down. A new document replaces the old one.
func (h *Handlers) upload(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (Afastamento, error) {
	if h.Documentos == nil {
		return Afastamento{}, errSemServico
	}
	data, err := readDocument(c)
	if err != nil {
		return Afastamento{}, err
	}
	tipo := http.DetectContentType(data)
	if !tiposDocumento[tipo] {
		return Afastamento{}, errDocTipo
	}
	ctx := c.UserContext()
	old, err := h.Store.Get(ctx, caller.EmpresaID, id)
	if err != nil {
		return Afastamento{}, err
	}
	if old.Cancelamento != nil {
		return Afastamento{}, errJaCancelado
	}
	sum := sha256.Sum256(data)
	doc := documento{chave: fmt.Sprintf("afastamentos/%d/%d/%s", caller.EmpresaID, id, hex.EncodeToString(sum[:12])),
		tipo: tipo, tamanho: int64(len(data))}
	oldKey, _, _ := h.Store.document(ctx, caller.EmpresaID, id)
	if err := h.Documentos.PutDocumento(ctx, doc.chave, tipo, data); err != nil {
		return Afastamento{}, domainerr.Unavailable("media", err)
	}
	a, err := h.Store.setDocument(ctx, caller.EmpresaID, id, doc, h.Clock.Now())
	if err != nil {
		h.discard(doc.chave)
		return Afastamento{}, err
	}
	if oldKey.chave != "" && oldKey.chave != doc.chave {
		h.discard(oldKey.chave)
	}
	return a, nil
}

// discard removes an object no leave names any more, even after the
// request's deadline; a failure leaves an orphan, never a broken leave.
func (h *Handlers) discard(chave string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = h.Documentos.DeleteDocumento(ctx, chave)
}

// readDocument returns the file of the part documento, at most
// MaxDocumentoBytes (the server's body limit refused much larger ones
// before reading them).
func readDocument(c *fiber.Ctx) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != fiber.MIMEMultipartForm {
		return nil, domainerr.Unsupported("envie o documento como multipart/form-data")
	}
	form, err := c.MultipartForm()
	if err != nil {
		return nil, domainerr.Malformed("multipart_invalido", "corpo multipart/form-data malformado").Wrap(err)
	}
	files := form.File["documento"]
	switch {
	case len(files) == 0:
		return nil, errDocVazio
	case len(files) > 1:
		return nil, domainerr.InvalidField("documento", "envie um único documento")
	case files[0].Size > MaxDocumentoBytes:
		return nil, errDocGrande
	}
	f, err := files[0].Open()
	if err != nil {
		return nil, fmt.Errorf("afastamento: open upload: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxDocumentoBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("afastamento: read upload: %w", err)
	case len(data) > MaxDocumentoBytes:
		return nil, errDocGrande
	case len(data) == 0:
		return nil, errDocVazio
	}
	return data, nil
}

// download is GET /registropontos/afastamentos/{afastamentoId}/documento:
// 200 the document's bytes with its type. The company gets its
// employees', an employee his own; anything else, and a leave without a
// document, is 404.
func (h *Handlers) download(c *fiber.Ctx) error {
	caller, err := jwtauth.Caller(c)
	if err != nil {
		return err
	}
	id, err := request.ID(c, "afastamentoId")
	if err != nil {
		return err
	}
	if h.Documentos == nil {
		return errSemServico
	}
	doc, funcionarioID, err := h.Store.document(c.UserContext(), caller.EmpresaID, id)
	if err == nil && caller.Role == jwtauth.RoleFuncionario && caller.FuncionarioID != funcionarioID {
		err = errNaoEncontrado
	}
	if err != nil {
		return err
	}
	data, tipo, err := h.Documentos.GetDocumento(c.UserContext(), doc.chave)
	if err != nil {
		return domainerr.Unavailable("media", err)
	}
	if !tiposDocumento[tipo] {
		tipo = doc.tipo
	}
	c.Set(fiber.HeaderContentType, tipo)
	c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="afastamento-%d%s"`, id, extension(tipo)))
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set(fiber.HeaderCacheControl, "private, no-store")
	return c.Send(data)
}

func extension(tipo string) string {
	switch tipo {
	case "application/pdf":
		return ".pdf"
	case "image/png":
		return ".png"
	}
	return ".jpg"
}
