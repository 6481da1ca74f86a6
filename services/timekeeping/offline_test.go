package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/dispositivo"
)

// device is an employee's off-line device: its key and registered id.
type device struct {
	id  int64
	key *ecdsa.PrivateKey
}

// register registers a new device key for w while the device's clock
// reads deviceNow.
func (e *env) register(w worker, deviceNow time.Time) device {
	e.t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		e.t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	r := e.pub("POST", "/registropontos/dispositivos", w.token, map[string]any{"nome": "celular",
		"chavePublica": base64.StdEncoding.EncodeToString(der), "horarioDispositivo": deviceNow.Format(time.RFC3339Nano)})
	want(e.t, r, 201)
	return device{id: id(r.obj(e.t)), key: key}
}

// sign is a punch d made at horario, signed as WebCrypto does (r‖s).
func (d device) sign(t *testing.T, pid string, horario time.Time, endereco string) map[string]any {
	t.Helper()
	h := horario.Format(time.RFC3339Nano)
	msg := dispositivo.Assinada{DispositivoID: d.id, ID: pid, Horario: h, Endereco: endereco}.Mensagem()
	sum := sha256.Sum256(msg)
	r, s, err := ecdsa.Sign(rand.Reader, d.key, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return map[string]any{"id": pid, "horario": h, "endereco": endereco, "assinatura": base64.StdEncoding.EncodeToString(sig)}
}

func (e *env) sendOffline(w worker, d device, sentAt time.Time, punches ...map[string]any) response {
	e.t.Helper()
	return e.pub("POST", "/registropontos/offline", w.token, map[string]any{"dispositivoId": d.id,
		"enviadoEm": sentAt.Format(time.RFC3339Nano), "coletor": "02", "marcacoes": punches})
}

func results(t *testing.T, r response) []map[string]any {
	t.Helper()
	want(t, r, 200)
	var out struct{ Resultados []map[string]any }
	r.into(t, &out)
	return out.Resultados
}

// Three punches made off-line, sent out of order after the workday: stored
// in punch-time order, typed in that order, each with the device's time,
// the server's recording time and field 7 = 1 in the AFD, whose chain
// verifies; sent again, each is answered repetida and stored once.
func TestOfflineBatchRecordedInPunchOrderWithFlag(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	e.clock.Set(local(2024, 3, 4, 7, 0))
	d := e.register(w, local(2024, 3, 4, 7, 0))
	p1 := d.sign(t, "a-1", local(2024, 3, 4, 8, 2), "-23.5505, -46.6333")
	p2 := d.sign(t, "a-2", local(2024, 3, 4, 12, 1), "")
	p3 := d.sign(t, "a-3", local(2024, 3, 4, 13, 0), "-23.5505, -46.6333")
	arrival := local(2024, 3, 4, 18, 30)
	e.clock.Set(arrival)
	res := results(t, e.sendOffline(w, d, arrival, p3, p1, p2))
	wantTipos := []string{"entrada", "almoço", "retorno almoço"}
	for i, r := range res {
		if r["id"] != fmt.Sprintf("a-%d", i+1) || r["status"] != float64(201) || r["resultado"] != "registrada" {
			t.Fatalf("result %d: %v", i, r)
		}
		rec := r["registro"].(map[string]any)
		if rec["tipo"] != wantTipos[i] || rec["offline"] != true || rec["gravadoEm"] != "2024-03-04T21:30:00.000Z" {
			t.Errorf("punch %d: %v", i, rec)
		}
	}
	// Sent again (the answer was lost): stored once.
	again := results(t, e.sendOffline(w, d, arrival, p1, p2, p3))
	for _, r := range again {
		if r["status"] != float64(200) || r["resultado"] != "repetida" {
			t.Errorf("replay: %v", r)
		}
	}
	if n := e.count("registros_ponto"); n != 3 {
		t.Fatalf("%d punches stored, want 3", n)
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
	wantAt := []string{"2024-03-04T08:02:00-0300", "2024-03-04T12:01:00-0300", "2024-03-04T13:00:00-0300"}
	if len(a.Marcacoes) != 3 {
		t.Fatalf("%d type-7 records", len(a.Marcacoes))
	}
	for i, m := range a.Marcacoes {
		if m.OnLine != "1" || m.Horario != wantAt[i] || m.Gravacao != "2024-03-04T18:30:00-0300" || m.Coletor != "02" {
			t.Errorf("type 7 #%d: %+v", i, m)
		}
	}
	r = e.pub("GET", "/registropontos/cadeia", c.token, nil)
	want(t, r, 200)
	// The receipt: the device's time, the server's recording, off-line.
	r = e.pub("GET", path("/registropontos/%d/comprovante", id(res[0]["registro"].(map[string]any))), w.token, nil)
	want(t, r, 200)
	wantText(t, pdfText(t, r), "Horário: 08:02 (UTC-03:00)", "Gravada em: 04/03/2024 18:30 (UTC-03:00)",
		"navegador (browser) (marcação off-line)")
}

// A late punch that falls before punches already recorded takes the tipo
// of its place in punch-time order; the recorded ones are not changed.
func TestOfflineLatePunchBeforeRecordedOnes(t *testing.T) {
	t.Parallel()
	e, _, w := newShop(t, nil)
	e.clock.Set(local(2024, 3, 4, 7, 0))
	d := e.register(w, local(2024, 3, 4, 7, 0))
	first := e.punch(w, local(2024, 3, 4, 8, 0))
	second := e.punch(w, local(2024, 3, 4, 12, 0))
	late := d.sign(t, "late", local(2024, 3, 4, 10, 0), "")
	e.clock.Set(local(2024, 3, 4, 12, 30))
	res := results(t, e.sendOffline(w, d, local(2024, 3, 4, 12, 30), late))
	if rec := res[0]["registro"].(map[string]any); rec["tipo"] != "almoço" {
		t.Fatalf("late punch: %v", res[0])
	}
	var tipos []string
	rows, err := e.db.Query(context.Background(), `SELECT tipo FROM registros_ponto WHERE id = ANY($1) ORDER BY id`,
		[]int64{id(first), id(second)})
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		tipos = append(tipos, s)
	}
	if fmt.Sprint(tipos) != "[entrada almoço]" {
		t.Errorf("recorded punches now %v", tipos)
	}
	// The next on-line punch, at 13:00, is the day's fourth in punch-time
	// order (08:00, 10:00, 12:00, 13:00): saída.
	if next := e.punch(w, local(2024, 3, 4, 13, 0)); next["tipo"] != "saída" {
		t.Errorf("the on-line punch after the late one: %v", next["tipo"])
	}
}

// What cannot be a punch is refused, nothing stored: a bad signature, a
// punch in the future beyond the skew, one older than the company's limit.
// A device clock that moved since its last contact is stored and flagged.
func TestOfflineRefusalsAndSkewFlag(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	now := local(2024, 3, 10, 9, 0)
	e.clock.Set(now)
	d := e.register(w, now.Add(2*time.Minute)) // the device runs 2 min ahead
	tampered := d.sign(t, "t-1", now.Add(-time.Hour), "")
	tampered["horario"] = now.Add(-2 * time.Hour).Format(time.RFC3339Nano)
	future := d.sign(t, "t-2", now.Add(10*time.Minute), "")
	old := d.sign(t, "t-3", now.Add(-8*24*time.Hour), "")
	res := results(t, e.sendOffline(w, d, now.Add(2*time.Minute), tampered, future, old))
	codes := map[string]string{}
	for _, r := range res {
		if r["resultado"] != "recusada" || r["status"] != float64(400) {
			t.Errorf("%v", r)
		}
		codes[r["id"].(string)] = r["code"].(string)
	}
	if codes["t-1"] != "assinatura_invalida" || codes["t-2"] != "marcacao_futura" || codes["t-3"] != "marcacao_antiga" {
		t.Errorf("codes %v", codes)
	}
	// The company lowers its limit to 2 days: a 3-day-old punch is refused.
	want(t, e.pub("PUT", "/registropontos/offline/limite", c.token, map[string]any{"dias": 2}), 200)
	res = results(t, e.sendOffline(w, d, now, d.sign(t, "t-4", now.Add(-3*24*time.Hour), "")))
	if res[0]["code"] != "marcacao_antiga" {
		t.Errorf("3 days old under a 2-day limit: %v", res[0])
	}
	if n := e.count("registros_ponto"); n != 0 {
		t.Fatalf("%d punches stored", n)
	}
	// The device's clock now runs 20 min behind: stored, flagged.
	res = results(t, e.sendOffline(w, d, now.Add(-20*time.Minute), d.sign(t, "t-5", now.Add(-time.Hour), "")))
	if res[0]["status"] != float64(201) || res[0]["relogioDivergente"] != true {
		t.Fatalf("moved clock: %v", res[0])
	}
	var flagged bool
	if err := e.db.QueryRow(context.Background(), `SELECT relogio_divergente FROM registros_ponto`).Scan(&flagged); err != nil || !flagged {
		t.Errorf("relogio_divergente %v (%v)", flagged, err)
	}
}

// A device key signs only its own employee's punches (403, nothing
// stored); a revoked one none; an employee revokes only his own, a company
// only its employees'.
func TestOfflineDeviceOwnershipAndRevocation(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	colleague := e.funcionario(c, w.escalaID, nil)
	other, stranger := e.outsider()
	now := local(2024, 3, 10, 9, 0)
	e.clock.Set(now)
	d := e.register(w, now)
	p := d.sign(t, "o-1", now.Add(-time.Minute), "")
	wantErr(t, e.sendOffline(colleague, d, now, p), 403, "dispositivo_de_outro")
	wantErr(t, e.sendOffline(stranger, d, now, p), 403, "dispositivo_de_outro")
	// Listing: the employee sees his own, the company its employees', the
	// other company none.
	var list struct{ Itens []map[string]any }
	e.pub("GET", "/registropontos/dispositivos", c.token, nil).into(t, &list)
	if len(list.Itens) != 1 || id(list.Itens[0]) != d.id {
		t.Errorf("company list %v", list)
	}
	e.pub("GET", "/registropontos/dispositivos", other.token, nil).into(t, &list)
	if len(list.Itens) != 0 {
		t.Errorf("other company's list %v", list)
	}
	wantErr(t, e.pub("DELETE", path("/registropontos/dispositivos/%d", d.id), colleague.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("DELETE", path("/registropontos/dispositivos/%d", d.id), other.token, nil), 404, "nao_encontrado")
	want(t, e.pub("DELETE", path("/registropontos/dispositivos/%d", d.id), w.token, nil), 204)
	wantErr(t, e.sendOffline(w, d, now, p), 403, "dispositivo_revogado")
	d2 := e.register(w, now)
	want(t, e.pub("DELETE", path("/registropontos/dispositivos/%d", d2.id), c.token, nil), 204)
	wantErr(t, e.sendOffline(w, d2, now, d2.sign(t, "o-2", now, "")), 403, "dispositivo_revogado")
	if n := e.count("registros_ponto"); n != 0 {
		t.Fatalf("%d punches stored", n)
	}
}
