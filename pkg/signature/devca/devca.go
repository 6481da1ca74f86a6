// Package devca is a development certificate authority: it issues A1-like
// certificates (RSA 2048, PKCS#12 with their chain) for `make run` and
// for the tests, which verify ponto's signatures against the CA with
// OpenSSL and poppler. It is never used in production, where the
// certificate is an ICP-Brasil one mounted from a Secret.
package devca

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

// CA is a self-signed root that issues signing certificates.
type CA struct {
	Cert *x509.Certificate
	Key  *rsa.PrivateKey
}

// New makes a CA named cn, valid for ten years from now.
func New(cn string) (*CA, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: cn, Organization: []string{"ponto"}},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(10, 0, 0),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return &CA{Cert: cert, Key: key}, err
}

// Leaf is an issued certificate and its key.
type Leaf struct {
	Cert *x509.Certificate
	Key  *rsa.PrivateKey
}

// Issue makes a signing certificate for subject valid in [notBefore,
// notAfter], with the usages of an ICP-Brasil A1 certificate (digital
// signature, non-repudiation, e-mail protection and client auth).
func (ca *CA) Issue(subject pkix.Name, notBefore, notAfter time.Time) (*Leaf, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: subject, NotBefore: notBefore, NotAfter: notAfter,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageEmailProtection, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return &Leaf{Cert: cert, Key: key}, err
}

// PKCS12 encodes leaf with its key and the CA certificate, as an A1
// certificate is delivered, under password.
func (ca *CA) PKCS12(leaf *Leaf, password string) ([]byte, error) {
	return pkcs12.Modern.Encode(leaf.Key, leaf.Cert, []*x509.Certificate{ca.Cert}, password)
}

// PEM is the CA certificate in PEM, what `openssl -CAfile` reads.
func (ca *CA) PEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Cert.Raw})
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		panic(fmt.Sprintf("devca: no randomness: %v", err)) // crypto/rand never fails on Linux
	}
	return n.Add(n, big.NewInt(1))
}
