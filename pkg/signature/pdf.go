package signature

import "github.com/ponto/ponto/pkg/signature/pades"

// SignPDF returns pdf with a PAdES B-B signature by the certificate in use
// (package pades), naming the certificate's holder and reason.
func (s *Signer) SignPDF(pdf []byte, reason string) ([]byte, error) {
	cert := s.Certificate()
	return pades.Sign(pdf, cert.SignDetached, pades.Info{Name: cert.Leaf.Subject.CommonName, Reason: reason,
		Time: s.clock.Now()})
}
