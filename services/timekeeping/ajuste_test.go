package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// solicitar asks for an adjustment of registro as w.
func (e *env) solicitar(w worker, registro int64, data, motivo string) response {
	e.t.Helper()
	return e.pub("PUT", path("/registropontos/solicitar/%d", registro), w.token,
		map[string]any{"dataSolicitar": data, "funcionarioId": w.id, "motivo": motivo})
}

// ownRecord returns w's record id as GET /registropontos/me shows it.
func (e *env) ownRecord(w worker, id int64, period string) map[string]any {
	e.t.Helper()
	r := e.pub("GET", "/registropontos/me?"+period, w.token, nil)
	want(e.t, r, 200)
	var page struct {
		Itens []map[string]any `json:"itens"`
	}
	r.into(e.t, &page)
	for _, it := range page.Itens {
		if int64(it["id"].(float64)) == id {
			return it
		}
	}
	e.t.Fatalf("record %d not in %s", id, r.body)
	return nil
}

func TestAdjustmentRequestedThenApproved(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	p := e.punch(w, local(2024, 3, 5, 16, 0))
	e.clock.Set(local(2024, 3, 6, 9, 0))

	r := e.solicitar(w, id(p), "2024-03-05T20:00:00.000Z", "Esqueci de registrar a saída às 17h")
	want(t, r, 200)
	if strings.TrimSpace(string(r.body)) != "{}" {
		t.Fatalf("answer %s, want {}", r.body)
	}
	rec := e.ownRecord(w, id(p), "inicio=2024-03-01&fim=2024-03-31")
	if rec["status"] != "ajuste solicitado" || rec["dataSolicitar"] != "2024-03-05T20:00:00.000Z" ||
		rec["motivoAjuste"] != "Esqueci de registrar a saída às 17h" || rec["houveReajuste"] != nil ||
		rec["horarioRegistro"] != "2024-03-05T19:00:00.000Z" {
		t.Fatalf("after the request: %v", rec)
	}
	wantErr(t, e.solicitar(w, id(p), "2024-03-05T20:10:00.000Z", "de novo"), 409, "ajuste_ja_solicitado")

	e.clock.Set(local(2024, 3, 6, 10, 0))
	r = e.pub("PUT", path("/registropontos/%d/aprovar", id(p)), c.token, nil)
	want(t, r, 200)
	rec = r.obj(t)
	if rec["status"] != "ajuste aprovado pela empresa" || rec["houveReajuste"] != true ||
		rec["dataSolicitar"] != "2024-03-05T20:00:00.000Z" || rec["motivoAjuste"] == nil ||
		rec["horarioRegistro"] != "2024-03-05T19:00:00.000Z" || rec["tipo"] != "entrada" {
		t.Fatalf("approved: %s", r.body)
	}
	if got := e.ownRecord(w, id(p), "inicio=2024-03-05&fim=2024-03-05"); got["status"] != "ajuste aprovado pela empresa" || got["houveReajuste"] != true {
		t.Fatalf("employee sees %v", got)
	}
	wantErr(t, e.pub("PUT", path("/registropontos/%d/aprovar", id(p)), c.token, nil), 409, "ajuste_nao_pendente")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/reprovar", id(p)), c.token, nil), 409, "ajuste_nao_pendente")
	wantErr(t, e.solicitar(w, id(p), "2024-03-05T20:10:00.000Z", "mais uma vez"), 409, "ajuste_ja_aprovado")

	// The history keeps both steps, with their authors and times.
	rows, err := e.db.Query(context.Background(), `SELECT status, autor_role, autor_id, registrado_em
		FROM ajustes_historico WHERE registro_id = $1 ORDER BY id`, id(p))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type step struct {
		status, role string
		autor        int64
		at           time.Time
	}
	var steps []step
	for rows.Next() {
		var s step
		if err := rows.Scan(&s.status, &s.role, &s.autor, &s.at); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, s)
	}
	wantSteps := []step{
		{"ajuste solicitado", "funcionario", w.id, local(2024, 3, 6, 9, 0)},
		{"ajuste aprovado pela empresa", "empresa", 1, local(2024, 3, 6, 10, 0)},
	}
	if len(steps) != len(wantSteps) {
		t.Fatalf("history %v, want %v", steps, wantSteps)
	}
	for i, s := range steps {
		w := wantSteps[i]
		if s.status != w.status || s.role != w.role || s.autor != w.autor || !s.at.Equal(w.at) {
			t.Errorf("history[%d] = %v, want %v", i, s, w)
		}
	}
}

