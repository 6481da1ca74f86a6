package signature

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"fmt"
	"math/big"

	"github.com/smallstep/pkcs7"
)

// oidSigningCertificateV2 is id-aa-signingCertificateV2 (RFC 5035), the
// ESS attribute that binds the signature to the signer's certificate:
// CAdES-BES requires it (ETSI EN 319 122-1).
var oidSigningCertificateV2 = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 47}

// SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }
// (the optional policies are left out).
type signingCertificateV2 struct {
	Certs []essCertIDv2
}

// ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT id-sha256, certHash
// OCTET STRING, issuerSerial IssuerSerial OPTIONAL }. DER leaves a
// DEFAULT value out, so with SHA-256 the algorithm is not written.
type essCertIDv2 struct {
	CertHash     []byte
	IssuerSerial issuerSerial
}

// IssuerSerial ::= SEQUENCE { issuer GeneralNames, serialNumber }.
type issuerSerial struct {
	Issuer []asn1.RawValue // GeneralNames holding one directoryName
	Serial *big.Int
}

func signingCertificateAttribute(leaf *x509.Certificate) pkcs7.Attribute {
	sum := sha256.Sum256(leaf.Raw)
	// directoryName is [4] EXPLICIT Name: the issuer's DER wrapped in a
	// constructed context-specific tag.
	dirName := asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 4, IsCompound: true, Bytes: leaf.RawIssuer}
	return pkcs7.Attribute{Type: oidSigningCertificateV2, Value: signingCertificateV2{
		Certs: []essCertIDv2{{CertHash: sum[:], IssuerSerial: issuerSerial{
			Issuer: []asn1.RawValue{dirName}, Serial: leaf.SerialNumber}}},
	}}
}

// SignDetached returns a detached CAdES-BES signature (DER CMS
// SignedData, what a .p7s file holds) of data: SHA-256, signed attributes
// content-type, message-digest, signing-time and signing-certificate-v2,
// with the signer's certificate and its chain.
func (c *Certificate) SignDetached(data []byte) ([]byte, error) {
	sd, err := pkcs7.NewSignedData(data)
	if err != nil {
		return nil, fmt.Errorf("signature: %w", err)
	}
	sd.SetDigestAlgorithm(pkcs7.OIDDigestAlgorithmSHA256)
	cfg := pkcs7.SignerInfoConfig{ExtraSignedAttributes: []pkcs7.Attribute{signingCertificateAttribute(c.Leaf)}}
	if err := sd.AddSignerChain(c.Leaf, c.Key, c.Chain, cfg); err != nil {
		return nil, fmt.Errorf("signature: %w", err)
	}
	sd.Detach()
	der, err := sd.Finish()
	if err != nil {
		return nil, fmt.Errorf("signature: %w", err)
	}
	return der, nil
}
