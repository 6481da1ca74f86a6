package foto

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
)

// format decodes one accepted upload type. Each type has its own decoder
// rather than image.Decode's registry, so that the decoder used is the
// one the content was recognised as.
type format struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}

// formats are the accepted uploads, keyed by the type that
// http.DetectContentType recognises from the first bytes (magic numbers);
// the file name and the part's Content-Type are never consulted.
var formats = map[string]format{
	"image/jpeg": {jpeg.DecodeConfig, jpeg.Decode},
	"image/png":  {png.DecodeConfig, png.Decode},
	"image/webp": {webp.DecodeConfig, webp.Decode},
}

// rendition is one stored image: JPEG bytes, their size in pixels and
// their SHA-256.
type rendition struct {
	data          []byte
	width, height int
	sum           string
}

// processed is an upload made safe to store.
type processed struct {
	sourceType string // what was uploaded, for the logs
	photo      rendition
	thumb      rendition
}

// process checks the upload and re-encodes it: 415 unless the content is
// JPEG, PNG or WebP; 400 when its declared size is out of bounds (checked
// before decoding) or it does not decode. The photo is turned upright
// (EXIF orientation), flattened onto white, scaled to at most PhotoSide
// and encoded again as JPEG, so no byte of the upload's metadata (EXIF,
// GPS, XMP, comments) survives; the thumbnail is made from it.
func process(data []byte) (processed, error) {
	kind := http.DetectContentType(data)
	f, ok := formats[kind]
	if !ok {
		return processed{}, errNotImage
	}
	cfg, err := f.config(bytes.NewReader(data))
	if err != nil {
		return processed{}, errUnreadable.Wrap(err)
	}
	if err := checkDimensions(cfg.Width, cfg.Height); err != nil {
		return processed{}, err
	}
	img, err := f.decode(bytes.NewReader(data))
	if err != nil {
		return processed{}, errUnreadable.Wrap(err)
	}
	if b := img.Bounds(); b.Dx() != cfg.Width || b.Dy() != cfg.Height {
		// The header said one size and the pixels another: not trusted.
		return processed{}, errUnreadable
	}
	orientation := 1
	if kind == "image/jpeg" {
		orientation = exifOrientation(data)
	}

	upright := orient(fit(img, PhotoSide), orientation)
	photo, err := encode(upright)
	if err != nil {
		return processed{}, err
	}
	thumb, err := encode(fit(upright, ThumbSide))
	if err != nil {
		return processed{}, err
	}
	return processed{sourceType: kind, photo: photo, thumb: thumb}, nil
}

// fit scales src so that its longest side is at most side (never up),
// over a white background: JPEG has no alpha, and transparent pixels
// would otherwise turn black.
func fit(src image.Image, side int) *image.RGBA {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if long := max(w, h); long > side {
		w, h = max(1, w*side/long), max(1, h*side/long)
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	if w == b.Dx() && h == b.Dy() {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Over)
		return dst
	}
	draw.CatmullRom.Scale(dst, dst.Bounds(), fastSource(src), b, draw.Over, nil)
	return dst
}

// fastSource returns src as a type x/image/draw scales without a call per
// pixel read (a kernel reads each source pixel many times). Other types
// (paletted, 16-bit PNG, WebP with alpha...) are copied to RGBA once.
func fastSource(src image.Image) image.Image {
	switch src.(type) {
	case *image.RGBA, *image.NRGBA, *image.YCbCr, *image.Gray:
		return src
	}
	b := src.Bounds()
	rgba := image.NewRGBA(b)
	draw.Draw(rgba, b, src, b.Min, draw.Src)
	return rgba
}

// encode writes img as JPEG and names it by its digest.
func encode(img *image.RGBA) (rendition, error) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality}); err != nil {
		return rendition{}, err
	}
	sum := sha256.Sum256(buf.Bytes())
	b := img.Bounds()
	return rendition{data: buf.Bytes(), width: b.Dx(), height: b.Dy(), sum: hex.EncodeToString(sum[:])}, nil
}
