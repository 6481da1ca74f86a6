package bench

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"mime/multipart"
	"net/textproto"
	"sync"
)

// photoSize is the upload of the photo workload: 1 MiB.
const photoSize = 1 << 20

var (
	photoOnce sync.Once
	photoData []byte
	photoType string
)

// photoBody is a multipart/form-data body with one part "foto" holding a
// JPEG of about 1 MiB: a 1600×1200 photo-like image (gradients and
// noise, which compress like a camera's picture), at the JPEG quality
// that comes closest to 1 MiB.
func photoBody() ([]byte, string) {
	photoOnce.Do(func() {
		img := photoImage(1600, 1200)
		best := []byte(nil)
		for lo, hi := 10, 100; lo <= hi; {
			q := (lo + hi) / 2
			var b bytes.Buffer
			_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: q})
			if best == nil || abs(b.Len()-photoSize) < abs(len(best)-photoSize) {
				best = b.Bytes()
			}
			if b.Len() < photoSize {
				lo = q + 1
			} else {
				hi = q - 1
			}
		}
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="foto"; filename="foto.jpg"`)
		h.Set("Content-Type", "image/jpeg")
		part, _ := mw.CreatePart(h)
		_, _ = part.Write(best)
		_ = mw.Close()
		photoData, photoType = body.Bytes(), mw.FormDataContentType()
	})
	return photoData, photoType
}

func photoImage(w, h int) image.Image {
	r := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			n := r.IntN(48)
			img.Set(x, y, color.RGBA{R: uint8((x*255/w + n) % 256), G: uint8((y*255/h + n) % 256),
				B: uint8(((x+y)*127/(w+h) + n) % 256), A: 255})
		}
	}
	return img
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
