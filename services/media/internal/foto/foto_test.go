package foto

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/color/palette"
	"image/jpeg"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/ponto/ponto/pkg/apierr"
)

// numbered is a w×h image whose pixel (x, y) has R=x, G=y.
func numbered(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{uint8(x), uint8(y), 0, 255})
		}
	}
	return img
}

// at returns the original coordinates carried by pixel (x, y).
func at(img *image.RGBA, x, y int) [2]int {
	c := img.RGBAAt(x, y)
	return [2]int{int(c.R), int(c.G)}
}

func TestOrientTurnsAsEXIFSays(t *testing.T) {
	src := numbered(3, 2) // stored 3 wide, 2 high
	// For each orientation: the size shown, and which stored pixel lands
	// on the shown top-left and top-right corners.
	for o, want := range map[int]struct {
		w, h              int
		topLeft, topRight [2]int
	}{
		1: {3, 2, [2]int{0, 0}, [2]int{2, 0}},
		2: {3, 2, [2]int{2, 0}, [2]int{0, 0}}, // mirrored
		3: {3, 2, [2]int{2, 1}, [2]int{0, 1}}, // upside down
		4: {3, 2, [2]int{0, 1}, [2]int{2, 1}}, // mirrored vertically
		5: {2, 3, [2]int{0, 0}, [2]int{0, 1}}, // transposed
		6: {2, 3, [2]int{0, 1}, [2]int{0, 0}}, // quarter turn clockwise
		7: {2, 3, [2]int{2, 1}, [2]int{2, 0}}, // transversed
		8: {2, 3, [2]int{2, 0}, [2]int{2, 1}}, // quarter turn counter-clockwise
	} {
		got := orient(src, o)
		b := got.Bounds()
		if b.Dx() != want.w || b.Dy() != want.h {
			t.Errorf("orientation %d: %v, want %dx%d", o, b, want.w, want.h)
			continue
		}
		if tl, tr := at(got, 0, 0), at(got, b.Dx()-1, 0); tl != want.topLeft || tr != want.topRight {
			t.Errorf("orientation %d: top corners from %v %v, want %v %v", o, tl, tr, want.topLeft, want.topRight)
		}
	}
	// 6 then 8 is the identity; so is 3 twice.
	if !bytes.Equal(orient(orient(src, 6), 8).Pix, src.Pix) || !bytes.Equal(orient(orient(src, 3), 3).Pix, src.Pix) {
		t.Error("turns do not compose back to the original")
	}
}

// exifJPEG is a JPEG whose APP1 EXIF holds one IFD0 entry: tag 0x0112 of
// type typ with value v, in the given byte order.
func exifJPEG(order binary.ByteOrder, typ, v uint16) []byte {
	var tiff bytes.Buffer
	if order == binary.LittleEndian {
		tiff.WriteString("II")
	} else {
		tiff.WriteString("MM")
	}
	for _, x := range []any{uint16(42), uint32(8), uint16(1), uint16(0x0112), typ, uint32(1), v, uint16(0), uint32(0)} {
		binary.Write(&tiff, order, x)
	}
	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	seg := []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 'J', 'F', 0xFF, 0xE1, 0, 0} // SOI, a tiny APP0, APP1
	binary.BigEndian.PutUint16(seg[10:], uint16(len(payload)+2))
	return append(append(seg, payload...), 0xFF, 0xD9)
}

func TestEXIFOrientation(t *testing.T) {
	for name, c := range map[string]struct {
		data []byte
		want int
	}{
		"big-endian 6":    {exifJPEG(binary.BigEndian, 3, 6), 6},
		"little-endian 8": {exifJPEG(binary.LittleEndian, 3, 8), 8},
		"out of range":    {exifJPEG(binary.BigEndian, 3, 9), 1},
		"not a SHORT":     {exifJPEG(binary.BigEndian, 4, 6), 1},
		"no EXIF":         {[]byte{0xFF, 0xD8, 0xFF, 0xD9}, 1},
		"not a JPEG":      {[]byte("GIF89a"), 1},
		"truncated":       {exifJPEG(binary.BigEndian, 3, 6)[:20], 1},
		"empty":           {nil, 1},
	} {
		if got := exifOrientation(c.data); got != c.want {
			t.Errorf("%s: %d, want %d", name, got, c.want)
		}
	}
}