func TestAdjustmentRejectedThenRequestedAgain(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	p := e.punch(w, local(2024, 3, 5, 8, 20))
	e.clock.Set(local(2024, 3, 5, 18, 0))
	want(t, e.solicitar(w, id(p), "2024-03-05T11:00:00Z", "Cheguei às 8h, o aplicativo travou"), 200)

	r := e.pub("PUT", path("/registropontos/%d/reprovar", id(p)), c.token, nil)
	want(t, r, 200)
	rec := r.obj(t)
	if rec["status"] != "ajuste reprovado pela empresa" || rec["houveReajuste"] != false ||
		rec["dataSolicitar"] != "2024-03-05T11:00:00.000Z" || rec["motivoAjuste"] != "Cheguei às 8h, o aplicativo travou" {
		t.Fatalf("rejected: %s", r.body)
	}
	// After a rejection the employee may ask again, with new values.
	want(t, e.solicitar(w, id(p), "2024-03-05T11:05:00.000Z", "Segunda tentativa"), 200)
	rec = e.ownRecord(w, id(p), "inicio=2024-03-05&fim=2024-03-05")
	if rec["status"] != "ajuste solicitado" || rec["dataSolicitar"] != "2024-03-05T11:05:00.000Z" ||
		rec["motivoAjuste"] != "Segunda tentativa" || rec["houveReajuste"] != nil {
		t.Fatalf("asked again: %v", rec)
	}
	if n := e.count("ajustes_historico"); n != 3 {
		t.Fatalf("%d history rows, want 3", n)
	}
}

func TestAdjustmentRefusals(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	colleague := e.funcionario(c, w.escalaID, nil)
	_, stranger := e.outsider()

	p := e.punch(w, local(2024, 3, 5, 8, 0))
	theirs := e.punch(colleague, local(2024, 3, 5, 8, 0))
	strangers := e.punch(stranger, local(2024, 3, 5, 8, 0))
	e.clock.Set(local(2024, 3, 7, 12, 0))
	falta := e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-06", w.id), c.token, nil)
	want(t, falta, 200)

	// Cross-employee and cross-tenant: 404, nothing revealed.
	wantErr(t, e.solicitar(w, id(theirs), "2024-03-05T11:00:00Z", "não é meu"), 404, "nao_encontrado")
	wantErr(t, e.solicitar(w, id(strangers), "2024-03-05T11:00:00Z", "nem da empresa"), 404, "nao_encontrado")
	wantErr(t, e.solicitar(w, 999999, "2024-03-05T11:00:00Z", "inexistente"), 404, "nao_encontrado")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/aprovar", id(strangers)), c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/reprovar", id(strangers)), c.token, nil), 404, "nao_encontrado")

	// State conflicts.
	wantErr(t, e.solicitar(w, id(falta.obj(t)), "2024-03-06T11:00:00Z", "falta não se ajusta"), 409, "registro_nao_ajustavel")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/aprovar", id(p)), c.token, nil), 409, "ajuste_nao_pendente")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/aprovar", id(falta.obj(t))), c.token, nil), 409, "registro_nao_ajustavel")

	// Bad input.
	body := func(k string, v any) map[string]any {
		b := map[string]any{"dataSolicitar": "2024-03-05T11:00:00.000Z", "funcionarioId": w.id, "motivo": "motivo válido"}
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	for _, c := range []struct {
		field string
		value any
	}{
		{"dataSolicitar", nil}, {"dataSolicitar", "2024-03-05 11:00"}, {"dataSolicitar", "2024-03-05T08:00:00-03:00"},
		{"dataSolicitar", "2024-02-30T11:00:00Z"}, {"dataSolicitar", 1709636400},
		{"motivo", nil}, {"motivo", "   "}, {"motivo", "ok"}, {"motivo", strings.Repeat("a", 501)}, {"motivo", " espaço"},
		{"funcionarioId", nil},
		// On another workday than the punch's (00:30 on the 6th in São Paulo), or in the future.
		{"dataSolicitar", "2024-03-06T03:30:00Z"}, {"dataSolicitar", "2024-03-05T02:59:00Z"}, {"dataSolicitar", "2024-03-07T16:00:00Z"},
	} {
		r := e.pub("PUT", path("/registropontos/solicitar/%d", id(p)), w.token, body(c.field, c.value))
		want(t, r, 400)
		if _, named := r.fields(t)[c.field]; !named {
			t.Errorf("%s=%v: fields %v", c.field, c.value, r.fields(t))
		}
	}
	want(t, e.pub("PUT", path("/registropontos/solicitar/%d", id(p)), w.token, map[string]any{
		"dataSolicitar": "2024-03-05T11:00:00.000Z", "funcionarioId": w.id, "motivo": strings.Repeat("á", 500)}), 200)
	wantErr(t, e.pub("PUT", path("/registropontos/solicitar/%d", id(theirs)), w.token, body("funcionarioId", colleague.id)), 403, "funcionario_divergente")
	wantErr(t, e.pub("PUT", "/registropontos/solicitar/abc", w.token, body("", nil)), 400, "validacao")
	wantErr(t, e.pub("PUT", path("/registropontos/solicitar/%d", id(p)), c.token, body("", nil)), 403, "acesso_negado")
	wantErr(t, e.pub("PUT", path("/registropontos/%d/aprovar", id(p)), w.token, nil), 403, "acesso_negado")

	// The colleague's punch is untouched by all this.
	if rec := e.ownRecord(colleague, id(theirs), "inicio=2024-03-05&fim=2024-03-05"); rec["status"] != "aprovado automaticamente" {
		t.Fatalf("colleague's record: %v", rec)
	}
	if n := e.count("ajustes_historico"); n != 1 {
		t.Fatalf("%d history rows, want 1 (the one valid request)", n)
	}
}

