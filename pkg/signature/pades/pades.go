// Package pades places a PAdES baseline B-B signature (ETSI EN 319 142-1,
// /SubFilter /ETSI.CAdES.detached) in a PDF, the way ISO 32000-1 §12.8
// describes, without touching the original bytes: it appends an
// incremental update holding
//
//   - the signature dictionary (/Type /Sig) with a /ByteRange covering the
//     whole file except the /Contents value, a fixed-size /Contents
//     placeholder and the signing time in /M;
//   - an invisible signature field merged with its widget annotation;
//   - new versions of the catalog (gaining /AcroForm with /SigFlags 3) and
//     of the first page (gaining the widget in /Annots);
//   - a cross-reference section for those objects and a trailer whose
//     /Prev points to the original one.
//
// The file is then written with the placeholder, the covered bytes are
// signed (a detached CMS, package signature's CAdES) and the DER is
// written in hex into the placeholder. Any change to a covered byte
// breaks the signature.
//
// It reads only what it needs of the original: the last trailer, the
// classic cross-reference tables (not cross-reference streams) and the
// catalog and page dictionaries. That is enough for the PDFs ponto makes
// with go-pdf/fpdf (PDF 1.3 without forms); anything else is refused with
// ErrUnsupported rather than signed wrongly. No Go PDF-signing library
// could be fetched for this project, hence this small one.
package pades

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"
	"unicode/utf16"
)

// MaxSignatureSize is the room reserved for the CMS (DER bytes): a
// signature with the signer's certificate and an ICP-Brasil chain of three
// or four certificates fits with margin.
const MaxSignatureSize = 16 << 10

// ErrUnsupported means the PDF uses structures this package does not
// edit (cross-reference streams, an existing form, an indirect /Annots).
var ErrUnsupported = errors.New("pades: PDF structure not supported")

// Info describes the signature: who signs, why and when (/M).
type Info struct {
	Name, Reason, Location string
	Time                   time.Time
}

// SignFunc returns a detached CMS SignedData (DER) over data.
type SignFunc func(data []byte) ([]byte, error)

// byteRangeSlot is the /ByteRange placeholder, rewritten in place with
// the real offsets padded by spaces to the same length.
const byteRangeSlot = "[0 0000000000 0000000000 0000000000]"

