package foto

import (
	"bytes"
	"encoding/binary"
	"image"
)

// Cameras and phones often store the sensor's pixels as they are and say
// in EXIF (tag Orientation) how to turn them. Re-encoding drops EXIF, so
// the turn is applied to the pixels first or the photo would show
// sideways.

// exifOrientation reads the EXIF Orientation (1–8) of a JPEG; 1 (as
// stored) when there is none or the metadata is malformed.
func exifOrientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 1
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return 1
		}
		marker := data[i+1]
		switch {
		case marker == 0xFF: // fill byte
			i++
			continue
		case marker == 0xDA || marker == 0xD9: // scan or end: no metadata past here
			return 1
		case marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7): // no length
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		if seg := data[i+4 : i+2+n]; marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return tiffOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// tiffOrientation finds tag 0x0112 (a SHORT) in the first IFD of an EXIF
// TIFF structure.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var order binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 1
	}
	if order.Uint16(t[2:]) != 42 {
		return 1
	}
	ifd := uint64(order.Uint32(t[4:]))
	if ifd+2 > uint64(len(t)) {
		return 1
	}
	count := uint64(order.Uint16(t[ifd:]))
	for k := range count {
		e := ifd + 2 + k*12
		if e+12 > uint64(len(t)) {
			return 1
		}
		if order.Uint16(t[e:]) == 0x0112 && order.Uint16(t[e+2:]) == 3 {
			if v := int(order.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 1
		}
	}
	return 1
}

// orient returns src turned as EXIF orientation o says (1 = unchanged).
func orient(src *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return src
	}
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	dw, dh := w, h
	if o >= 5 { // 5–8 swap the sides
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := range dh {
		for x := range dw {
			sx, sy := source(o, x, y, w, h)
			si := src.PixOffset(sx+src.Rect.Min.X, sy+src.Rect.Min.Y)
			copy(dst.Pix[dst.PixOffset(x, y):][:4], src.Pix[si:si+4])
		}
	}
	return dst
}

// source maps a pixel of the turned image back to the stored one, for an
// image stored w×h.
func source(o, x, y, w, h int) (int, int) {
	switch o {
	case 2: // mirrored left-right
		return w - 1 - x, y
	case 3: // upside down
		return w - 1 - x, h - 1 - y
	case 4: // mirrored top-bottom
		return x, h - 1 - y
	case 5: // transposed
		return y, x
	case 6: // needs a quarter turn clockwise
		return y, h - 1 - x
	case 7: // transversed
		return w - 1 - y, h - 1 - x
	default: // 8: needs a quarter turn counter-clockwise
		return w - 1 - y, x
	}
}
