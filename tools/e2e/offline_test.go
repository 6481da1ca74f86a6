package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// offlineDevice is an employee's device key, registered at the API.
type offlineDevice struct {
	id  int64
	key *ecdsa.PrivateKey
}

func newDeviceKey(t testing.TB) (*ecdsa.PrivateKey, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return key, base64.StdEncoding.EncodeToString(der)
}

// newDeviceBody is a POST /registropontos/dispositivos body with a fresh key.
func newDeviceBody(t testing.TB) map[string]any {
	_, pub := newDeviceKey(t)
	return map[string]any{"nome": "celular", "chavePublica": pub, "horarioDispositivo": time.Now().UTC().Format(time.RFC3339Nano)}
}

// registerDevice registers a new device key of f.
func (e *env) registerDevice(t testing.TB, f *employee) offlineDevice {
	t.Helper()
	key, pub := newDeviceKey(t)
	a := e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/dispositivos", Token: f.Token, CheckRequest: true,
		Body: map[string]any{"nome": "celular", "chavePublica": pub, "horarioDispositivo": time.Now().UTC().Format(time.RFC3339Nano)}}).
		expect(t, http.StatusCreated)
	return offlineDevice{id: a.object(t).int("id"), key: key}
}

// sign is an off-line punch made at at, signed as the web page signs it.
func (d offlineDevice) sign(t testing.TB, at time.Time) map[string]any {
	t.Helper()
	id, h := "e2e-"+randomHex(8), at.UTC().Format(time.RFC3339Nano)
	msg := strings.Join([]string{"ponto-offline-1", strconv.FormatInt(d.id, 10), id, h, ""}, "\n")
	sum := sha256.Sum256([]byte(msg))
	r, s, err := ecdsa.Sign(rand.Reader, d.key, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return map[string]any{"id": id, "horario": h, "endereco": "", "assinatura": base64.StdEncoding.EncodeToString(sig)}
}

// batch is a POST /registropontos/offline body.
func (d offlineDevice) batch(t testing.TB, punches ...map[string]any) map[string]any {
	return map[string]any{"dispositivoId": d.id, "enviadoEm": time.Now().UTC().Format(time.RFC3339Nano), "coletor": "02",
		"marcacoes": punches}
}
