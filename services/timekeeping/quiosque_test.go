package main

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/quiosque"
)

// kiosk registers a kiosk of c of kind dispositivo and returns the answer.
func (e *env) kiosk(c company, dispositivo string) map[string]any {
	e.t.Helper()
	r := e.pub("POST", "/registropontos/quiosques", c.token, map[string]any{"nome": "Portaria", "dispositivo": dispositivo})
	want(e.t, r, 201)
	return r.obj(e.t)
}

// setPIN has w set his kiosk PIN.
func (e *env) setPIN(w worker, pin string) {
	e.t.Helper()
	want(e.t, e.pub("PUT", "/registropontos/quiosques/pin", w.token, map[string]any{"pin": pin}), 204)
}

// The company registers a kiosk: its credential is answered once, as the
// code to type and a QR code, stored only as a hash; the list shows its
// last use; revoked, its credential is a 401. Another company cannot
// revoke it.
func TestQuiosqueCredentialLifecycle(t *testing.T) {
	t.Parallel()
	e, c, _ := newShop(t, nil)
	other, _ := e.outsider()
	for _, bad := range []map[string]any{{"nome": "", "dispositivo": "navegador"}, {"nome": "Portaria", "dispositivo": "tablet"}} {
		wantErr(t, e.pub("POST", "/registropontos/quiosques", c.token, bad), 400, "validacao")
	}
	k := e.kiosk(c, "navegador")
	cred, codigo := k["credencial"].(string), k["codigo"].(string)
	if len(cred) != 32 || strings.ReplaceAll(codigo, "-", "") != cred || k["coletor"] != "02" ||
		!strings.HasPrefix(k["qrCode"].(string), "data:image/png;base64,") || k["ultimoUso"] != nil {
		t.Fatalf("created %v", k)
	}
	var stored int
	if err := e.db.QueryRow(t.Context(), `SELECT count(*) FROM quiosques WHERE credencial_hash = sha256($1::bytea)`,
		[]byte(cred)).Scan(&stored); err != nil || stored != 1 {
		t.Fatalf("stored hash: %d %v", stored, err)
	}
	// The code as typed (lower case, spaces) works as the credential.
	typed := strings.ToLower(strings.ReplaceAll(codigo, "-", " "))
	e.clock.Set(local(2026, 3, 9, 7, 55))
	r := e.pub("GET", "/registropontos/quiosque", typed, nil)
	want(t, r, 200)
	if o := r.obj(t); o["nome"] != "Portaria" || o["fusoHorario"] != "America/Sao_Paulo" {
		t.Fatalf("self %s", r.body)
	}
	r = e.pub("GET", "/registropontos/quiosques", c.token, nil)
	want(t, r, 200)
	itens := r.obj(t)["itens"].([]any)
	if len(itens) != 1 || itens[0].(map[string]any)["ultimoUso"] == nil || itens[0].(map[string]any)["credencial"] != nil {
		t.Fatalf("list %s", r.body)
	}
	if r := e.pub("GET", "/registropontos/quiosques", other.token, nil); !strings.Contains(string(r.body), `"itens":[]`) {
		t.Fatalf("other company sees %s", r.body)
	}
	kid := itoa(id(k))
	wantErr(t, e.pub("DELETE", "/registropontos/quiosques/"+kid, other.token, nil), 404, "nao_encontrado")
	want(t, e.pub("GET", "/registropontos/quiosque", cred, nil), 200)
	want(t, e.pub("DELETE", "/registropontos/quiosques/"+kid, c.token, nil), 204)
	wantErr(t, e.pub("GET", "/registropontos/quiosque", cred, nil), 401, "quiosque_invalido")
	wantErr(t, e.pub("POST", "/registropontos/quiosque/marcar", cred, map[string]any{"cracha": "PONTO-CRACHA-X"}),
		401, "quiosque_invalido")
	wantErr(t, e.pub("DELETE", "/registropontos/quiosques/"+kid, c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/registropontos/quiosque", "", nil), 401, "quiosque_invalido")
	// A user's token is no kiosk credential.
	wantErr(t, e.pub("GET", "/registropontos/quiosque", c.token, nil), 401, "quiosque_invalido")
}

// An employee punches at the kiosk with CPF and PIN, then with his
// badge: he is shown his name and next tipo first, the punch carries the
// kiosk's collector code (Anexo V: 04 for a dedicated device) and the
// AFD's chain verifies.
func TestQuiosquePunchesWithPINAndBadge(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, map[string]any{"nome": "Ana Quiosque"})
	cred := e.kiosk(c, "dispositivo_eletronico")["credencial"].(string)
	for _, bad := range []string{"12", "1111", "1234", "abcd", "123456789"} {
		wantErr(t, e.pub("PUT", "/registropontos/quiosques/pin", w.token, map[string]any{"pin": bad}), 400, "validacao")
	}
	wantErr(t, e.pub("PUT", "/registropontos/quiosques/pin", c.token, map[string]any{"pin": "4821"}), 403, "acesso_negado")
	e.setPIN(w, "4821")
	var pinHash string
	if err := e.db.QueryRow(t.Context(), `SELECT pin_hash FROM quiosque_pins`).Scan(&pinHash); err != nil ||
		!strings.HasPrefix(pinHash, "$2a$") {
		t.Fatalf("PIN stored as %q (%v)", pinHash, err)
	}
	byPIN := map[string]any{"cpf": w.cpf, "pin": "4821"}

	e.clock.Set(local(2026, 3, 9, 7, 58))
	r := e.pub("POST", "/registropontos/quiosque/identificar", cred, byPIN)
	want(t, r, 200)
	if o := r.obj(t); o["nome"] != "Ana Quiosque" || o["proximoTipo"] != core.TipoEntrada || id(map[string]any{"id": o["funcionarioId"]}) != w.id {
		t.Fatalf("identified %s", r.body)
	}
	if e.count("registros_ponto") != 0 {
		t.Fatal("identifying punched")
	}
	r = e.pub("POST", "/registropontos/quiosque/marcar", cred, map[string]any{"cpf": w.cpf, "pin": "4821",
		"endereco": "-23.5505, -46.6333"}, "Idempotency-Key", "quiosque-1")
	want(t, r, 200)
	o := r.obj(t)
	reg, comp := o["registro"].(map[string]any), o["comprovante"].(map[string]any)
	if reg["tipo"] != core.TipoEntrada || comp["verificacaoUrl"] != testVerificacaoURL+reg["hash"].(string) ||
		!strings.HasPrefix(comp["qrCode"].(string), "data:image/png;base64,") {
		t.Fatalf("punch %s", r.body)
	}
	// Replayed: stored once.
	want(t, e.pub("POST", "/registropontos/quiosque/marcar", cred, map[string]any{"cpf": w.cpf, "pin": "4821",
		"endereco": "-23.5505, -46.6333"}, "Idempotency-Key", "quiosque-1"), 200)
	if n := e.count("registros_ponto"); n != 1 {
		t.Fatalf("%d punches after a replay", n)
	}

	// The badge: issued, it identifies him; reissued, the old one is dead.
	r = e.pub("POST", path("/registropontos/quiosques/cracha/%d", w.id), c.token, nil)
	want(t, r, 200)
	old := r.obj(t)["cracha"].(string)
	r = e.pub("POST", path("/registropontos/quiosques/cracha/%d", w.id), c.token, nil)
	want(t, r, 200)
	badge := r.obj(t)
	if badge["nome"] != "Ana Quiosque" || !strings.HasPrefix(badge["qrCode"].(string), "data:image/png") {
		t.Fatalf("badge %v", badge)
	}
	wantErr(t, e.pub("POST", "/registropontos/quiosque/identificar", cred, map[string]any{"cracha": old}), 403,
		"identificacao_invalida")
	e.clock.Set(local(2026, 3, 9, 12, 0))
	r = e.pub("POST", "/registropontos/quiosque/identificar", cred, map[string]any{"cracha": badge["cracha"]})
	want(t, r, 200)
	if r.obj(t)["proximoTipo"] != core.TipoAlmoco {
		t.Fatalf("next tipo %s", r.body)
	}
	r = e.pub("POST", "/registropontos/quiosque/marcar", cred, map[string]any{"cracha": badge["cracha"]})
	want(t, r, 200)
	if r.obj(t)["registro"].(map[string]any)["tipo"] != core.TipoAlmoco {
		t.Fatalf("badge punch %s", r.body)
	}
	// And a punch of his own phone between them, through the same ledger.
	e.punch(w, local(2026, 3, 9, 13, 0))

	e.clock.Set(local(2026, 3, 10, 9, 0))
	r = e.pub("GET", "/registropontos/afd?inicio=2026-03-01&fim=2026-03-31", c.token, nil)
	want(t, r, 200)
	a, err := core.ParseAFD(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.VerifyCadeia(""); err != nil {
		t.Fatal(err)
	}
	var coletores []string
	for _, m := range a.Marcacoes {
		coletores = append(coletores, m.Coletor+m.OnLine)
	}
	if strings.Join(coletores, " ") != "040 040 010" {
		t.Fatalf("collectors and on-line flags %v", coletores)
	}
}

// Wrong PINs lock the PIN after five tries, even for the right one; the
// company resets it and the employee sets a new one.
func TestQuiosquePINLockoutAndReset(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	cred := e.kiosk(c, "navegador")["credencial"].(string)
	e.setPIN(w, "4821")
	e.clock.Set(local(2026, 3, 9, 8, 0))
	ident := func(pin string) response {
		return e.pub("POST", "/registropontos/quiosque/identificar", cred, map[string]any{"cpf": w.cpf, "pin": pin})
	}
	for range 4 {
		wantErr(t, ident("9999"), 403, "identificacao_invalida")
	}
	wantErr(t, ident("0000"), 403, "pin_bloqueado")
	wantErr(t, ident("4821"), 403, "pin_bloqueado")
	wantErr(t, e.pub("POST", "/registropontos/quiosque/marcar", cred, map[string]any{"cpf": w.cpf, "pin": "4821"}),
		403, "pin_bloqueado")
	// A CPF without a PIN is the same answer as a wrong PIN.
	wantErr(t, e.pub("POST", "/registropontos/quiosque/identificar", cred,
		map[string]any{"cpf": "52998224725", "pin": "4821"}), 403, "identificacao_invalida")

	other, _ := e.outsider()
	wantErr(t, e.pub("DELETE", path("/registropontos/quiosques/pin/%d", w.id), other.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("DELETE", path("/registropontos/quiosques/pin/%d", w.id), w.token, nil), 403, "acesso_negado")
	want(t, e.pub("DELETE", path("/registropontos/quiosques/pin/%d", w.id), c.token, nil), 204)
	wantErr(t, ident("4821"), 403, "identificacao_invalida")
	e.setPIN(w, "7356")
	want(t, ident("7356"), 200)
	// A right PIN clears the count: four wrong ones later it still works.
	for range 4 {
		wantErr(t, ident("1357"), 403, "identificacao_invalida")
	}
	want(t, ident("7356"), 200)
	if e.count("registros_ponto") != 0 {
		t.Fatal("a punch was written")
	}
}

// A kiosk punches only for its company's employees: another company's
// kiosk knows neither their PINs nor their badges, and another company
// cannot issue their badges.
func TestQuiosqueTenantIsolation(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, stranger := e.outsider()
	mine := e.kiosk(c, "navegador")["credencial"].(string)
	theirs := e.kiosk(other, "navegador")["credencial"].(string)
	e.setPIN(w, "4821")
	e.setPIN(stranger, "4821")
	r := e.pub("POST", path("/registropontos/quiosques/cracha/%d", w.id), c.token, nil)
	want(t, r, 200)
	badge := r.obj(t)["cracha"]
	wantErr(t, e.pub("POST", path("/registropontos/quiosques/cracha/%d", w.id), other.token, nil), 404, "nao_encontrado")
	e.clock.Set(local(2026, 3, 9, 8, 0))
	for _, body := range []map[string]any{{"cpf": w.cpf, "pin": "4821"}, {"cracha": badge}} {
		for _, route := range []string{"identificar", "marcar"} {
			wantErr(t, e.pub("POST", "/registropontos/quiosque/"+route, theirs, body), 403, "identificacao_invalida")
		}
	}
	wantErr(t, e.pub("POST", "/registropontos/quiosque/marcar", mine, map[string]any{"cpf": stranger.cpf, "pin": "4821"}),
		403, "identificacao_invalida")
	if e.count("registros_ponto") != 0 {
		t.Fatal("a punch was written")
	}
	// Each company's kiosk punches for its own.
	want(t, e.pub("POST", "/registropontos/quiosque/marcar", theirs, map[string]any{"cpf": stranger.cpf, "pin": "4821"}), 200)
	want(t, e.pub("POST", "/registropontos/quiosque/marcar", mine, map[string]any{"cracha": badge}), 200)
}

// Each employee's identifications at the kiosks are bounded (Redis), and
// so are each kiosk's requests.
func TestQuiosqueRateLimits(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	e.tune = func(d *dependencies) {
		d.quiosqueLimits = ratelimit.New(redistest.New(t), redistest.Prefix(t), slog.New(slog.NewTextHandler(io.Discard, nil)))
		d.quiosqueBudgets = quiosque.Budgets{PerKiosk: ratelimit.PerHour(100), PerEmployee: ratelimit.PerHour(3)}
	}
	base := e.startTimekeeping(e.db)
	cred := e.kiosk(c, "navegador")["credencial"].(string)
	e.setPIN(w, "4821")
	e.clock.Set(time.Date(2026, 3, 9, 11, 0, 0, 0, time.UTC))
	for i := range 3 {
		if r := call(t, base, "POST", "/registropontos/quiosque/identificar", cred, map[string]any{"cpf": w.cpf, "pin": "4821"}); r.status != 200 {
			t.Fatalf("identification %d: %d %s", i+1, r.status, r.body)
		}
	}
	r := call(t, base, "POST", "/registropontos/quiosque/identificar", cred, map[string]any{"cpf": w.cpf, "pin": "4821"})
	wantErr(t, r, 429, "limite_excedido")
	// Another employee at the same kiosk is still served.
	o := e.funcionario(c, w.escalaID, nil)
	e.setPIN(o, "5937")
	want(t, call(t, base, "POST", "/registropontos/quiosque/identificar", cred, map[string]any{"cpf": o.cpf, "pin": "5937"}), 200)
}
