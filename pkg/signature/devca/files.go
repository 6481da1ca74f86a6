package devca

import (
	"crypto/rand"
	"crypto/x509/pkix"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Files are a development certificate's files in a directory.
type Files struct {
	CA, Cert, Password string // ca.pem, certificado.p12, senha
}

// EnsureFiles keeps a development CA and certificate in dir: made once
// (a random password, the certificate valid for a year) and reused by
// later runs, so that what was signed before still verifies against the
// same ca.pem. Made again when the files are missing.
func EnsureFiles(dir string) (Files, error) {
	f := FilesIn(dir)
	if exist(f.CA) && exist(f.Cert) && exist(f.Password) {
		return f, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return f, err
	}
	ca, err := New("ponto AC de desenvolvimento")
	if err != nil {
		return f, err
	}
	now := time.Now()
	leaf, err := ca.Issue(pkix.Name{CommonName: "PONTO DESENVOLVIMENTO LTDA:11222333000181",
		Organization: []string{"ponto (desenvolvimento)"}, Country: []string{"BR"}}, now.Add(-time.Hour), now.AddDate(1, 0, 0))
	if err != nil {
		return f, err
	}
	pw := make([]byte, 12)
	if _, err := rand.Read(pw); err != nil {
		return f, err
	}
	password := hex.EncodeToString(pw)
	p12, err := ca.PKCS12(leaf, password)
	if err != nil {
		return f, err
	}
	err = errors.Join(os.WriteFile(f.CA, ca.PEM(), 0o600), os.WriteFile(f.Cert, p12, 0o600),
		os.WriteFile(f.Password, []byte(password+"\n"), 0o600))
	if err != nil {
		return f, fmt.Errorf("devca: %w", err)
	}
	return f, nil
}

// FilesIn names the files EnsureFiles keeps in dir.
func FilesIn(dir string) Files {
	return Files{CA: filepath.Join(dir, "ca.pem"), Cert: filepath.Join(dir, "certificado.p12"),
		Password: filepath.Join(dir, "senha")}
}

func exist(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
