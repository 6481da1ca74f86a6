package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// at is a São Paulo wall-clock time with seconds.
func at(y int, m time.Month, d, hh, mm, ss int) time.Time {
	return time.Date(y, m, d, hh, mm, ss, 0, zone)
}

// setUpAFDMonth records the scenario of testdata/afd_golden.py for
// company 7 and returns it with José and Maria.
func setUpAFDMonth(e *env) (company, worker, worker) {
	t := e.t
	c := e.company(7)
	escala := e.escala(c, "Comercial", standard())
	jose := e.funcionario(c, escala, map[string]any{"cpf": "123.456.789-09", "nome": "José Antônio"})
	maria := e.funcionario(c, escala, map[string]any{"cpf": "987.654.321-00",
		"nome": "Maria Aparecida dos Santos Oliveira Pereira de Albuquerque Cavalcanti"})
	e.punch(jose, at(2024, 2, 29, 17, 0, 5))
	e.punch(jose, at(2024, 3, 1, 8, 0, 12))
	e.punch(maria, at(2024, 3, 1, 8, 1, 30))
	want(t, call(t, e.emp.public, "PATCH", path("/funcionarios/%d", maria.id), c.token,
		map[string]any{"nome": "Maria Łucja da Conceição"}), 200)
	e.punch(maria, at(2024, 3, 1, 12, 0, 59))
	e.punch(jose, at(2024, 3, 31, 23, 59, 59))
	e.punch(jose, at(2024, 4, 1, 0, 0, 1))
	e.clock.Set(at(2024, 4, 2, 10, 30, 45))
	return c, jose, maria
}

