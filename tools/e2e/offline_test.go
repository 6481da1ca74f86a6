package e2e

import (
	"context"
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

// TestCrashWhileOfflineQueueDrains kills timekeeping while a device sends
// its queue of off-line punches in small batches, as the web page does: a
// batch that failed (the connection cut, a 5xx) is kept whole and sent
// again. Afterwards every punch was answered registrada or repetida, each
// is stored exactly once, and the company's NSRs have no gap.
func TestCrashWhileOfflineQueueDrains(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Empresa Queda Off-line")
	e.setUp(t, c)
	f := e.hire(t, c, "Pessoa Campo")
	waitTokenAccepted(t, e, f.Token)
	d := e.registerDevice(t, f)
	const n = 24
	start := time.Now().Add(-3 * time.Hour)
	queue := make([]map[string]any, n)
	for i := range queue {
		queue[i] = d.sign(t, start.Add(time.Duration(i)*5*time.Minute))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	done := make(chan struct{})
	outcome := map[string]string{}
	failures := 0
	sent := make(chan int, 100) // batches answered, to time the kill
	go func() {
		defer close(done)
		for next := 0; next < n && ctx.Err() == nil; {
			batch := queue[next:min(next+3, n)]
			a, err := e.api.send(ctx, request{Method: http.MethodPost, Path: "/registropontos/offline", Token: f.Token,
				Body: d.batch(t, batch...)})
			if err != nil || a.Status != http.StatusOK {
				failures++
				time.Sleep(200 * time.Millisecond)
				continue // kept whole, sent again
			}
			var out struct{ Resultados []map[string]any }
			a.json(t, &out)
			for _, r := range out.Resultados {
				outcome[r["id"].(string)] = r["resultado"].(string)
			}
			next += len(batch)
			sent <- next
		}
	}()
	for got := 0; got < 6; {
		select {
		case got = <-sent:
		case <-ctx.Done():
			t.Fatal("the queue never got going")
		}
	}
	if err := e.stack.KillService("timekeeping"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if err := e.stack.StartService("timekeeping"); err != nil {
		t.Fatal(err)
	}
	waitHealthy(t, e, 2*time.Minute)
	<-done
	if failures == 0 {
		t.Error("no batch saw an error: the kill did not hit the queue")
	}
	for _, p := range queue {
		if r := outcome[p["id"].(string)]; r != "registrada" && r != "repetida" {
			t.Errorf("punch %s: %q", p["id"], r)
		}
	}
	tk := dbConn(t, e, "timekeeping")
	var stored, distinct int
	if err := tk.QueryRow(context.Background(), `SELECT count(*), count(DISTINCT idempotency_key) FROM registros_ponto
		WHERE funcionario_id = $1 AND offline`, f.ID).Scan(&stored, &distinct); err != nil {
		t.Fatal(err)
	}
	if stored != n || distinct != n {
		t.Fatalf("%d off-line punches stored (%d distinct ids), want %d: lost or doubled", stored, distinct, n)
	}
	checkNSRs(t, e, c)
	t.Logf("%d batches failed and were sent again", failures)
}