func TestAdjustmentList(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	other, stranger := e.outsider()
	a := e.punch(w, local(2024, 3, 5, 8, 0))
	b := e.punch(w, local(2024, 3, 5, 12, 0))
	e.punch(w, local(2024, 3, 5, 13, 0))
	s := e.punch(stranger, local(2024, 3, 5, 8, 0))
	e.clock.Set(local(2024, 3, 6, 9, 0))
	want(t, e.solicitar(w, id(a), "2024-03-05T11:01:00Z", "primeiro"), 200)
	e.clock.Set(local(2024, 3, 6, 9, 5))
	want(t, e.solicitar(w, id(b), "2024-03-05T15:01:00Z", "segundo"), 200)
	want(t, e.solicitar(stranger, id(s), "2024-03-05T11:01:00Z", "de outra empresa"), 200)
	want(t, e.pub("PUT", path("/registropontos/%d/aprovar", id(b)), c.token, nil), 200)

	var page struct {
		Itens []map[string]any `json:"itens"`
		Total int              `json:"total"`
	}
	r := e.pub("GET", "/registropontos/ajustes?status=pendente", c.token, nil)
	want(t, r, 200)
	r.into(t, &page)
	if page.Total != 1 || len(page.Itens) != 1 || id(page.Itens[0]) != id(a) || page.Itens[0]["solicitadoEm"] != "2024-03-06T12:00:00.000Z" ||
		page.Itens[0]["funcionarioId"] != float64(w.id) || page.Itens[0]["decididoEm"] != nil {
		t.Fatalf("pending: %s", r.body)
	}
	r = e.pub("GET", "/registropontos/ajustes?status=aprovado", c.token, nil)
	want(t, r, 200)
	r.into(t, &page)
	if page.Total != 1 || id(page.Itens[0]) != id(b) || page.Itens[0]["houveReajuste"] != true {
		t.Fatalf("approved: %s", r.body)
	}
	r = e.pub("GET", "/registropontos/ajustes", other.token, nil) // default: pendente
	want(t, r, 200)
	r.into(t, &page)
	if page.Total != 1 || id(page.Itens[0]) != id(s) {
		t.Fatalf("other company's pending: %s", r.body)
	}
	wantErr(t, e.pub("GET", "/registropontos/ajustes?status=todos", c.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/registropontos/ajustes?tamanho=1000", c.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/registropontos/ajustes", w.token, nil), 403, "acesso_negado")
}
