package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/dispositivo"
)

// offlineKiosk is a kiosk with its registered off-line key.
type offlineKiosk struct {
	id   int64
	cred string
	key  *ecdsa.PrivateKey
}

// offlineKiosk registers a kiosk of c and its off-line key while its
// clock reads deviceNow.
func (e *env) offlineKiosk(c company, deviceNow time.Time) offlineKiosk {
	e.t.Helper()
	k := e.kiosk(c, "dispositivo_eletronico")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		e.t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	cred := k["credencial"].(string)
	want(e.t, e.pub("PUT", "/registropontos/quiosque/chave", cred, map[string]any{
		"chavePublica": base64.StdEncoding.EncodeToString(der), "enviadoEm": deviceNow.Format(time.RFC3339Nano)}), 204)
	return offlineKiosk{id: id(k), cred: cred, key: key}
}

// sign is a badge punch the kiosk queued at horario, signed as WebCrypto
// does (r‖s).
func (k offlineKiosk) sign(t *testing.T, pid string, horario time.Time, cracha string) map[string]any {
	t.Helper()
	h := horario.Format(time.RFC3339Nano)
	sum := sha256.Sum256(dispositivo.Assinada{DispositivoID: k.id, ID: pid, Horario: h, Cracha: cracha}.Mensagem())
	r, s, err := ecdsa.Sign(rand.Reader, k.key, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return map[string]any{"id": pid, "horario": h, "cracha": cracha, "assinatura": base64.StdEncoding.EncodeToString(sig)}
}

func (e *env) sendKiosk(k offlineKiosk, sentAt time.Time, punches ...map[string]any) response {
	e.t.Helper()
	return e.pub("POST", "/registropontos/quiosque/offline", k.cred, map[string]any{
		"enviadoEm": sentAt.Format(time.RFC3339Nano), "marcacoes": punches})
}

func (e *env) badgeOf(c company, w worker) string {
	e.t.Helper()
	r := e.pub("POST", path("/registropontos/quiosques/cracha/%d", w.id), c.token, nil)
	want(e.t, r, 200)
	return r.obj(e.t)["cracha"].(string)
}

// A kiosk queues badge punches off-line and sends them later: each is
// stored with flag 1 and the kiosk's collector code, in punch order, the
// chain verifying; sent again, stored once. A tampered punch, a punch
// for another company's employee's badge, and a PIN punch are refused
// with nothing stored; a revoked kiosk's batch is a 401.
func TestQuiosqueOfflineBadgePunches(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, ow := e.outsider()
	e.clock.Set(local(2024, 3, 4, 7, 0))
	k := e.offlineKiosk(c, local(2024, 3, 4, 7, 0))
	badge, foreign := e.badgeOf(c, w), e.badgeOf(other, ow)

	// A kiosk without a key cannot send off-line punches.
	bare := e.kiosk(c, "navegador")["credencial"].(string)
	wantErr(t, e.pub("POST", "/registropontos/quiosque/offline", bare, map[string]any{
		"enviadoEm": local(2024, 3, 4, 7, 0).Format(time.RFC3339Nano),
		"marcacoes": []any{k.sign(t, "x-0", local(2024, 3, 4, 7, 0), badge)}}), 403, "quiosque_sem_chave")
	wantErr(t, e.pub("PUT", "/registropontos/quiosque/chave", bare, map[string]any{"chavePublica": "bm90IGEga2V5"}),
		400, "validacao")

	p1 := k.sign(t, "q-1", local(2024, 3, 4, 8, 0), badge)
	p2 := k.sign(t, "q-2", local(2024, 3, 4, 12, 0), badge)
	tampered := k.sign(t, "q-3", local(2024, 3, 4, 13, 0), badge)
	tampered["horario"] = local(2024, 3, 4, 12, 30).Format(time.RFC3339Nano)
	stolen := k.sign(t, "q-4", local(2024, 3, 4, 9, 0), foreign)
	byPIN := k.sign(t, "q-5", local(2024, 3, 4, 9, 30), "") // no badge: CPF and PIN are on-line only
	future := k.sign(t, "q-6", local(2024, 3, 4, 18, 40), badge)
	arrival := local(2024, 3, 4, 18, 30)
	e.clock.Set(arrival)
	res := results(t, e.sendKiosk(k, arrival, p2, tampered, stolen, p1, byPIN, future))
	got := map[string]map[string]any{}
	for _, r := range res {
		got[r["id"].(string)] = r
	}
	for pid, wantCode := range map[string]string{"q-3": "assinatura_invalida", "q-4": "identificacao_invalida",
		"q-5": "validacao", "q-6": "marcacao_futura"} {
		if r := got[pid]; r["resultado"] != "recusada" || r["code"] != wantCode {
			t.Errorf("%s: %v, want refused %s", pid, r, wantCode)
		}
	}
	if got["q-4"]["status"] != float64(403) {
		t.Errorf("another company's badge: %v", got["q-4"])
	}
	for pid, tipo := range map[string]string{"q-1": core.TipoEntrada, "q-2": core.TipoAlmoco} {
		r := got[pid]
		rec, _ := r["registro"].(map[string]any)
		if r["status"] != float64(201) || rec["tipo"] != tipo || rec["offline"] != true {
			t.Errorf("%s: %v", pid, r)
		}
	}
	// Sent again: stored once.
	for _, r := range results(t, e.sendKiosk(k, arrival, p1, p2)) {
		if r["resultado"] != "repetida" {
			t.Errorf("replay: %v", r)
		}
	}
	if n := e.count("registros_ponto"); n != 2 {
		t.Fatalf("%d punches stored, want 2", n)
	}

	// Revoked, the kiosk's batch is refused before anything is read.
	want(t, e.pub("DELETE", path("/registropontos/quiosques/%d", k.id), c.token, nil), 204)
	wantErr(t, e.sendKiosk(k, arrival, k.sign(t, "q-7", local(2024, 3, 4, 17, 0), badge)), 401, "quiosque_invalido")
	if n := e.count("registros_ponto"); n != 2 {
		t.Fatalf("%d punches stored after a revoked kiosk's batch", n)
	}

	r := e.pub("GET", "/registropontos/afd?inicio=2024-03-04&fim=2024-03-04", c.token, nil)
	want(t, r, 200)
	a, err := core.ParseAFD(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.VerifyCadeia(""); err != nil {
		t.Fatal(err)
	}
	wantAt := []string{"2024-03-04T08:00:00-0300", "2024-03-04T12:00:00-0300"}
	if len(a.Marcacoes) != 2 {
		t.Fatalf("%d type-7 records", len(a.Marcacoes))
	}
	for i, m := range a.Marcacoes {
		if m.OnLine != "1" || m.Coletor != "04" || m.Horario != wantAt[i] || m.Gravacao != "2024-03-04T18:30:00-0300" {
			t.Errorf("type 7 #%d: %+v", i, m)
		}
	}
	var kioskDevice int
	if err := e.db.QueryRow(t.Context(), `SELECT count(*) FROM registros_ponto WHERE dispositivo_id IS NOT NULL`).
		Scan(&kioskDevice); err != nil || kioskDevice != 0 {
		t.Fatalf("kiosk punches name a device: %d %v", kioskDevice, err)
	}
}
