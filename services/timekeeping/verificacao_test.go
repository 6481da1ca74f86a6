package main

import (
	"context"
	"image/png"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
)

// testVerificacaoURL is the public check's URL up to the hash in tests.
const testVerificacaoURL = "https://ponto.test/verificacao/"

// receiptQR renders the receipt's first page with poppler's pdftoppm and
// reads the QR code with zxing (gozxing), as a phone would.
func receiptQR(t *testing.T, pdf []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "r.pdf"), pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile",
		filepath.Join(dir, "r.pdf"), filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "p.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("no QR code read on the receipt: %v", err)
	}
	return res.GetText()
}

func TestReceiptQRCodeLeadsToThePublicCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(7)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Ana Sigilosa",
		"cpf": "123.456.789-09"})
	first := e.punch(w, at(2024, 3, 4, 8, 1, 42))
	p := e.punch(w, at(2024, 3, 4, 12, 0, 5))
	hash := p["hash"].(string)

	r := e.pub("GET", path("/registropontos/%d/comprovante", id(p)), w.token, nil)
	want(t, r, 200)
	url := receiptQR(t, r.body)
	if url != testVerificacaoURL+hash {
		t.Fatalf("QR code %q, want %q", url, testVerificacaoURL+hash)
	}

	// The check: no token; nothing that names the employee.
	r = e.pub("GET", strings.TrimPrefix(url, "https://ponto.test"), "", nil)
	want(t, r, 200)
	got := r.obj(t)
	if got["existe"] != true || got["nsr"] != p["nsr"] || got["hash"] != hash || got["cadeiaVerificada"] != true ||
		got["cnpjEmpregador"] != companyCNPJ(7) || got["horarioRegistro"] != p["horarioRegistro"] ||
		got["horarioLocal"] != "2024-03-04T12:00:05-03:00" || got["fusoMinutos"] != float64(-180) {
		t.Fatalf("check answered %v", got)
	}
	for _, secret := range []string{"Ana", "Sigilosa", "12345678909", "123.456.789-09", "nome", "cpf"} {
		if strings.Contains(strings.ToLower(string(r.body)), strings.ToLower(secret)) {
			t.Errorf("the public check shows %q: %s", secret, r.body)
		}
	}
	// Upper-case hex is the same hash.
	want(t, e.pub("GET", "/verificacao/"+strings.ToUpper(hash), "", nil), 200)

	wantErr(t, e.pub("GET", "/verificacao/"+strings.Repeat("0", 64), "", nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/verificacao/abc", "", nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/verificacao/"+strings.Repeat("g", 64), "", nil), 400, "validacao")

	// A stored punch altered behind the triggers' back: the chain no
	// longer verifies up to the later punch (a fresh replica, which has
	// verified nothing yet).
	// Tampering takes the owner: the service's role cannot.
	ctx := context.Background()
	owner := dbtest.AsOwner(t, e.dbURL)
	for _, sql := range []string{
		"ALTER TABLE registros_ponto DISABLE TRIGGER USER",
		"UPDATE registros_ponto SET horario_registro = horario_registro + interval '1 minute' WHERE id = " + itoa(id(first)),
		"ALTER TABLE registros_ponto ENABLE TRIGGER USER",
	} {
		if _, err := owner.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	r = call(t, e.startTimekeeping(e.db), "GET", "/verificacao/"+hash, "", nil)
	want(t, r, 200)
	if got := r.obj(t); got["existe"] != true || got["cadeiaVerificada"] != false {
		t.Fatalf("check after tampering: %v", got)
	}
}

func TestPublicCheckIsRateLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	limits := ratelimit.New(redistest.New(t), redistest.Prefix(t), slog.New(slog.NewTextHandler(io.Discard, nil)))
	checks, err := verificacaoLimits(limits, Config{Rate: ratelimit.Config{PerIP: "100/min"}, VerificacaoRate: "3/min"})
	if err != nil {
		t.Fatal(err)
	}
	e.tune = func(d *dependencies) { d.verificacaoLimits = checks }
	base := e.startTimekeeping(e.db)
	for i := range 3 {
		if r := call(t, base, "GET", "/verificacao/"+strings.Repeat("a", 64), "", nil); r.status != 404 {
			t.Fatalf("check %d: %d", i+1, r.status)
		}
	}
	r := call(t, base, "GET", "/verificacao/"+strings.Repeat("a", 64), "", nil)
	wantErr(t, r, 429, "limite_excedido")
	if r.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
}

