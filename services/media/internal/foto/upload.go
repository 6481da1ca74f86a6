package foto

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
)

// cleanupTimeout bounds the removal of objects after a failure or a
// replacement; it runs even when the request's own deadline has passed.
const cleanupTimeout = 5 * time.Second

// Foto is the answer of an upload: what was stored and where to get it.
type Foto struct {
	FuncionarioID int64 `json:"funcionarioId"`
	// FotoProfile is the value now in the employee's record (= URL).
	FotoProfile string `json:"fotoProfile"`
	// Imagem is the photo itself, its fields at the answer's top level.
	Imagem
	Miniatura Imagem `json:"miniatura"`
}

// Imagem describes one stored image: the photo or its thumbnail.
type Imagem struct {
	URL          string `json:"url"`
	ContentType  string `json:"contentType"`
	Largura      int    `json:"largura"`
	Altura       int    `json:"altura"`
	TamanhoBytes int    `json:"tamanhoBytes"`
	SHA256       string `json:"sha256"`
}

// upload is POST /funcionarios/{funcionarioId}/foto: 200 Foto; 404 for
// anyone but the employee and his company; 415 unless the body is
// multipart and the file is JPEG, PNG or WebP by content; 413 over 5 MiB;
// 400 without a file or for an image too large in pixels or unreadable;
// 503 when MinIO or the employee service fails, with nothing changed.
func (h *Handlers) upload(c *fiber.Ctx) error {
	f, err := h.owner(c)
	if err != nil {
		return err
	}
	data, err := readUpload(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	release, err := h.acquire(ctx)
	if err != nil {
		return err
	}
	p, err := process(data)
	release()
	if err != nil {
		return err
	}
	if err := h.replace(ctx, f, p); err != nil {
		return err
	}
	h.log.InfoContext(ctx, "photo stored", "funcionario_id", f.ID, "empresa_id", f.EmpresaID,
		"source_type", p.sourceType, "sha256", p.photo.sum, "bytes", len(p.photo.data))
	return c.JSON(answer(f.ID, p))
}

// readUpload returns the file of the part foto, at most MaxUploadBytes.
// The server's body limit (MaxBodyBytes) has already refused anything much
// larger before it was read; this enforces the exact limit on the file.
func readUpload(c *fiber.Ctx) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != fiber.MIMEMultipartForm {
		return nil, errNotMultipart
	}
	form, err := c.MultipartForm()
	if err != nil {
		return nil, domainerr.Malformed("multipart_invalido", "corpo multipart/form-data malformado").Wrap(err)
	}
	files := form.File["foto"]
	switch {
	case len(files) == 0:
		return nil, errNoFile
	case len(files) > 1:
		return nil, domainerr.InvalidField("foto", "envie uma única foto")
	case files[0].Size > MaxUploadBytes:
		return nil, errTooLarge
	}
	file, err := files[0].Open()
	if err != nil {
		return nil, fmt.Errorf("foto: open upload: %w", err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, MaxUploadBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("foto: read upload: %w", err)
	case len(data) > MaxUploadBytes:
		return nil, errTooLarge
	case len(data) == 0:
		return nil, errNoFile
	}
	return data, nil
}

// replace stores the new photo and makes it the employee's, in the one
// order that never leaves a half-done state visible: both objects first
// (a failure removes what may have been written, fotoProfile untouched),
// then fotoProfile (a failure removes the new objects), and only then the
// replaced photo's objects. A re-upload of the current photo has the same
// keys, which are then never removed.
func (h *Handlers) replace(ctx context.Context, f employeeapi.Funcionario, p processed) error {
	v := version(p.photo.sum)
	newKeys := []string{photoKey(f.EmpresaID, f.ID, v), thumbKey(f.EmpresaID, f.ID, v)}
	old, hadOld := currentVersion(f.ID, f.FotoProfile)
	same := hadOld && old == v
	discardNew := func() {
		if !same {
			h.discard(ctx, newKeys...)
		}
	}

	for i, r := range []rendition{p.photo, p.thumb} {
		if err := h.store.Put(ctx, newKeys[i], contentType, r.data); err != nil {
			discardNew()
			return err
		}
	}
	url := photoURL(f.ID, v)
	if err := h.employees.SetFoto(ctx, f.ID, &url); err != nil && !h.isCurrent(ctx, f.ID, url) {
		discardNew()
		if e, ok := apierr.As(err); ok && e.Status == http.StatusNotFound {
			return errNotFound.Wrap(err)
		}
		return domainerr.Unavailable("employee", err)
	}
	if hadOld && !same {
		h.discard(ctx, photoKey(f.EmpresaID, f.ID, old), thumbKey(f.EmpresaID, f.ID, old))
	}
	return nil
}

// isCurrent tells, after a failed update, whether it was applied anyway
// (say the answer was lost in a timeout): then the new objects are in use
// and must stay. When it cannot tell, it says no.
func (h *Handlers) isCurrent(ctx context.Context, id int64, url string) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	f, err := h.employees.GetFuncionario(ctx, id)
	return err == nil && f.FotoProfile != nil && *f.FotoProfile == url
}

// discard removes objects no record points at. A failure only leaves an
// unreachable object behind, so it is logged, not returned.
func (h *Handlers) discard(ctx context.Context, keys ...string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if err := h.store.Remove(ctx, keys...); err != nil {
		h.log.WarnContext(ctx, "photo objects left behind", "keys", keys, "err", err)
	}
}

func answer(id int64, p processed) Foto {
	v := version(p.photo.sum)
	return Foto{
		FuncionarioID: id,
		FotoProfile:   photoURL(id, v),
		Imagem:        describe(photoURL(id, v), p.photo),
		Miniatura:     describe(thumbURL(id, v), p.thumb),
	}
}

// describe is what the answer tells of the rendition r, served at url.
func describe(url string, r rendition) Imagem {
	return Imagem{URL: url, ContentType: contentType, Largura: r.width, Altura: r.height,
		TamanhoBytes: len(r.data), SHA256: r.sum}
}
