package cluster

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// certLife is how long the cluster's certificates last: a development
// cluster is rebuilt long before.
const certLife = 365 * 24 * time.Hour

// identity is one certificate the cluster's components present.
type identity struct {
	file   string // pki/<file>.crt and .key
	cn     string
	orgs   []string
	server bool
	ips    []string
	dns    []string
}

// identities: the API server's serving certificate and each client's.
var identities = []identity{
	{file: "apiserver", cn: "kube-apiserver", server: true, ips: []string{NodeIP, APIServiceIP, "127.0.0.1"},
		dns: []string{"kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local", "localhost"}},
	{file: "admin", cn: "ponto-admin", orgs: []string{"system:masters"}},
	{file: "apiserver-kubelet-client", cn: "kube-apiserver-kubelet-client", orgs: []string{"system:masters"}},
	{file: "controller-manager", cn: "system:kube-controller-manager"},
	{file: "scheduler", cn: "system:kube-scheduler"},
	{file: "kubelet", cn: "system:node:" + NodeName, orgs: []string{"system:nodes"}},
	{file: "kube-proxy", cn: "system:kube-proxy"},
}

// ensurePKI makes the CA, the service-account key and every identity's
// certificate under State/pki, keeping those already there (a restart
// keeps the cluster's trust).
func ensurePKI(l Layout) error {
	dir := l.path("pki")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	ca, caKey, err := ensureCA(dir)
	if err != nil {
		return err
	}
	if _, err := ensureKey(filepath.Join(dir, "sa.key")); err != nil {
		return err
	}
	if err := writePublicKey(filepath.Join(dir, "sa.key"), filepath.Join(dir, "sa.pub")); err != nil {
		return err
	}
	for _, id := range identities {
		if exists(filepath.Join(dir, id.file+".crt")) {
			continue
		}
		if err := issue(dir, id, ca, caKey); err != nil {
			return fmt.Errorf("certificate %s: %w", id.file, err)
		}
	}
	return nil
}

func ensureCA(dir string) (*x509.Certificate, crypto.Signer, error) {
	key, err := ensureKey(filepath.Join(dir, "ca.key"))
	if err != nil {
		return nil, nil, err
	}
	crtFile := filepath.Join(dir, "ca.crt")
	if !exists(crtFile) {
		tmpl := template("ponto-cluster-ca", nil)
		tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
		tmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
		if err != nil {
			return nil, nil, err
		}
		if err := writePEM(crtFile, "CERTIFICATE", der, 0o644); err != nil {
			return nil, nil, err
		}
	}
	ca, err := readCert(crtFile)
	return ca, key, err
}

func issue(dir string, id identity, ca *x509.Certificate, caKey crypto.Signer) error {
	key, err := ensureKey(filepath.Join(dir, id.file+".key"))
	if err != nil {
		return err
	}
	tmpl := template(id.cn, id.orgs)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	if id.server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	}
	for _, ip := range id.ips {
		tmpl.IPAddresses = append(tmpl.IPAddresses, net.ParseIP(ip))
	}
	tmpl.DNSNames = id.dns
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, id.file+".crt"), "CERTIFICATE", der, 0o644)
}

func template(cn string, orgs []string) *x509.Certificate {
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	now := time.Now()
	return &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: cn, Organization: orgs},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(certLife)}
}

// ensureKey reads the ECDSA P-256 key in file, making it when missing.
func ensureKey(file string) (*ecdsa.PrivateKey, error) {
	if exists(file) {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		blk, _ := pem.Decode(b)
		if blk == nil {
			return nil, fmt.Errorf("%s: no PEM block", file)
		}
		return x509.ParseECPrivateKey(blk.Bytes)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return key, writePEM(file, "EC PRIVATE KEY", der, 0o600)
}

func writePublicKey(keyFile, pubFile string) error {
	key, err := ensureKey(keyFile)
	if err != nil {
		return err
	}
	der, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return err
	}
	return writePEM(pubFile, "PUBLIC KEY", der, 0o644)
}

func readCert(file string) (*x509.Certificate, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, errors.New(file + ": no PEM block")
	}
	return x509.ParseCertificate(blk.Bytes)
}

func writePEM(file, typ string, der []byte, mode os.FileMode) error {
	return os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), mode)
}

func exists(file string) bool {
	_, err := os.Stat(file)
	return err == nil
}
