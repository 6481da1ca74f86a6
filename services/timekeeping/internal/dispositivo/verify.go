// Package dispositivo keeps the devices that punch off-line: one ECDSA
// P-256 public key per employee and device, registered while on-line and
// revocable by the employee or the company, and the check of a punch a
// device signed (Verifier), which the kiosk's off-line punches can reuse.
package dispositivo

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"math/big"
	"strconv"
	"strings"

	"github.com/ponto/ponto/pkg/domainerr"
)

// Refusals of a signed punch.
var (
	ErrAssinatura = domainerr.Malformed("assinatura_invalida",
		"a assinatura da marcação off-line não confere com a chave do dispositivo")
	ErrRevogado = domainerr.Forbidden("dispositivo_revogado",
		"o dispositivo foi revogado: procure o RH")
	ErrOutro = domainerr.Forbidden("dispositivo_de_outro",
		"o dispositivo não pertence a este funcionário")
	errChave = domainerr.InvalidField("chavePublica",
		"use a chave pública ECDSA P-256 em SPKI (DER), codificada em base64")
)

// Assinada is what a device signs for one off-line punch: the strings as
// the device sent them.
type Assinada struct {
	DispositivoID int64
	ID            string // the punch's random id (its Idempotency-Key)
	Horario       string // the device's time, ISO 8601 as sent
	Endereco      string // "lat, lng" as sent, "" when none
	// Cracha is the badge a kiosk read (DispositivoID is then the
	// kiosk's): its own tag, so that no device's signature is a kiosk's.
	Cracha string
}

// Mensagem is the signed text: fields joined by "\n" after a version tag,
// so that no field can be moved into another.
func (a Assinada) Mensagem() []byte {
	if a.Cracha != "" {
		return []byte(strings.Join([]string{"ponto-quiosque-1", strconv.FormatInt(a.DispositivoID, 10), a.ID, a.Horario,
			a.Endereco, a.Cracha}, "\n"))
	}
	return []byte(strings.Join([]string{"ponto-offline-1", strconv.FormatInt(a.DispositivoID, 10), a.ID, a.Horario,
		a.Endereco}, "\n"))
}

// ParseChave reads a public key as WebCrypto exports it (SPKI, DER),
// base64-encoded: only ECDSA on P-256.
func ParseChave(b64 string) ([]byte, *ecdsa.PublicKey, error) {
	der, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(der) > 512 {
		return nil, nil, errChave
	}
	pub, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, nil, errChave
	}
	k, ok := pub.(*ecdsa.PublicKey)
	if !ok || k.Curve != elliptic.P256() {
		return nil, nil, errChave
	}
	return der, k, nil
}

// Verifica checks sig, base64 of the 64-byte r‖s WebCrypto's ECDSA with
// SHA-256 gives (IEEE P1363), over a's message with key.
func Verifica(key *ecdsa.PublicKey, a Assinada, sig string) bool {
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || len(raw) != 64 {
		return false
	}
	h := sha256.Sum256(a.Mensagem())
	r, s := new(big.Int).SetBytes(raw[:32]), new(big.Int).SetBytes(raw[32:])
	return ecdsa.Verify(key, h[:], r, s)
}
