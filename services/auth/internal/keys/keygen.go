package keys

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// FileNameLayout names key files after their creation time in UTC, so that
// file name order is creation order.
const FileNameLayout = "2006-01-02T150405Z"

// Generate writes a new Ed25519 key into dir (created 0700 if missing) as
// <UTC time>.pem, readable by its owner only, and returns its path. It
// never overwrites a file.
func Generate(dir string, now time.Time) (string, Key, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", Key{}, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return "", Key{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", Key{}, err
	}
	name := now.UTC().Format(FileNameLayout) + ".pem"
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return "", Key{}, fmt.Errorf("%s already exists: try again in a second", path)
	}
	if err != nil {
		return "", Key{}, err
	}
	werr := pem.Encode(f, &pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if werr == nil {
		werr = f.Sync()
	}
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = os.Remove(path)
		return "", Key{}, err
	}
	return path, NewKey(name, priv), nil
}
