package foto

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/media/internal/objectstore"
)

// streamTimeout bounds reading one object from MinIO while the answer is
// written; the request's own deadline ends when the handler returns, which
// is before the body is sent.
const streamTimeout = time.Minute

// download is GET /funcionarios/{funcionarioId}/foto[?tamanho=thumb]:
// 200 with the JPEG streamed from MinIO, ETag (the photo's SHA-256) and
// Cache-Control private; 304 when If-None-Match names the current
// version; 404 for anyone but the employee and his company, and when he
// has no photo; 503 when MinIO fails. The v query parameter of fotoProfile
// only makes the URL change with the photo: the current photo is served.
func (h *Handlers) download(c *fiber.Ctx) error {
	thumb, err := wantsThumb(c.Query("tamanho"))
	if err != nil {
		return err
	}
	f, err := h.owner(c)
	if err != nil {
		return err
	}
	v, ok := currentVersion(f.ID, f.FotoProfile)
	if !ok {
		return errNoPhoto
	}
	key, etag := photoKey(f.EmpresaID, f.ID, v), `"`+string(v)+`"`
	if thumb {
		key, etag = thumbKey(f.EmpresaID, f.ID, v), `"`+string(v)+`-thumb"`
	}
	c.Set(fiber.HeaderETag, etag)
	c.Set(fiber.HeaderCacheControl, "private, max-age="+strconv.Itoa(int(h.cfg.CacheMaxAge.Seconds())))
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if matches(c.Get(fiber.HeaderIfNoneMatch), etag) {
		// fotoProfile names the version: no need to ask MinIO.
		return c.SendStatus(fiber.StatusNotModified)
	}

	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.UserContext()), streamTimeout)
	body, obj, err := h.store.Open(ctx, key)
	if err != nil {
		cancel()
		if errors.Is(err, objectstore.ErrNotFound) {
			return errNoPhoto.Wrap(err)
		}
		return err
	}
	ct := obj.ContentType
	if ct == "" { // written by an older or foreign client: ours are JPEG
		ct = contentType
	}
	c.Set(fiber.HeaderContentType, ct)
	// fasthttp copies the stream to the client and closes it afterwards.
	c.Response().SetBodyStream(&closer{ReadCloser: body, cancel: cancel}, int(obj.Size))
	return nil
}

// wantsThumb reads ?tamanho: absent for the photo, thumb for the thumbnail.
func wantsThumb(tamanho string) (bool, error) {
	switch tamanho {
	case "":
		return false, nil
	case "thumb":
		return true, nil
	}
	return false, errTamanho
}

// matches implements If-None-Match (RFC 9110 13.1.2): "*" or any listed
// tag equal to etag under the weak comparison.
func matches(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
			return true
		}
	}
	return false
}

// closer ends the object's context once the body has been sent.
type closer struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *closer) Close() error {
	defer c.cancel()
	return c.ReadCloser.Close()
}