// The public check goes on from the chain audit's checkpoint: a replica
// that has verified nothing yet recomputes only the punches written after
// the audit's last run, and a chain the audit found broken is answered
// at once, for every punch from the break on.
func TestPublicCheckFromTheAuditCheckpoint(t *testing.T) {
	t.Parallel()
	e, _, w := newShop(t, nil)
	var hashes []string
	for i := range 4 {
		hashes = append(hashes, e.punch(w, local(2026, 3, 9, 8+i, 0))["hash"].(string))
	}
	audit := chainaudit.New(e.db, slog.New(slog.NewTextHandler(io.Discard, nil)), clock.New(time.Now), chainaudit.Limits{})
	if res, err := audit.Once(t.Context()); err != nil || res.Records != 5 || res.Broken != 0 {
		t.Fatalf("audit %+v, %v", res, err)
	}
	hashes = append(hashes, e.punch(w, local(2026, 3, 9, 12, 0))["hash"].(string))

	// A fresh replica: everything up to the audit's NSR 5 is taken from
	// the audit; the punch after it (NSR 6) is recomputed, once.
	fresh := e.startTimekeeping(e.db)
	replica := e.servers[len(e.servers)-1]
	check := func(hash string) any {
		t.Helper()
		r := call(t, fresh, "GET", "/verificacao/"+hash, "", nil)
		want(t, r, 200)
		return r.obj(t)["cadeiaVerificada"]
	}
	recomputed := func() float64 {
		t.Helper()
		return value(replica.Scrape(t)["ponto_verificacao_recomputed_punches_total"])
	}
	if got := check(hashes[3]); got != true || recomputed() != 0 {
		t.Fatalf("an audited punch: cadeiaVerificada %v, %v punches recomputed", got, recomputed())
	}
	if got := check(hashes[4]); got != true || recomputed() != 1 {
		t.Fatalf("the punch after the audit: cadeiaVerificada %v, %v punches recomputed", got, recomputed())
	}
	if got := check(hashes[4]); got != true || recomputed() != 1 {
		t.Fatalf("the same punch again: cadeiaVerificada %v, %v punches recomputed", got, recomputed())
	}

	// The owner alters NSR 7; the audit flags it. A second fresh replica
	// answers from the audit's verdict: false from NSR 7 on, without
	// walking the chain; true before it.
	later := e.punch(w, local(2026, 3, 9, 13, 0))
	last := e.punch(w, local(2026, 3, 9, 17, 0))["hash"].(string)
	if _, err := dbtest.AsOwner(t, e.dbURL).Exec(t.Context(), `ALTER TABLE registros_ponto DISABLE TRIGGER USER;
		UPDATE registros_ponto SET horario_registro = horario_registro - interval '1 hour' WHERE id = `+itoa(id(later))+`;
		ALTER TABLE registros_ponto ENABLE TRIGGER USER`); err != nil {
		t.Fatal(err)
	}
	if res, err := audit.Once(t.Context()); err != nil || res.Broken != 1 {
		t.Fatalf("audit over the altered punch %+v, %v", res, err)
	}
	fresh = e.startTimekeeping(e.db)
	replica = e.servers[len(e.servers)-1]
	if got := check(last); got != false || recomputed() != 0 {
		t.Fatalf("after the break: cadeiaVerificada %v, %v punches recomputed", got, recomputed())
	}
	if got := check(later["hash"].(string)); got != false {
		t.Fatalf("the altered punch: cadeiaVerificada %v", got)
	}
	if got := check(hashes[4]); got != true || recomputed() != 0 {
		t.Fatalf("before the break: cadeiaVerificada %v, %v punches recomputed", got, recomputed())
	}
}
