// Package quiosque is the shared collector (coletor compartilhado): a
// device the company registers as a kiosk (POST/GET/DELETE
// /registropontos/quiosques), where its employees punch by CPF and a
// personal PIN (PUT /registropontos/quiosques/pin) or by the QR code of a
// badge the company prints (POST /registropontos/quiosques/cracha/{id}).
// The kiosk's own routes (/registropontos/quiosque/...) take its
// credential as a bearer token; its punches go through the ledger with
// the collector code of the kiosk's kind (Anexo V).
package quiosque

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/skip2/go-qrcode"

	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
)

const (
	nomeMax = 80
	// maxTentativas wrong PINs in a row lock it until the company resets it.
	maxTentativas = 5
	// cracha prefixes a badge's token, so that the kiosk tells it from
	// anything else a camera reads.
	crachaPrefix = "PONTO-CRACHA-"
	// secretBytes of randomness: 160 bits, beyond guessing.
	secretBytes = 20
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// newSecret is a random secret in base32 (A-Z, 2-7): easy to type.
func newSecret() string {
	b := make([]byte, secretBytes)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return b32.EncodeToString(b)
}

// hash is what the database keeps of a credential or badge.
func hash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// normalizeCredencial reads a credential as typed: groups joined by
// hyphens or spaces, any case.
func normalizeCredencial(s string) string {
	return strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(s)))
}

// codigo groups a credential in fours for typing: ABCD-EFGH-...
func codigo(cred string) string {
	var parts []string
	for i := 0; i < len(cred); i += 4 {
		parts = append(parts, cred[i:min(i+4, len(cred))])
	}
	return strings.Join(parts, "-")
}

// qrPNG is content's QR code as a PNG data URL (skip2/go-qrcode, as the
// receipts' QR code).
func qrPNG(content string) (string, error) {
	png, err := qrcode.Encode(content, qrcode.Medium, 256)
	if err != nil {
		return "", fmt.Errorf("quiosque: QR code: %w", err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}

// input is the body of POST /registropontos/quiosques.
type input struct {
	Nome        string `json:"nome"`
	Dispositivo string `json:"dispositivo"`
}

// check validates in and returns the kiosk's collector code.
func (in *input) check() (string, error) {
	v := validate.Errors{}
	in.Nome = strings.TrimSpace(in.Nome)
	v.Check(in.Nome != "" && len([]rune(in.Nome)) <= nomeMax, "nome", fmt.Sprintf("campo obrigatório (até %d caracteres)", nomeMax))
	v.CheckText(in.Nome, "nome", false)
	coletor, ok := core.ColetorDoQuiosque(in.Dispositivo)
	v.Check(ok, "dispositivo", `use "navegador", "aplicativo_movel", "aplicativo_desktop", "dispositivo_eletronico" ou "outro"`)
	return coletor, v.Err()
}

// checkPIN: 4 to 8 digits, not one digit repeated nor a run like 1234.
func checkPIN(pin string) bool {
	if len(pin) < 4 || len(pin) > 8 || !validate.Digits(pin, len(pin), len(pin)) {
		return false
	}
	same, up, down := true, true, true
	for i := 1; i < len(pin); i++ {
		d := int(pin[i]) - int(pin[i-1])
		same, up, down = same && d == 0, up && d == 1, down && d == -1
	}
	return !same && !up && !down
}

// identificacao is how an employee names himself at the kiosk: CPF and
// PIN, or his badge's token.
type identificacao struct {
	CPF    string `json:"cpf"`
	PIN    string `json:"pin"`
	Cracha string `json:"cracha"`
	// Endereco is the kiosk's position, if its browser gives it.
	Endereco *string `json:"endereco"`
}

// check validates the body; the CPF comes back as 11 digits.
func (in *identificacao) check() error {
	v := validate.Errors{}
	in.Cracha = strings.TrimSpace(in.Cracha)
	switch {
	case in.Cracha != "":
		v.Check(in.CPF == "" && in.PIN == "", "cracha", "informe o crachá ou CPF e PIN, não ambos")
		v.Check(strings.HasPrefix(in.Cracha, crachaPrefix) && len(in.Cracha) < 100, "cracha", "crachá não reconhecido")
	default:
		in.CPF = digits(in.CPF)
		v.Check(len(in.CPF) == 11, "cpf", "informe os 11 dígitos do CPF")
		v.Check(validate.Digits(in.PIN, 4, 8), "pin", "o PIN tem de 4 a 8 dígitos")
	}
	return v.Err()
}

// digits keeps the digits of s.
func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
