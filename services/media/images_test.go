package main

// Images for the tests, made here with the standard library (JPEG, PNG),
// by hand (the EXIF segment, the decompression bomb) or committed
// (testdata/*.webp, see testdata/README.md: Go has no WebP encoder).

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"testing"

	_ "golang.org/x/image/webp" // image.Decode of the testdata
)

var (
	red   = color.RGBA{220, 20, 20, 255}
	blue  = color.RGBA{20, 20, 220, 255}
	green = color.RGBA{20, 200, 20, 255}
	white = color.RGBA{255, 255, 255, 255}
)

// halves is w×h, left half red, right half blue.
func halves(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := red
			if x >= w/2 {
				c = blue
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func jpegBytes(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func pngBytes(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// greenSquare is 40×40, transparent but for a green square in the middle.
func greenSquare() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 40))
	for y := 10; y < 30; y++ {
		for x := 10; x < 30; x++ {
			img.Set(x, y, green)
		}
	}
	return img
}

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// GPS position written in the test EXIF: 23°33'12.34"S 46°38'56.78"W.
var gpsLatitude = []uint32{23, 1, 33, 1, 1234, 100}

// withEXIF inserts, right after SOI, an APP1 EXIF segment (big-endian
// TIFF) with Orientation, Make and a GPS IFD (latitude and its reference),
// as a phone would.
func withEXIF(t *testing.T, jpg []byte, orientation uint16) []byte {
	t.Helper()
	be := binary.BigEndian
	var tiff bytes.Buffer
	w := func(v any) { binary.Write(&tiff, be, v) }
	// Header, IFD0 at 8 with three entries.
	tiff.WriteString("MM")
	w(uint16(42))
	w(uint32(8))
	const ifd0Entries = 3
	makeAt := uint32(8 + 2 + ifd0Entries*12 + 4) // the Make string, right after IFD0
	gpsAt := makeAt + 8                          // the GPS IFD, after the 8-byte string
	w(uint16(ifd0Entries))
	// Orientation SHORT.
	w(uint16(0x0112))
	w(uint16(3))
	w(uint32(1))
	w(orientation)
	w(uint16(0))
	// Make, ASCII "PontoCm" + NUL (8 bytes, stored at makeAt).
	w(uint16(0x010F))
	w(uint16(2))
	w(uint32(8))
	w(makeAt)
	// GPSInfo LONG pointer.
	w(uint16(0x8825))
	w(uint16(4))
	w(uint32(1))
	w(gpsAt)
	w(uint32(0)) // no IFD1
	tiff.WriteString("PontoCm\x00")
	// GPS IFD: LatitudeRef "S", Latitude three RATIONALs after the IFD.
	latAt := gpsAt + 2 + 2*12 + 4
	w(uint16(2))
	w(uint16(0x0001))
	w(uint16(2))
	w(uint32(2))
	tiff.WriteString("S\x00\x00\x00")
	w(uint16(0x0002))
	w(uint16(5))
	w(uint32(3))
	w(latAt)
	w(uint32(0))
	for _, v := range gpsLatitude {
		w(v)
	}

	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	be.PutUint16(seg[2:], uint16(len(payload)+2))
	seg = append(seg, payload...)
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

// bombPNG is a valid-looking PNG of a few hundred bytes whose header
// declares w×h pixels of RGBA: decoded, it would take w*h*4 bytes.
func bombPNG(w, h uint32) []byte {
	var buf bytes.Buffer
	buf.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&buf, binary.BigEndian, uint32(len(data)))
		buf.WriteString(typ)
		buf.Write(data)
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		binary.Write(&buf, binary.BigEndian, crc.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8 bits, RGBA
	chunk("IHDR", ihdr)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 64<<10)) // the start of the first rows: zeros compress to nothing
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return buf.Bytes()
}

// decoded decodes a stored or served image.
func decoded(t *testing.T, b []byte) (image.Image, string) {
	t.Helper()
	img, format, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not an image: %v", err)
	}
	return img, format
}

// near tells whether c is within tol of want on every channel (JPEG is
// lossy).
func near(c color.Color, want color.RGBA, tol int) bool {
	r, g, b, _ := c.RGBA()
	d := func(a uint32, b uint8) bool { return abs(int(a>>8)-int(b)) <= tol }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// jpegSegments lists the markers of a JPEG's header segments, up to the
// start of scan.
func jpegSegments(t *testing.T, b []byte) []byte {
	t.Helper()
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		t.Fatal("not a JPEG")
	}
	var markers []byte
	for i := 2; i+4 <= len(b); {
		m := b[i+1]
		markers = append(markers, m)
		if m == 0xDA {
			break
		}
		i += 2 + int(binary.BigEndian.Uint16(b[i+2:]))
	}
	return markers
}