func TestCurrentVersion(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	s := func(v string) *string { return &v }
	for in, want := range map[*string]bool{
		nil:                                false,
		s("/funcionarios/7/foto?v=" + sum): true,
		s("/funcionarios/7/foto?tamanho=thumb&v=" + sum):    true,
		s("/funcionarios/8/foto?v=" + sum):                  false, // another employee's
		s("/funcionarios/7/foto"):                           false,
		s("/funcionarios/7/foto?v=" + strings.ToUpper(sum)): false,
		s("/funcionarios/7/foto?v=../../empresas/1"):        false,
		s("https://cdn.example.com/x.jpg"):                  false,
	} {
		v, ok := currentVersion(7, in)
		if ok != want || (ok && string(v) != sum) {
			t.Errorf("%v: %q %v", in, v, ok)
		}
	}
	if photoKey(3, 7, version(sum)) != "empresas/3/funcionarios/7/"+sum+".jpg" ||
		thumbKey(3, 7, version(sum)) != "empresas/3/funcionarios/7/"+sum+"_thumb.jpg" {
		t.Error("object keys changed: stored photos would be lost")
	}
}

func TestMatches(t *testing.T) {
	etag := `"abc"`
	for header, want := range map[string]bool{
		`"abc"`: true, `W/"abc"`: true, `"x", "abc"`: true, `*`: true,
		``: false, `"abcd"`: false, `abc`: false, `"abc-thumb"`: false,
	} {
		if matches(header, etag) != want {
			t.Errorf("If-None-Match %q: %v", header, !want)
		}
	}
}

func status(err error) int {
	if e, ok := apierr.As(err); ok {
		return e.Status
	}
	return 0
}

func TestProcessScalesAndFlattens(t *testing.T) {
	// A paletted PNG (not a fast source type) larger than PhotoSide.
	img := image.NewPaletted(image.Rect(0, 0, 1200, 600), palette.Plan9)
	blue := uint8(img.Palette.Index(color.RGBA{0, 0, 255, 255}))
	for i := range img.Pix {
		img.Pix[i] = blue
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	p, err := process(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if p.photo.width != PhotoSide || p.photo.height != PhotoSide/2 || p.thumb.width != ThumbSide || p.thumb.height != ThumbSide/2 {
		t.Errorf("sizes %dx%d, thumb %dx%d", p.photo.width, p.photo.height, p.thumb.width, p.thumb.height)
	}
	out, err := jpeg.Decode(bytes.NewReader(p.photo.data))
	if err != nil {
		t.Fatal(err)
	}
	if r, g, b, _ := out.At(500, 200).RGBA(); r>>8 > 30 || g>>8 > 30 || b>>8 < 220 {
		t.Errorf("colour changed: %d %d %d", r>>8, g>>8, b>>8)
	}

	// Small images are not enlarged.
	buf.Reset()
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 30, 20)))
	if p, err := process(buf.Bytes()); err != nil || p.photo.width != 30 || p.thumb.width != 30 {
		t.Errorf("small image: %+v %v", p.photo.width, err)
	}
}

func TestProcessRefusals(t *testing.T) {
	// A header that lies about the size: IHDR says 10×10, the data holds one row.
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 10, 1)))
	lie := buf.Bytes()
	binary.BigEndian.PutUint32(lie[16+4:], 10) // height, CRC now wrong too
	for name, c := range map[string]struct {
		data   []byte
		status int
	}{
		"text":            {[]byte("hello"), http.StatusUnsupportedMediaType},
		"svg":             {[]byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), http.StatusUnsupportedMediaType},
		"JPEG magic only": {[]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0}, http.StatusBadRequest},
		"lying PNG":       {lie, http.StatusBadRequest},
	} {
		_, err := process(c.data)
		if status(err) != c.status {
			t.Errorf("%s: %v, want %d", name, err, c.status)
		}
	}
	for _, d := range [][2]int{{0, 10}, {10, 0}, {MaxSide + 1, 1}, {1, MaxSide + 1}, {4000, 4001}} {
		if err := checkDimensions(d[0], d[1]); !errors.Is(err, errDimensions) {
			t.Errorf("%v accepted", d)
		}
	}
	if err := checkDimensions(MaxSide, MaxPixels/MaxSide); err != nil {
		t.Errorf("largest allowed refused: %v", err)
	}
}
