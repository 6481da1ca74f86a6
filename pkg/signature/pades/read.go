package pades

import (
	"bytes"
	"fmt"
	"regexp"
)

// document is what Sign needs to know of the original file.
type document struct {
	pdf          []byte
	startxref    int         // offset of the last cross-reference table
	size         int         // trailer /Size: the next free object number
	root         int         // the catalog's object number
	trailerExtra string      // /Info and /ID, kept in the new trailer
	offsets      map[int]int // object number → offset, newest first wins
}

var (
	reStartxref = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)
	reSize      = regexp.MustCompile(`/Size\s+(\d+)`)
	reRoot      = regexp.MustCompile(`/Root\s+(\d+)\s+0\s+R`)
	reInfo      = regexp.MustCompile(`/Info\s+\d+\s+\d+\s+R`)
	reID        = regexp.MustCompile(`/ID\s*\[[^\]]*\]`)
	rePrev      = regexp.MustCompile(`/Prev\s+(\d+)`)
	reSubsect   = regexp.MustCompile(`^(\d+)\s+(\d+)\s*\r?\n`)
	rePages     = regexp.MustCompile(`/Pages\s+(\d+)\s+0\s+R`)
	reFirstKid  = regexp.MustCompile(`/Kids\s*\[\s*(\d+)\s+0\s+R`)
	reTypePages = regexp.MustCompile(`/Type\s*/Pages\b`)
)

// read finds the last trailer and reads the cross-reference tables it
// chains to.
func read(pdf []byte) (*document, error) {
	m := reStartxref.FindSubmatch(pdf)
	if m == nil {
		return nil, fmt.Errorf("%w: no startxref at the end", ErrUnsupported)
	}
	d := &document{pdf: pdf, startxref: atoi(m[1]), offsets: map[int]int{}}
	trailer, err := d.section(d.startxref)
	if err != nil {
		return nil, err
	}
	size, root := reSize.FindSubmatch(trailer), reRoot.FindSubmatch(trailer)
	if size == nil || root == nil {
		return nil, fmt.Errorf("%w: trailer without /Size or /Root", ErrUnsupported)
	}
	d.size, d.root = atoi(size[1]), atoi(root[1])
	for _, re := range []*regexp.Regexp{reInfo, reID} {
		if x := re.Find(trailer); x != nil {
			d.trailerExtra += " " + string(x)
		}
	}
	// Older sections: objects they list that a newer one did not.
	for prev := rePrev.FindSubmatch(trailer); prev != nil; prev = rePrev.FindSubmatch(trailer) {
		if trailer, err = d.section(atoi(prev[1])); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// section reads the cross-reference table at offset at into d.offsets
// (keeping entries already read) and returns its trailer dictionary.
func (d *document) section(at int) ([]byte, error) {
	if at < 0 || at >= len(d.pdf) || !bytes.HasPrefix(d.pdf[at:], []byte("xref")) {
		return nil, fmt.Errorf("%w: no cross-reference table at %d (a cross-reference stream?)", ErrUnsupported, at)
	}
	rest := bytes.TrimLeft(d.pdf[at+4:], " \r\n")
	for {
		m := reSubsect.FindSubmatch(rest)
		if m == nil {
			break
		}
		first, count := atoi(m[1]), atoi(m[2])
		rest = rest[len(m[0]):]
		if len(rest) < 20*count {
			return nil, fmt.Errorf("%w: truncated cross-reference table", ErrUnsupported)
		}
		for i := range count {
			e := rest[20*i : 20*i+20]
			if _, seen := d.offsets[first+i]; !seen && e[17] == 'n' {
				d.offsets[first+i] = atoi(bytes.TrimLeft(e[:10], "0"))
			}
		}
		rest = rest[20*count:]
	}
	if !bytes.HasPrefix(rest, []byte("trailer")) {
		return nil, fmt.Errorf("%w: no trailer after the cross-reference table", ErrUnsupported)
	}
	end := bytes.Index(rest, []byte("startxref"))
	if end < 0 {
		return nil, fmt.Errorf("%w: trailer without startxref", ErrUnsupported)
	}
	return rest[len("trailer"):end], nil
}

// object returns the dictionary of object num ("<< ... >>", trimmed).
func (d *document) object(num int) ([]byte, error) {
	at, ok := d.offsets[num]
	head := fmt.Sprintf("%d 0 obj", num)
	if !ok || at >= len(d.pdf) || !bytes.HasPrefix(d.pdf[at:], []byte(head)) {
		return nil, fmt.Errorf("%w: object %d not found", ErrUnsupported, num)
	}
	body := d.pdf[at+len(head):]
	end := bytes.Index(body, []byte("endobj"))
	if end < 0 {
		return nil, fmt.Errorf("%w: object %d has no endobj", ErrUnsupported, num)
	}
	dict := bytes.TrimSpace(body[:end])
	if !bytes.HasPrefix(dict, []byte("<<")) || !bytes.HasSuffix(dict, []byte(">>")) {
		return nil, fmt.Errorf("%w: object %d is not a dictionary", ErrUnsupported, num)
	}
	return dict, nil
}

// firstPage follows the catalog's page tree down its first kids.
func (d *document) firstPage(catalog []byte) (int, []byte, error) {
	m := rePages.FindSubmatch(catalog)
	if m == nil {
		return 0, nil, fmt.Errorf("%w: catalog without /Pages", ErrUnsupported)
	}
	num := atoi(m[1])
	for range 32 { // a page tree deeper than this is not one ponto makes
		node, err := d.object(num)
		if err != nil {
			return 0, nil, err
		}
		if !reTypePages.Match(node) {
			return num, node, nil
		}
		kid := reFirstKid.FindSubmatch(node)
		if kid == nil {
			return 0, nil, fmt.Errorf("%w: page tree node %d without kids", ErrUnsupported, num)
		}
		num = atoi(kid[1])
	}
	return 0, nil, fmt.Errorf("%w: page tree too deep", ErrUnsupported)
}
