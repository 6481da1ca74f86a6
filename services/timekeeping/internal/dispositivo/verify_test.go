package dispositivo

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"testing"
)

func sign(t *testing.T, k *ecdsa.PrivateKey, a Assinada) string {
	t.Helper()
	h := sha256.Sum256(a.Mensagem())
	r, s, err := ecdsa.Sign(rand.Reader, k, h[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return base64.StdEncoding.EncodeToString(sig)
}

// A kiosk's punch signs its badge under its own tag: the badge cannot be
// swapped, and a device's signature is never a kiosk's.
func TestKioskMessageCoversTheBadge(t *testing.T) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	kiosk := Assinada{DispositivoID: 7, ID: "q-1", Horario: "2024-03-04T08:00:00-03:00", Cracha: "PONTO-CRACHA-A"}
	if got := string(kiosk.Mensagem()); got != "ponto-quiosque-1\n7\nq-1\n2024-03-04T08:00:00-03:00\n\nPONTO-CRACHA-A" {
		t.Fatalf("message %q", got)
	}
	sig := sign(t, k, kiosk)
	if !Verifica(&k.PublicKey, kiosk, sig) {
		t.Fatal("the kiosk's own signature refused")
	}
	swapped := kiosk
	swapped.Cracha = "PONTO-CRACHA-B"
	device := kiosk
	device.Cracha = ""
	if Verifica(&k.PublicKey, swapped, sig) || Verifica(&k.PublicKey, device, sig) {
		t.Fatal("a signature verified another badge or a device's punch")
	}
	if Verifica(&k.PublicKey, kiosk, sign(t, k, device)) {
		t.Fatal("a device's signature verified as a kiosk's")
	}
}
