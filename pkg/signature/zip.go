package signature

import (
	"archive/zip"
	"bytes"
	"fmt"
	"time"
)

// DetachedZip signs data (SignDetached) and packs it as a ZIP archive
// holding data under name and its signature under name+".p7s", the pair
// a labour inspector checks. modified dates both entries.
func (s *Signer) DetachedZip(name string, data []byte, modified time.Time) ([]byte, error) {
	p7s, err := s.SignDetached(data)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{{name, data}, {name + ".p7s", p7s}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: modified})
		if err != nil {
			return nil, fmt.Errorf("signature: zip: %w", err)
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, fmt.Errorf("signature: zip: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("signature: zip: %w", err)
	}
	return buf.Bytes(), nil
}
