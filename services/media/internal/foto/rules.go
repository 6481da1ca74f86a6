package foto

import (
	"fmt"
	"time"

	"github.com/ponto/ponto/pkg/domainerr"
)

// Limits of an upload (DESIGN.md, Photos).
const (
	// MaxUploadBytes is the largest photo file accepted: 5 MiB.
	MaxUploadBytes = 5 << 20
	// MaxBodyBytes is the request body limit media needs (HTTP_BODY_LIMIT
	// default): the file plus room for the multipart framing. The server
	// refuses a larger body with 413 before reading it (when the client
	// declares Content-Length) or as soon as it crosses the limit
	// (chunked), so an upload never costs more memory than this.
	MaxBodyBytes = MaxUploadBytes + 64<<10
	// MaxSide and MaxPixels are checked on the header of the image, before
	// any pixel is decoded: a tiny PNG may declare 50000×50000 pixels
	// and would otherwise cost gigabytes once decoded.
	MaxSide   = 4096
	MaxPixels = 16_000_000
)

// Sizes of what is stored. Photos are always re-encoded as JPEG (Go has
// no WebP encoder, and JPEG is what every client shows), which drops
// EXIF/GPS and any other metadata the upload carried.
const (
	// PhotoSide is the longest side of the stored photo: a profile picture
	// needs no more, and a bounded size keeps downloads and memory small.
	PhotoSide = 1024
	// ThumbSide is the longest side of the thumbnail (?tamanho=thumb).
	ThumbSide   = 256
	jpegQuality = 85
	contentType = "image/jpeg"
)

// Config is the photo part of the media configuration (PHOTO_*).
type Config struct {
	// MaxConcurrent bounds the photos decoded at once: one decode of a
	// 16-megapixel image takes up to ~130 MiB, so this is what bounds the
	// pod's memory under a burst of uploads.
	MaxConcurrent int `conf:"default:2,help:photos decoded at the same time"`
	// CacheMaxAge is the max-age of the Cache-Control sent with a photo;
	// clients revalidate with If-None-Match afterwards.
	CacheMaxAge time.Duration `conf:"default:5m,help:Cache-Control max-age of served photos"`
}

// Validate rejects settings that would block uploads or caching.
func (c *Config) Validate() error {
	if c.MaxConcurrent < 1 {
		return fmt.Errorf("MaxConcurrent must be at least 1")
	}
	if c.CacheMaxAge < 0 {
		return fmt.Errorf("CacheMaxAge must not be negative")
	}
	return nil
}

// Answers of the photo routes. Another company's employee, a colleague
// and an unknown id all get errNotFound: nobody learns who exists.
var (
	errNotFound     = domainerr.NotFound("funcionário não encontrado")
	errNoPhoto      = domainerr.NotFound("funcionário sem foto")
	errNotMultipart = domainerr.Unsupported("envie a foto como multipart/form-data, no campo foto")
	errNoFile       = domainerr.InvalidField("foto", "envie um arquivo de imagem no campo foto")
	errTooLarge     = domainerr.TooLarge("a foto deve ter no máximo 5 MiB")
	errNotImage     = domainerr.Unsupported("a foto deve ser uma imagem JPEG, PNG ou WebP")
	errUnreadable   = domainerr.InvalidField("foto", "imagem corrompida ou ilegível")
	errDimensions   = domainerr.InvalidField("foto", fmt.Sprintf(
		"a imagem deve ter no máximo %d pixels de lado e %d megapixels", MaxSide, MaxPixels/1_000_000))
	errTamanho = domainerr.InvalidField("tamanho", "use thumb para a miniatura, ou omita para a foto")
)

// checkDimensions refuses an empty image and a decompression bomb.
func checkDimensions(width, height int) error {
	if width < 1 || height < 1 || width > MaxSide || height > MaxSide || width*height > MaxPixels {
		return errDimensions
	}
	return nil
}