// Sign returns pdf with a signature by sign appended as an incremental
// update.
func Sign(pdf []byte, sign SignFunc, info Info) ([]byte, error) {
	doc, err := read(pdf)
	if err != nil {
		return nil, err
	}
	catalog, err := doc.object(doc.root)
	if err != nil {
		return nil, err
	}
	if bytes.Contains(catalog, []byte("/AcroForm")) {
		return nil, fmt.Errorf("%w: the document already has a form", ErrUnsupported)
	}
	pageNum, page, err := doc.firstPage(catalog)
	if err != nil {
		return nil, err
	}
	sigNum, fieldNum := doc.size, doc.size+1
	field := fmt.Sprintf("%d 0 R", fieldNum)
	newPage, err := addAnnot(page, field)
	if err != nil {
		return nil, err
	}

	out := bytes.NewBuffer(make([]byte, 0, len(pdf)+2*MaxSignatureSize+2048))
	out.Write(pdf)
	if !bytes.HasSuffix(pdf, []byte("\n")) {
		out.WriteByte('\n')
	}
	offsets := map[int]int{}
	begin := func(num int) {
		offsets[num] = out.Len()
		fmt.Fprintf(out, "%d 0 obj\n", num)
	}

	begin(sigNum)
	out.WriteString("<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange ")
	byteRangeAt := out.Len()
	out.WriteString(byteRangeSlot)
	out.WriteString(" /Contents ")
	contentsAt := out.Len()
	out.WriteByte('<')
	out.Write(bytes.Repeat([]byte("0"), 2*MaxSignatureSize))
	out.WriteByte('>')
	contentsEnd := out.Len()
	fmt.Fprintf(out, " /M %s /Name %s /Reason %s /Location %s>>\nendobj\n", pdfDate(info.Time),
		textString(info.Name), textString(info.Reason), textString(info.Location))

	begin(fieldNum)
	fmt.Fprintf(out, "<</Type /Annot /Subtype /Widget /FT /Sig /T (Assinatura) /V %d 0 R /F 132 /Rect [0 0 0 0] /P %d 0 R>>\nendobj\n",
		sigNum, pageNum)
	begin(doc.root)
	out.Write(insert(catalog, fmt.Sprintf(" /AcroForm <</Fields [%s] /SigFlags 3>>", field)))
	out.WriteString("\nendobj\n")
	begin(pageNum)
	out.Write(newPage)
	out.WriteString("\nendobj\n")

	xref := out.Len()
	out.WriteString("xref\n")
	for _, num := range []int{doc.root, pageNum, sigNum, fieldNum} {
		fmt.Fprintf(out, "%d 1\n%010d 00000 n\r\n", num, offsets[num])
	}
	fmt.Fprintf(out, "trailer\n<</Size %d /Root %d 0 R /Prev %d%s>>\nstartxref\n%d\n%%%%EOF\n",
		fieldNum+1, doc.root, doc.startxref, doc.trailerExtra, xref)

	b := out.Bytes()
	br := fmt.Sprintf("[0 %d %d %d]", contentsAt, contentsEnd, len(b)-contentsEnd)
	if len(br) > len(byteRangeSlot) {
		return nil, fmt.Errorf("pades: document too large")
	}
	copy(b[byteRangeAt:], br+string(bytes.Repeat([]byte(" "), len(byteRangeSlot)-len(br))))

	covered := make([]byte, 0, len(b)-(contentsEnd-contentsAt))
	covered = append(append(covered, b[:contentsAt]...), b[contentsEnd:]...)
	cms, err := sign(covered)
	if err != nil {
		return nil, err
	}
	if len(cms) > MaxSignatureSize {
		return nil, fmt.Errorf("pades: signature of %d bytes exceeds the %d reserved", len(cms), MaxSignatureSize)
	}
	hex.Encode(b[contentsAt+1:], cms)
	return b, nil
}

// addAnnot adds the reference ref to the page dictionary's /Annots,
// creating the array when the page has none.
func addAnnot(page []byte, ref string) ([]byte, error) {
	loc := annotsArray.FindIndex(page)
	if loc != nil {
		return append(append(bytes.Clone(page[:loc[1]]), []byte(ref+" ")...), page[loc[1]:]...), nil
	}
	if bytes.Contains(page, []byte("/Annots")) {
		return nil, fmt.Errorf("%w: the page's /Annots is not a direct array", ErrUnsupported)
	}
	return insert(page, " /Annots ["+ref+"]"), nil
}

var annotsArray = regexp.MustCompile(`/Annots\s*\[`)

// insert adds entries at the end of dictionary dict ("<< ... >>").
func insert(dict []byte, entries string) []byte {
	body := bytes.TrimSuffix(dict, []byte(">>"))
	return append(append(bytes.Clone(body), entries...), ">>"...)
}

// pdfDate writes t as a PDF date in UTC.
func pdfDate(t time.Time) string { return t.UTC().Format("(D:20060102150405+00'00')") }

// textString writes s as a PDF text string: a literal for printable ASCII,
// else UTF-16BE with its byte-order mark, in hex.
func textString(s string) string {
	ascii := true
	for _, r := range s {
		if r < 0x20 || r > 0x7e {
			ascii = false
			break
		}
	}
	if ascii {
		var b bytes.Buffer
		b.WriteByte('(')
		for _, c := range []byte(s) {
			if c == '(' || c == ')' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		b.WriteByte(')')
		return b.String()
	}
	u := utf16.Encode([]rune(s))
	b := []byte{0xfe, 0xff}
	for _, c := range u {
		b = append(b, byte(c>>8), byte(c))
	}
	return "<" + hex.EncodeToString(b) + ">"
}

// atoi reads a decimal number matched by a regular expression.
func atoi(b []byte) int {
	n, _ := strconv.Atoi(string(b))
	return n
}
