package main

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/internal/afastamento"
)

// afastamentos lists the leaves an answer holds.
type afastamentos struct {
	Itens []map[string]any `json:"itens"`
}

// Recording, listing, changing and cancelling leaves: every bad input is
// a 400 with nothing stored, another company's employee or leave a 404,
// an overlap, a second blood donation within 12 months and a closed
// period a 409; each change and the cancellation keep the leave as it was
// in the history.
func TestAfastamentos(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, stranger := e.outsider()
	e.clock.Set(local(2024, 6, 10, 10, 0))
	url := path("/registropontos/funcionario/%d/afastamentos", w.id)
	ferias := map[string]any{"tipo": "ferias", "inicio": "2024-07-01", "fim": "2024-07-30", "motivo": "férias do período 2023/2024"}

	for name, bad := range map[string]map[string]any{
		"unknown kind":    {"tipo": "licenca", "inicio": "2024-07-01", "fim": "2024-07-30", "motivo": "x-x-x"},
		"no kind":         {"inicio": "2024-07-01", "fim": "2024-07-30", "motivo": "sem tipo"},
		"end before":      {"tipo": "ferias", "inicio": "2024-07-30", "fim": "2024-07-01", "motivo": "invertido"},
		"over two years":  {"tipo": "doenca", "inicio": "2024-07-01", "fim": "2026-07-02", "motivo": "longo demais"},
		"long suspension": {"tipo": "suspensao", "inicio": "2024-07-01", "fim": "2024-07-31", "motivo": "31 dias"},
		"bad date":        {"tipo": "ferias", "inicio": "2024-02-30", "fim": "2024-03-10", "motivo": "data inválida"},
		"no reason":       {"tipo": "ferias", "inicio": "2024-07-01", "fim": "2024-07-30"},
		"too far ahead":   {"tipo": "ferias", "inicio": "2025-07-01", "fim": "2025-07-30", "motivo": "daqui a um ano"},
	} {
		r := e.pub("POST", url, c.token, bad)
		if r.status != 400 || r.obj(t)["code"] != "validacao" {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
	wantErr(t, e.pub("POST", url, other.token, ferias), 404, "nao_encontrado")
	wantErr(t, e.pub("POST", url, w.token, ferias), 403, "acesso_negado")
	if n := e.count("afastamentos"); n != 0 {
		t.Fatalf("%d leaves stored after refusals", n)
	}

	r := e.pub("POST", url, c.token, ferias)
	want(t, r, 201)
	a := r.obj(t)
	if a["tipo"] != "ferias" || a["inicio"] != "2024-07-01" || a["fim"] != "2024-07-30" || a["dias"] != float64(30) ||
		a["funcionarioId"] != float64(w.id) || a["cancelamento"] != nil || a["documento"] != nil {
		t.Fatalf("leave: %s", r.body)
	}
	// Sharing a single day is an overlap; the day after is not.
	wantErr(t, e.pub("POST", url, c.token, map[string]any{"tipo": "doenca", "inicio": "2024-06-25", "fim": "2024-07-01",
		"motivo": "atestado"}), 409, "afastamento_sobreposto")
	casamento := e.pub("POST", url, c.token, map[string]any{"tipo": "casamento", "inicio": "2024-07-31", "fim": "2024-08-04",
		"motivo": "casamento civil"})
	want(t, casamento, 201)
	if casamento.obj(t)["diasAlemDoLegal"] != float64(2) {
		t.Fatalf("5 days of marriage leave, 2 past the law: %s", casamento.body)
	}
	want(t, e.pub("POST", url, c.token, map[string]any{"tipo": "doacao_sangue", "inicio": "2024-06-03", "fim": "2024-06-03",
		"motivo": "doação no hemocentro"}), 201)
	wantErr(t, e.pub("POST", url, c.token, map[string]any{"tipo": "doacao_sangue", "inicio": "2025-06-02", "fim": "2025-06-02",
		"motivo": "segunda doação"}), 409, "doacao_sangue_no_periodo")

	// Listing: the company and the employee himself; nobody else.
	var list afastamentos
	r = e.pub("GET", url, c.token, nil)
	want(t, r, 200)
	r.into(t, &list)
	if len(list.Itens) != 3 || list.Itens[0]["tipo"] != "casamento" || list.Itens[2]["tipo"] != "doacao_sangue" {
		t.Fatalf("list: %s", r.body)
	}
	r = e.pub("GET", url+"?inicio=2024-07-01&fim=2024-07-31", w.token, nil)
	want(t, r, 200)
	r.into(t, &list)
	if len(list.Itens) != 2 {
		t.Fatalf("his own in July: %s", r.body)
	}
	colleague := e.funcionario(c, w.escalaID, nil)
	wantErr(t, e.pub("GET", url, colleague.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", url, other.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", path("/registropontos/funcionario/%d/afastamentos", stranger.id), c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", url+"?inicio=2024-07-31&fim=2024-07-01", c.token, nil), 400, "validacao")
	r = e.pub("GET", "/registropontos/afastamentos?inicio=2024-07-01&fim=2024-07-31", c.token, nil)
	want(t, r, 200)
	r.into(t, &list)
	if len(list.Itens) != 2 {
		t.Fatalf("the company's July: %s", r.body)
	}
	r = e.pub("GET", "/registropontos/afastamentos?inicio=2024-07-01&fim=2024-07-31", other.token, nil)
	want(t, r, 200)
	r.into(t, &list)
	if len(list.Itens) != 0 {
		t.Fatalf("another company sees: %s", r.body)
	}
	wantErr(t, e.pub("GET", "/registropontos/afastamentos", w.token, nil), 403, "acesso_negado")

	// Changing: the vacation moves two days; into the wedding is an overlap;
	// another company's is 404; the history keeps the first version.
	change := path("/registropontos/afastamentos/%d", id(a))
	moved := map[string]any{"tipo": "ferias", "inicio": "2024-07-03", "fim": "2024-07-30", "motivo": "remarcadas"}
	wantErr(t, e.pub("PUT", change, other.token, moved), 404, "nao_encontrado")
	wantErr(t, e.pub("PUT", change, c.token, map[string]any{"tipo": "ferias", "inicio": "2024-07-03", "fim": "2024-08-01",
		"motivo": "remarcadas"}), 409, "afastamento_sobreposto")
	wantErr(t, e.pub("PUT", change, c.token, map[string]any{"tipo": "ferias", "inicio": "2024-07-03", "fim": "2024-07-01",
		"motivo": "remarcadas"}), 400, "validacao")
	r = e.pub("PUT", change, c.token, moved)
	want(t, r, 200)
	if got := r.obj(t); got["inicio"] != "2024-07-03" || got["dias"] != float64(28) || got["motivo"] != "remarcadas" {
		t.Fatalf("changed: %s", r.body)
	}
	if n := e.count("afastamentos_historico"); n != 1 {
		t.Fatalf("%d history rows after a change", n)
	}

	// Cancelling: another company's 404; twice 409; a cancelled leave frees
	// its days.
	cancel := path("/registropontos/afastamentos/%d/cancelar", id(a))
	wantErr(t, e.pub("POST", cancel, other.token, map[string]any{"motivo": "não é dela"}), 404, "nao_encontrado")
	wantErr(t, e.pub("POST", cancel, c.token, map[string]any{}), 400, "validacao")
	r = e.pub("POST", cancel, c.token, map[string]any{"motivo": "férias canceladas"})
	want(t, r, 200)
	if cm, _ := r.obj(t)["cancelamento"].(map[string]any); cm["motivo"] != "férias canceladas" {
		t.Fatalf("cancelled: %s", r.body)
	}
	wantErr(t, e.pub("POST", cancel, c.token, map[string]any{"motivo": "de novo"}), 409, "afastamento_cancelado")
	wantErr(t, e.pub("PUT", change, c.token, moved), 409, "afastamento_cancelado")
	want(t, e.pub("POST", url, c.token, map[string]any{"tipo": "doenca", "inicio": "2024-07-10", "fim": "2024-07-12",
		"motivo": "atestado de 3 dias"}), 201)
	if n := e.count("afastamentos_historico"); n != 2 {
		t.Fatalf("%d history rows after a change and a cancellation", n)
	}
}

// A leave touching a closed period is refused, whether recorded, changed
// or cancelled, and nothing changes.
func TestAfastamentoPeriodoFechado(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	e.clock.Set(local(2024, 4, 2, 10, 0))
	url := path("/registropontos/funcionario/%d/afastamentos", w.id)
	r := e.pub("POST", url, c.token, map[string]any{"tipo": "doenca", "inicio": "2024-03-20", "fim": "2024-04-05",
		"motivo": "cirurgia"})
	want(t, r, 201)
	leave := id(r.obj(t))
	want(t, e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-03-01", "fim": "2024-03-31"}), 201)

	wantErr(t, e.pub("POST", url, c.token, map[string]any{"tipo": "falecimento", "inicio": "2024-03-31", "fim": "2024-04-01",
		"motivo": "luto"}), 409, "periodo_fechado")
	wantErr(t, e.pub("PUT", path("/registropontos/afastamentos/%d", leave), c.token, map[string]any{"tipo": "doenca",
		"inicio": "2024-04-01", "fim": "2024-04-05", "motivo": "só abril"}), 409, "periodo_fechado")
	wantErr(t, e.pub("POST", path("/registropontos/afastamentos/%d/cancelar", leave), c.token,
		map[string]any{"motivo": "engano"}), 409, "periodo_fechado")
	if n, h := e.count("afastamentos"), e.count("afastamentos_historico"); n != 1 || h != 0 {
		t.Fatalf("%d leaves, %d history rows", n, h)
	}
	// April is open.
	want(t, e.pub("POST", url, c.token, map[string]any{"tipo": "falecimento", "inicio": "2024-04-08", "fim": "2024-04-09",
		"motivo": "luto"}), 201)
}

// memDocs stands in for media's internal API (its real routes over MinIO
// are tested in services/media): it keeps what timekeeping sends.
type memDocs struct {
	mu   sync.Mutex
	objs map[string][]byte
	down bool
}

func (m *memDocs) PutDocumento(_ context.Context, chave, _ string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return domainerr.Unavailable("media", context.DeadlineExceeded)
	}
	m.objs[chave] = bytes.Clone(data)
	return nil
}

func (m *memDocs) GetDocumento(_ context.Context, chave string) ([]byte, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.objs[chave]
	if !ok {
		return nil, "", domainerr.NotFound("documento não encontrado")
	}
	return d, http.DetectContentType(d), nil
}

func (m *memDocs) DeleteDocumento(_ context.Context, chave string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.objs, chave)
	return nil
}

func (m *memDocs) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.objs)
}

// upload posts file as the multipart part named part.
func (e *env) upload(url, token, part string, file []byte) response {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile(part, "atestado.pdf")
	if err != nil {
		e.t.Fatal(err)
	}
	fw.Write(file)
	mw.Close()
	return e.pub("POST", url, token, buf.String(), "Content-Type", mw.FormDataContentType())
}

// A leave's document: a PDF, JPEG or PNG by its bytes (a script named
// .pdf is 415), at most 3 MiB (413), only for the company's own leaves;
// downloaded by the company and the employee himself; replaced by a new
// one, the old object removed.
func TestAfastamentoDocumento(t *testing.T) {
	t.Parallel()
	docs := &memDocs{objs: map[string][]byte{}}
	e := newEnv(t)
	e.tune = func(d *dependencies) { d.media = docs }
	e.public = e.startTimekeeping(e.db)
	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	other, _ := e.outsider()
	colleague := e.funcionario(c, w.escalaID, nil)
	e.clock.Set(local(2024, 6, 10, 10, 0))
	r := e.pub("POST", path("/registropontos/funcionario/%d/afastamentos", w.id), c.token, map[string]any{"tipo": "doenca",
		"inicio": "2024-06-10", "fim": "2024-06-12", "motivo": "atestado médico"})
	want(t, r, 201)
	doc := path("/registropontos/afastamentos/%d/documento", id(r.obj(t)))
	pdf := []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")

	wantErr(t, e.upload(doc, c.token, "documento", []byte("#!/bin/sh\nrm -rf /\n")), 415, "tipo_nao_suportado")
	wantErr(t, e.upload(doc, c.token, "documento", append(bytes.Clone(pdf), make([]byte, afastamento.MaxDocumentoBytes)...)),
		413, "grande_demais")
	wantErr(t, e.upload(doc, c.token, "arquivo", pdf), 400, "validacao")
	wantErr(t, e.pub("POST", doc, c.token, map[string]any{"documento": "x"}), 415, "tipo_nao_suportado")
	wantErr(t, e.upload(doc, other.token, "documento", pdf), 404, "nao_encontrado")
	wantErr(t, e.upload(doc, w.token, "documento", pdf), 403, "acesso_negado")
	wantErr(t, e.pub("GET", doc, c.token, nil), 404, "nao_encontrado")
	docs.down = true
	wantErr(t, e.upload(doc, c.token, "documento", pdf), 503, "dependencia_indisponivel")
	docs.down = false
	if docs.count() != 0 {
		t.Fatalf("%d documents kept after refusals", docs.count())
	}

	r = e.upload(doc, c.token, "documento", pdf)
	want(t, r, 200)
	if d, _ := r.obj(t)["documento"].(map[string]any); d["contentType"] != "application/pdf" || d["tamanhoBytes"] != float64(len(pdf)) {
		t.Fatalf("with its document: %s", r.body)
	}
	for _, token := range []string{c.token, w.token} {
		r = e.pub("GET", doc, token, nil)
		want(t, r, 200)
		if r.header.Get("Content-Type") != "application/pdf" || !bytes.Equal([]byte(r.body), pdf) {
			t.Fatalf("download: %q %q", r.header.Get("Content-Type"), r.body)
		}
	}
	wantErr(t, e.pub("GET", doc, colleague.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", doc, other.token, nil), 404, "nao_encontrado")

	// A PNG replaces the PDF; only the new object is kept.
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	want(t, e.upload(doc, c.token, "documento", png), 200)
	if docs.count() != 1 {
		t.Fatalf("%d documents after a replacement", docs.count())
	}
	r = e.pub("GET", doc, w.token, nil)
	want(t, r, 200)
	if r.header.Get("Content-Type") != "image/png" {
		t.Fatalf("replaced: %q", r.header.Get("Content-Type"))
	}
}

// The engine's read: a company's standing leaves of the given employees
// touching a period, by employee; cancelled ones, other employees' and
// another company's are left out.
func TestAfastamentoPeriodo(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, stranger := e.outsider()
	b := e.funcionario(c, w.escalaID, nil)
	d := e.funcionario(c, w.escalaID, nil)
	e.clock.Set(local(2024, 6, 10, 10, 0))
	add := func(co company, who worker, tipo, inicio, fim string) int64 {
		r := e.pub("POST", path("/registropontos/funcionario/%d/afastamentos", who.id), co.token,
			map[string]any{"tipo": tipo, "inicio": inicio, "fim": fim, "motivo": "teste do período"})
		want(t, r, 201)
		return id(r.obj(t))
	}
	inss := add(c, w, "doenca", "2024-05-20", "2024-07-15")
	susp := add(c, w, "suspensao", "2024-07-22", "2024-07-24")
	add(c, w, "ferias", "2024-08-01", "2024-08-30")
	cancelled := add(c, b, "casamento", "2024-07-01", "2024-07-03")
	want(t, e.pub("POST", path("/registropontos/afastamentos/%d/cancelar", cancelled), c.token, map[string]any{"motivo": "adiado"}), 200)
	add(c, d, "paternidade", "2024-07-08", "2024-07-12")
	add(other, stranger, "ferias", "2024-07-01", "2024-07-30")

	got, err := afastamento.NewStore(e.db).Periodo(t.Context(), c.id, []int64{w.id, b.id, stranger.id},
		time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 7, 31, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	ws := got[w.id]
	if len(got) != 1 || len(ws) != 2 || ws[0].ID != inss || ws[0].Tipo != "doenca" || ws[1].ID != susp ||
		ws[0].Inicio != time.Date(2024, 5, 20, 0, 0, 0, 0, time.UTC) || ws[1].Fim != time.Date(2024, 7, 24, 0, 0, 0, 0, time.UTC) {
		t.Fatalf("period: %+v", got)
	}
	// The sick leave's 16th day (06-04) on is the INSS's.
	if r := ws[0].RegraDia(time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)); !r.INSS || r.Remunerado {
		t.Fatalf("July 1st of the sick leave: %+v", r)
	}
}
