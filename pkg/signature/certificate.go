// Package signature signs ponto's outputs with the employer's (or the REP-P
// operator's) A1 certificate, as Portaria MTP 671/2021 arts. 80, 86 and 88
// require: detached CAdES-BES over any bytes (the AFD, the AEJ), used
// also as the CMS inside the PAdES signatures of package pades.
//
// The certificate is a PKCS#12 file and its password, read from files
// (Kubernetes mounts both from a Secret) at start-up and polled for
// changes afterwards, so a renewal needs no restart. It is infrastructure
// with no knowledge of time records, which is why it lives in pkg: the
// local stack and the end-to-end tests use its development CA too.
package signature

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"slices"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

// Certificate is a loaded A1 certificate: its private key, the signer's
// certificate and the rest of the chain that the PKCS#12 file carried.
type Certificate struct {
	Key   crypto.Signer
	Leaf  *x509.Certificate
	Chain []*x509.Certificate
}

// Errors of Parse, for callers that name the faulty setting.
var (
	ErrPassword = errors.New("wrong PKCS#12 password")
	ErrExpired  = errors.New("certificate outside its validity period")
	ErrKey      = errors.New("private key does not match the certificate")
)

// Parse decodes a PKCS#12 file and checks that it can sign at now: the
// password opens it, the certificate is within its validity and the key
// is the certificate's.
func Parse(p12 []byte, password string, now time.Time) (*Certificate, error) {
	key, leaf, chain, err := pkcs12.DecodeChain(p12, password)
	if errors.Is(err, pkcs12.ErrIncorrectPassword) {
		return nil, ErrPassword
	}
	if err != nil {
		return nil, fmt.Errorf("reading PKCS#12: %w", err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%w: a %T cannot sign", ErrKey, key)
	}
	pub, ok := signer.Public().(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(leaf.PublicKey) {
		return nil, ErrKey
	}
	if now.Before(leaf.NotBefore) || now.After(leaf.NotAfter) {
		return nil, fmt.Errorf("%w: valid from %s to %s", ErrExpired,
			leaf.NotBefore.UTC().Format(time.RFC3339), leaf.NotAfter.UTC().Format(time.RFC3339))
	}
	return &Certificate{Key: signer, Leaf: leaf, Chain: issuerOrder(leaf, chain)}, nil
}

// issuerOrder sorts the chain from the leaf's issuer up, the order CMS
// signers list it in; certificates that certify nothing in the path stay
// at the end (a PKCS#12 file keeps its bags in any order).
func issuerOrder(leaf *x509.Certificate, certs []*x509.Certificate) []*x509.Certificate {
	rest := append([]*x509.Certificate(nil), certs...)
	var out []*x509.Certificate
	for cur := leaf; ; {
		i := slices.IndexFunc(rest, func(c *x509.Certificate) bool { return cur.CheckSignatureFrom(c) == nil })
		if i < 0 || bytes.Equal(cur.RawIssuer, cur.RawSubject) {
			return append(out, rest...)
		}
		cur = rest[i]
		out = append(out, cur)
		rest = slices.Delete(rest, i, i+1)
	}
}

// DaysLeft is how many days (fractional) the certificate stays valid
// after now; negative once expired.
func (c *Certificate) DaysLeft(now time.Time) float64 {
	return c.Leaf.NotAfter.Sub(now).Hours() / 24
}

// Subject is the certificate's subject, for logs and documents.
func (c *Certificate) Subject() string { return c.Leaf.Subject.String() }