func TestAFDGoldenMonth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _, _ := setUpAFDMonth(e)

	before := len(e.billing.Calls())
	r := e.pub("GET", "/registropontos/afd?inicio=2024-03-01&fim=2024-03-31", c.token, nil)
	want(t, r, 200)
	if ct := r.header.Get("Content-Type"); ct != "text/plain; charset=ISO-8859-1" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="AFD12345678901234567`+
		strings.NewReplacer(".", "", "/", "", "-", "").Replace(companyCNPJ(7))+`REP_P.txt"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	compareGolden(t, r.body, "testdata/afd-2024-03.txt")
	if calls := e.billing.Calls()[before:]; len(calls) != 1 || calls[0] != "7" {
		t.Errorf("company-billing calls of the AFD %v, want one for company 7", calls)
	}

	// Read back: every record checks, and the chain verifies from the
	// hash stored for the punch before the month (NSR 2), not from scratch.
	a, err := core.ParseAFD(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if a.Cabecalho.RazaoSocial != "Panificação São João 7 Ltda" || len(a.Marcacoes) != 4 || len(a.Empregados) != 2 ||
		a.Empregados[1].Nome != "Maria ?ucja da Conceição" || a.Empregados[1].Operacao != "A" || a.Assinatura != core.AssinaturaP7S {
		t.Fatalf("read back: %+v", a)
	}
	stored := storedHashes(t, e, 7)
	if err := a.VerifyCadeia(stored[2]); err != nil {
		t.Fatal(err)
	}
	if err := a.VerifyCadeia(""); err == nil {
		t.Fatal("the month's chain verified without the previous punch's hash")
	}
	for _, m := range a.Marcacoes {
		if m.Hash != stored[m.NSR] {
			t.Errorf("NSR %d: exported hash %s, stored %s", m.NSR, m.Hash, stored[m.NSR])
		}
	}
}

// storedHashes maps NSR to the hash stored at punch time.
func storedHashes(t *testing.T, e *env, empresa int64) map[int64]string {
	t.Helper()
	rows, err := e.db.Query(context.Background(), `SELECT nsr, hash FROM registros_ponto WHERE empresa_id = $1`, empresa)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var nsr int64
		var h string
		if err := rows.Scan(&nsr, &h); err != nil {
			t.Fatal(err)
		}
		out[nsr] = h
	}
	return out
}

func TestAFDRoundTripAndTampering(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, _, _ := setUpAFDMonth(e)

	// The whole history: NSR 1 to 9, the chain verifies from nothing.
	r := e.pub("GET", "/registropontos/afd?inicio=2024-02-01&fim=2024-04-30", c.token, nil)
	want(t, r, 200)
	a, err := core.ParseAFD(r.body)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.VerifyCadeia(""); err != nil {
		t.Fatal(err)
	}
	if a.Trailer[5] != 3 || a.Trailer[7] != 6 || a.Marcacoes[0].NSR != 2 || a.Marcacoes[5].NSR != 9 ||
		a.Cabecalho.Inicio != "2024-02-01" || a.Cabecalho.Fim != "2024-04-30" || a.Cabecalho.INPI != testREP.INPI {
		t.Fatalf("whole history: trailer %v, header %+v", a.Trailer, a.Cabecalho)
	}
	stored := storedHashes(t, e, 7)
	for _, m := range a.Marcacoes {
		if m.Hash != stored[m.NSR] {
			t.Errorf("NSR %d: exported hash %s, stored %s", m.NSR, m.Hash, stored[m.NSR])
		}
	}

	lines := strings.Split(string(r.body), "\r\n")
	tamper := func(line, pos int, with string) []byte {
		l := append([]string(nil), lines...)
		l[line] = l[line][:pos] + with + l[line][pos+1:]
		return []byte(strings.Join(l, "\r\n"))
	}
	// A punch's time moved by a minute: the file still reads (type 7 has
	// no CRC), but the chain breaks there.
	moved := tamper(3, 24, "1") // NSR 3: 08:00 -> 08:10
	if b, err := core.ParseAFD(moved); err != nil {
		t.Fatalf("a type-7 change must read: %v", err)
	} else if err := b.VerifyCadeia(""); err == nil || !strings.Contains(err.Error(), "NSR 3") {
		t.Fatalf("a moved punch verified: %v", err)
	}
	// An employee record changed: its CRC no longer matches.
	if _, err := core.ParseAFD(tamper(1, 50, "X")); err == nil || !strings.Contains(err.Error(), "CRC") {
		t.Fatalf("a changed type-5 record read: %v", err)
	}
	// The header changed: its CRC too.
	if _, err := core.ParseAFD(tamper(0, 45, "X")); err == nil {
		t.Fatal("a changed header read")
	}
	// A record removed: the NSR gap and the trailer tell.
	without := append(append([]string(nil), lines[:4]...), lines[5:]...)
	if _, err := core.ParseAFD([]byte(strings.Join(without, "\r\n"))); err == nil {
		t.Fatal("a file missing a record read")
	}
	// LF line ends are not an AFD.
	if _, err := core.ParseAFD(bytes.ReplaceAll(r.body, []byte("\r\n"), []byte("\n"))); err == nil {
		t.Fatal("LF line ends read")
	}
}

func TestAFDRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	e.punch(w, local(2024, 3, 4, 8, 0))
	e.clock.Set(local(2024, 3, 11, 9, 0))

	// Another company sees an empty file of its own: header, no record.
	other := e.company(2)
	r := e.pub("GET", "/registropontos/afd", other.token, nil)
	want(t, r, 200)
	a, err := core.ParseAFD(r.body)
	if err != nil || len(a.Marcacoes) != 0 || len(a.Empregados) != 0 || a.Cabecalho.Inicio != "2024-03-01" ||
		a.Cabecalho.Fim != "2024-03-31" || a.Cabecalho.Empregador != strings.NewReplacer(".", "", "/", "", "-", "").Replace(companyCNPJ(2)) {
		t.Fatalf("another company's AFD: %v %+v", err, a)
	}
	wantErr(t, e.pub("GET", "/registropontos/afd", w.token, nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/registropontos/afd", "", nil), 401, "nao_autenticado")
	for _, q := range []string{"?inicio=2024-03-10&fim=2024-03-01", "?inicio=2023-01-01&fim=2024-03-01", "?inicio=ontem"} {
		wantErr(t, e.pub("GET", "/registropontos/afd"+q, c.token, nil), 400, "validacao")
	}
	// company-billing does not know the company, or is down.
	e.billing.mu.Lock()
	e.billing.missing["1"] = true
	e.billing.mu.Unlock()
	wantErr(t, e.pub("GET", "/registropontos/afd", c.token, nil), 404, "nao_encontrado")
	e.billing.srv.Close()
	wantErr(t, e.pub("GET", "/registropontos/afd", other.token, nil), http.StatusServiceUnavailable, "dependencia_indisponivel")
}

// compareGolden fails t, line by line, unless body is the file golden
// byte for byte.
func compareGolden(t *testing.T, body []byte, golden string) {
	t.Helper()
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(body, want) {
		return
	}
	got, wantLines := strings.Split(string(body), "\r\n"), strings.Split(string(want), "\r\n")
	for i := range max(len(got), len(wantLines)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, g, w)
		}
	}
	t.Fatalf("the file differs from %s", golden)
}
