package e2e

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWorkdayThroughTheGateway is a company's and an employee's day, as
// their apps would live it, through the gateway only: registration,
// logins, a schedule, a department, an employee, the e-mailed code, four
// punches, an adjustment and its approval, an absence, the department
// report in JSON and CSV, the department's employees, a photo, and the
// refresh token's life. Every answer is checked against the OpenAPI
// document by the client.
func TestWorkdayThroughTheGateway(t *testing.T) {
	e := sharedEnv(t)
	api := e.api

	// Registration: a Stripe (stripe-mock) customer and trial subscription.
	c := e.registerCompany(t, "Padaria Pão Quente")
	checkRegistration(t, c)
	me := api.do(t, request{Method: http.MethodGet, Path: "/empresas/me", Token: c.Token, CheckRequest: true}).expect(t, http.StatusOK).object(t)
	if me.int("id") != c.ID || me.str("nome") != "Padaria Pão Quente" || !me.isNull("assinaturaStatus") {
		t.Fatalf("GET /empresas/me = %v", me)
	}
	// Stripe tells company-billing the trial became a paid subscription.
	subscriptionWebhook(t, e, c, "active")
	me = api.do(t, request{Method: http.MethodGet, Path: "/empresas/me", Token: c.Token}).expect(t, http.StatusOK).object(t)
	if me.str("assinaturaStatus") != "active" {
		t.Fatalf("assinaturaStatus after the webhook = %v; want active", me["assinaturaStatus"])
	}

	// Department, schedule and employee.
	e.setUp(t, c)
	f := &employee{Email: uniqueEmail("maria")}
	body := employeeBody(t, c, "Maria Souza", f.Email)
	created := api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: c.Token, CheckRequest: true,
		Body: body}).expect(t, http.StatusOK).object(t)
	f.ID = created.int("id")
	for _, k := range []string{"cargo", "cpf", "dataNascimento", "email", "nome", "telefone"} {
		if created.str(k) != body[k] {
			t.Errorf("POST /funcionarios: %s = %q; sent %q", k, created.str(k), body[k])
		}
	}
	if created.str("password") == body["password"] || !strings.HasPrefix(created.str("password"), "$2") {
		t.Errorf("POST /funcionarios: password must come back as a bcrypt hash, not %q", created.str("password"))
	}

	// The employee asks for a code, reads it in his e-mail and logs in.
	e.employeeLogin(t, f)
	if f.User.str("email") != f.Email || f.User.int("empresaId") != c.ID || f.User.int("departamentoId") != c.DeptID {
		t.Fatalf("employee login user = %v", f.User)
	}

	// Four punches: the workday's sequence, numbered and chained. (The
	// NSR counts the company's other AFD records too, so the punches'
	// NSRs increase but need not start at 1.)
	var punches []obj
	for i, tipo := range []string{"entrada", "almoço", "retorno almoço", "saída"} {
		p := e.punch(t, f)
		checkPunch(t, p, f, tipo, len(punches))
		if i > 0 && (p.int("nsr") <= punches[i-1].int("nsr") || p.str("hash") == punches[i-1].str("hash")) {
			t.Errorf("punch %d: NSR %d after %d, hash %s after %s: want a growing NSR and another hash",
				i+1, p.int("nsr"), punches[i-1].int("nsr"), p.str("hash"), punches[i-1].str("hash"))
		}
		punches = append(punches, p)
	}
	day := localDate(t, punches[0].str("horarioRegistro"))
	if punches[3].str("data") != day.Format(time.DateOnly) {
		t.Skipf("the punches straddled midnight in São Paulo (%s, %s): run again", punches[0].str("data"), punches[3].str("data"))
	}

	// A retried punch with the same Idempotency-Key is the same punch.
	key := "e2e-" + randomHex(8)
	replay := func() answer {
		return api.do(t, request{Method: http.MethodPost, Path: "/registropontos", Token: f.Token, CheckRequest: true,
			Headers: map[string]string{"Idempotency-Key": key},
			Body:    map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": f.ID}}).expect(t, http.StatusOK)
	}
	first, again := replay(), replay()
	if first.object(t).int("id") != again.object(t).int("id") || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry with the same Idempotency-Key: %s\n%s", first, again)
	}
	extra := first.object(t) // a fifth punch (entrada of a split shift)

	// The employee asks to move his entrada earlier; the company approves.
	entrada := punches[0]
	when := parseISO(t, entrada.str("horarioRegistro"))
	if local := when.In(zone); local.Hour() >= 1 { // stay on the same workday
		when = when.Add(-30 * time.Minute)
	}
	motivo := "Esqueci de bater o ponto na chegada"
	api.do(t, request{Method: http.MethodPut, Path: "/registropontos/solicitar/" + itoa(entrada.int("id")), Token: f.Token, CheckRequest: true,
		Body: map[string]any{"dataSolicitar": isoMillis(when), "funcionarioId": f.ID, "motivo": motivo}}).expect(t, http.StatusOK)
	pend := api.do(t, request{Method: http.MethodGet, Path: "/registropontos/ajustes?status=pendente", Token: c.Token, CheckRequest: true}).expect(t, http.StatusOK).object(t)
	if items := pend.list("itens"); len(items) != 1 || items[0].int("id") != entrada.int("id") || items[0].str("status") != "ajuste solicitado" {
		t.Fatalf("pending adjustments = %v", pend)
	}
	approved := api.do(t, request{Method: http.MethodPut, Path: "/registropontos/" + itoa(entrada.int("id")) + "/aprovar", Token: c.Token, CheckRequest: true}).expect(t, http.StatusOK).object(t)
	if approved.str("status") != "ajuste aprovado pela empresa" || approved["houveReajuste"] != true ||
		approved.str("dataSolicitar") != isoMillis(when) || approved.str("motivoAjuste") != motivo ||
		approved.str("horarioRegistro") != entrada.str("horarioRegistro") {
		t.Fatalf("approved record = %v", approved)
	}

	// An absence the day before: one record, the same on a repeat.
	yesterday := day.AddDate(0, 0, -1).Format(time.DateOnly)
	falta := api.do(t, request{Method: http.MethodPost, Path: "/registropontos/" + itoa(f.ID) + "/marcar-falta/" + yesterday, Token: c.Token, CheckRequest: true}).expect(t, http.StatusOK).object(t)
	if falta.str("tipo") != "falta" || falta.str("data") != yesterday || falta.int("funcionarioId") != f.ID {
		t.Fatalf("absence = %v", falta)
	}
	again2 := api.do(t, request{Method: http.MethodPost, Path: "/registropontos/" + itoa(f.ID) + "/marcar-falta/" + yesterday, Token: c.Token}).expect(t, http.StatusOK).object(t)
	if again2.int("id") != falta.int("id") {
		t.Fatalf("marcar-falta repeated made another record: %v and %v", falta, again2)
	}
	api.do(t, request{Method: http.MethodPost, Path: "/registropontos/" + itoa(f.ID) + "/marcar-falta/" + day.Format(time.DateOnly), Token: c.Token}).
		expectError(t, http.StatusConflict, "dia_com_marcacoes")

	// The department report, JSON then CSV.
	effective := []time.Time{when, parseISO(t, punches[1].str("horarioRegistro")),
		parseISO(t, punches[2].str("horarioRegistro")), parseISO(t, punches[3].str("horarioRegistro")),
		parseISO(t, extra.str("horarioRegistro"))}
	report := checkReportJSON(t, e, c, f, yesterday, day, effective)
	checkReportCSV(t, e, c, f, yesterday, day, report)
	checkEspelho(t, e, c, f, day, entrada, when, motivo)

	// The department's employees: segment 1 and the whole department
	// list her, segment 2 does not.
	for seg, want := range map[string]bool{"0": true, "1": true, "2": false} {
		page := api.do(t, request{Method: http.MethodGet, Path: "/departamentos/" + itoa(c.DeptID) + "/" + seg + "/funcionarios", Token: c.Token, CheckRequest: true}).
			expect(t, http.StatusOK).object(t)
		found := slices.ContainsFunc(page.list("itens"), func(it obj) bool { return it.int("id") == f.ID })
		if found != want || (want && page.int("total") != 1) {
			t.Errorf("segment %s: employee listed = %v (want %v); page %v", seg, found, want, page)
		}
	}

	// A photo: uploaded by the employee, downloaded by her and her company.
	checkPhoto(t, e, c, f)

	// The refresh token: a new access token that works and the refresh
	// token's successor, then logout with the successor, then both
	// refused.
	renewed := api.do(t, request{Method: http.MethodPost, Path: "/auth/refresh-token", CheckRequest: true,
		Body: map[string]string{"refreshToken": f.Refresh}}).expect(t, http.StatusOK).object(t)
	access, next := renewed.str("accessToken"), renewed.str("refreshToken")
	if next == "" || next == f.Refresh {
		t.Fatalf("refresh answered refreshToken %q; want a new one", next)
	}
	own := api.do(t, request{Method: http.MethodGet, Path: "/registropontos/me?inicio=" + yesterday + "&fim=" + day.Format(time.DateOnly), Token: access, CheckRequest: true}).
		expect(t, http.StatusOK).object(t)
	if own.int("total") != 6 { // four punches, the split-shift entrada and the absence
		t.Errorf("GET /registropontos/me with the refreshed token: total %d; want 6: %v", own.int("total"), own)
	}
	api.do(t, request{Method: http.MethodPost, Path: "/auth/logout", CheckRequest: true,
		Body: map[string]string{"refreshToken": next}}).expect(t, http.StatusNoContent)
	for _, rt := range []string{next, f.Refresh} {
		api.do(t, request{Method: http.MethodPost, Path: "/auth/refresh-token", CheckRequest: true,
			Body: map[string]string{"refreshToken": rt}}).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	}
	// The session's access token ended with it (its sid), well before its
	// 15 minutes: as soon as the revocation reaches timekeeping.
	records := request{Method: http.MethodGet, Path: "/registropontos/me?inicio=" + yesterday + "&fim=" + day.Format(time.DateOnly), Token: access, CheckRequest: true}
	ended := api.do(t, records)
	for deadline := time.Now().Add(3 * time.Second); ended.Status == http.StatusOK && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		ended = api.do(t, records)
	}
	ended.expectError(t, http.StatusUnauthorized, "sessao_encerrada")

	// After the day, Prometheus can scrape every service.
	checkMetrics(t, e)
}

func checkRegistration(t *testing.T, c *company) {
	t.Helper()
	s := c.Saved
	if s.str("email") != c.Email || s.str("role") != "empresa_plan_basic" || s.str("nomeDoPlano") != "basic" ||
		!strings.HasPrefix(s.str("password"), "$2") || s.str("billingCustomerId") == "" || s.str("invoiceId") == "" ||
		!s.isNull("assinaturaStatus") || !s.isNull("endereco") || !s.isNull("fluxoCaixa") {
		t.Errorf("savedEmpresa = %v", s)
	}
	if _, ok := s["nome"]; ok {
		t.Errorf("savedEmpresa must not echo nome (the contract does not show it): %v", s)
	}
	if c.Sub.str("object") != "subscription" || c.Sub.str("customer") != s.str("billingCustomerId") || c.Sub.str("id") == "" {
		t.Errorf("subscription = %v; want the subscription of customer %s", c.Sub, s.str("billingCustomerId"))
	}
}

// subscriptionWebhook sends a signed customer.subscription.updated event
// for the company's subscription, as Stripe would.
func subscriptionWebhook(t *testing.T, e *env, c *company, status string) {
	t.Helper()
	ts := time.Now().Unix()
	payload, _ := json.Marshal(map[string]any{
		"id": "evt_e2e_" + randomHex(6), "object": "event", "api_version": "2023-10-16", "created": ts,
		"type": "customer.subscription.updated", "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": map[string]any{"id": c.Sub.str("id"), "object": "subscription",
			"customer": c.Sub.str("customer"), "status": status}},
	})
	mac := hmac.New(sha256.New, []byte(webhookSecret))
	fmt.Fprintf(mac, "%d.%s", ts, payload)
	sig := fmt.Sprintf("t=%d,v1=%s", ts, hex.EncodeToString(mac.Sum(nil)))
	a := e.api.do(t, request{Method: http.MethodPost, Path: "/webhooks/stripe", Raw: payload, Type: "application/json",
		Headers: map[string]string{"Stripe-Signature": sig}, CheckRequest: true}).expect(t, http.StatusOK)
	if a.object(t)["recebido"] != true {
		t.Fatalf("webhook: %s", a)
	}
}

// checkPunch checks a clock-in answer: a punch of tipo, with an NSR and
// a hash, the employee nested with his earlier punches of the day.
func checkPunch(t *testing.T, p obj, f *employee, tipo string, earlier int) {
	t.Helper()
	if p.str("tipo") != tipo || p.str("status") != "aprovado automaticamente" || p.int("nsr") < 1 || len(p.str("hash")) != 64 ||
		p.int("funcionarioId") != f.ID || p.str("localizacao") != "-23.55052, -46.633309" ||
		!p.isNull("dataSolicitar") || !p.isNull("houveReajuste") || !p.isNull("motivoAjuste") {
		t.Fatalf("punch %d: %v; want tipo %q with an NSR and a hash", earlier+1, p, tipo)
	}
	nested := p.obj("funcionario")
	if nested.int("id") != f.ID || !nested.isNull("codeVerify") || len(nested.list("registrosPonto")) != earlier {
		t.Fatalf("punch %d: nested funcionario = %v; want %d earlier records and codeVerify null", earlier+1, nested, earlier)
	}
}

// checkReportJSON reads the report of yesterday and today and checks the
// employee's two days and the totals; effective are the five punches'
// effective times (the first one adjusted).
func checkReportJSON(t *testing.T, e *env, c *company, f *employee, yesterday string, day time.Time, effective []time.Time) obj {
	t.Helper()
	q := url.Values{"inicio": {yesterday}, "fim": {day.Format(time.DateOnly)}}
	path := "/registropontos/departamento/" + url.PathEscape(c.DeptNome) + "?" + q.Encode()
	r := e.api.do(t, request{Method: http.MethodGet, Path: path, Token: c.Token, CheckRequest: true}).expect(t, http.StatusOK).object(t)
	items := r.list("itens")
	if r.obj("departamento").int("id") != c.DeptID || len(items) != 1 || r.int("total") != 1 || r.str("fusoHorario") != "America/Sao_Paulo" {
		t.Fatalf("report = %v", r)
	}
	it := items[0]
	dias := it.list("dias")
	if it.obj("funcionario").int("id") != f.ID || len(dias) != 2 {
		t.Fatalf("report: item %v; want the employee with 2 days", it)
	}
	absent, worked := dias[0], dias[1]
	yDay, _ := time.Parse(time.DateOnly, yesterday)
	if absent.str("data") != yesterday || absent["falta"] != true || len(absent.list("marcacoes")) != 0 ||
		absent.int("minutosTrabalhados") != 0 || absent.int("minutosPrevistos") != expected(yDay) {
		t.Errorf("report, day of the absence = %v; want %d expected minutes", absent, expected(yDay))
	}
	marks := worked.list("marcacoes")
	if worked.str("data") != day.Format(time.DateOnly) || worked["falta"] != false || len(marks) != 5 {
		t.Fatalf("report, day worked = %v", worked)
	}
	minute := func(ts time.Time) time.Time { return ts.Truncate(time.Minute) }
	for i, m := range marks {
		if m.str("horarioEfetivo") != isoMillis(minute(effective[i])) || m.str("horaLocal") != minute(effective[i]).In(zone).Format("15:04") {
			t.Errorf("report, punch %d = %v; want effective time %s", i, m, isoMillis(minute(effective[i])))
		}
	}
	if marks[0].str("status") != "ajuste aprovado pela empresa" {
		t.Errorf("report: the adjusted entrada shows as %q", marks[0].str("status"))
	}
	// entrada→almoço and retorno→saída count; the fifth punch opens a
	// period nobody closed, so the day is incomplete.
	want := int64(minute(effective[1]).Sub(minute(effective[0])).Minutes() + minute(effective[3]).Sub(minute(effective[2])).Minutes())
	if worked.int("minutosTrabalhados") != want || worked.int("minutosPrevistos") != expected(day) || worked["incompleto"] != true {
		t.Errorf("report, day worked: %v; want %d minutes worked, %d expected, incomplete", worked, want, expected(day))
	}
	tot := it.obj("totais")
	if tot.int("faltas") != 1 || tot.int("minutosTrabalhados") != want || tot.int("minutosPrevistos") != expected(yDay)+expected(day) ||
		tot.int("ajustesPendentes") != 0 {
		t.Errorf("report, the employee's totals = %v", tot)
	}
	if dep := r.obj("totais"); mustJSON(dep) != mustJSON(tot) {
		t.Errorf("report: department totals %v differ from its only employee's %v", dep, tot)
	}
	return r
}

// expected is what the schedule of weekSchedule expects on day: 480
// minutes every day, Sunday included, since the schedule makes it a
// working day (its overtime is at 100%: docs/compliance.md, CLT rules).
func expected(day time.Time) int64 { return 480 }

// checkEspelho reads the month's timesheet of the punches' day and finds
// the approved adjustment treated there: the original disregarded, the
// requested time included with its reason.
func checkEspelho(t *testing.T, e *env, c *company, f *employee, day time.Time, entrada obj, when time.Time, motivo string) {
	t.Helper()
	path := "/registropontos/funcionario/" + itoa(f.ID) + "/espelho?mes=" + day.Format("2006-01")
	for _, tok := range []string{c.Token, f.Token} {
		esp := e.api.do(t, request{Method: http.MethodGet, Path: path, Token: tok, CheckRequest: true}).expect(t, http.StatusOK).object(t)
		if esp.obj("funcionario").int("id") != f.ID || esp.obj("empregador").str("cnpj") != c.Saved.str("cnpj") {
			t.Fatalf("espelho: funcionario %v, empregador %v", esp.obj("funcionario"), esp.obj("empregador"))
		}
		i := slices.IndexFunc(esp.list("dias"), func(d obj) bool { return d.str("data") == day.Format(time.DateOnly) })
		if i < 0 {
			t.Fatalf("espelho lacks day %s: %v", day.Format(time.DateOnly), esp.list("dias"))
		}
		d := esp.list("dias")[i]
		trat, desc := d.list("marcacoesTratadas"), d.list("desconsideradas")
		if len(d.list("marcacoesOriginais")) != 5 || len(trat) != 5 || len(desc) != 1 ||
			trat[0].int("registroId") != entrada.int("id") || trat[0].str("origem") != "incluída" ||
			trat[0].str("horario") != when.In(zone).Format("15:04") || trat[0].str("motivo") != motivo ||
			desc[0].int("registroId") != entrada.int("id") {
			t.Errorf("espelho, day %s: %v; want the approved adjustment treated", day.Format(time.DateOnly), d)
		}
	}
	pdf := e.api.do(t, request{Method: http.MethodGet, Path: path + "&formato=pdf", Token: c.Token, CheckRequest: true}).expect(t, http.StatusOK)
	if !bytes.HasPrefix(pdf.Body, []byte("%PDF-")) {
		t.Errorf("espelho as PDF does not start with %%PDF-: %.40q", pdf.Body)
	}
	receipt := e.api.do(t, request{Method: http.MethodGet, Path: "/registropontos/" + itoa(entrada.int("id")) + "/comprovante",
		Token: f.Token, CheckRequest: true}).expect(t, http.StatusOK)
	if !bytes.HasPrefix(receipt.Body, []byte("%PDF-")) || receipt.Header.Get("Content-Type") != "application/pdf" {
		t.Errorf("comprovante: %s, %.40q; want a PDF", receipt.Header.Get("Content-Type"), receipt.Body)
	}
	checkSigned(t, e, c, entrada, receipt.Body)
}

// checkReportCSV reads the same report as CSV and compares it with the
// JSON one.
func checkReportCSV(t *testing.T, e *env, c *company, f *employee, yesterday string, day time.Time, report obj) {
	t.Helper()
	q := url.Values{"inicio": {yesterday}, "fim": {day.Format(time.DateOnly)}, "formato": {"csv"}}
	a := e.api.do(t, request{Method: http.MethodGet, Path: "/registropontos/departamento/" + url.PathEscape(c.DeptNome) + "?" + q.Encode(),
		Token: c.Token, CheckRequest: true}).expect(t, http.StatusOK)
	if ct := a.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") || !strings.Contains(a.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("CSV: Content-Type %q, Content-Disposition %q", ct, a.Header.Get("Content-Disposition"))
	}
	body, ok := bytes.CutPrefix(a.Body, []byte("\uFEFF"))
	if !ok || !bytes.Contains(body, []byte("\r\n")) {
		t.Errorf("CSV without a UTF-8 BOM or without CRLF")
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("CSV unreadable: %v\n%s", err, body)
	}
	if len(rows) != 5 || rows[0][0] != "funcionarioId" || rows[0][3] != "data" {
		t.Fatalf("CSV: want the header, 2 days, the employee's TOTAL and the department's:\n%s", body)
	}
	id := itoa(f.ID)
	worked := report.list("itens")[0].list("dias")[1]
	if rows[1][0] != id || rows[1][3] != yesterday || rows[1][10] != "sim" ||
		rows[2][0] != id || rows[2][3] != day.Format(time.DateOnly) || rows[2][5] != itoa(worked.int("minutosTrabalhados")) ||
		!strings.Contains(rows[2][4], "entrada (ajustada)") || rows[3][3] != "TOTAL" || rows[3][10] != "1" ||
		!strings.Contains(rows[4][1], "TOTAL DO DEPARTAMENTO") {
		t.Errorf("CSV does not match the JSON report:\n%s", body)
	}
}

// checkPhoto uploads a PNG as the employee and downloads the stored JPEG
// as the employee and as the company.
func checkPhoto(t *testing.T, e *env, c *company, f *employee) {
	t.Helper()
	raw, ctype := multipartFile("foto", "foto.png", "image/png", pngImage(t, 300, 200))
	up := e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios/" + itoa(f.ID) + "/foto", Token: f.Token,
		Raw: raw, Type: ctype, CheckRequest: true}).expect(t, http.StatusOK).object(t)
	thumb := up.obj("miniatura")
	if up.int("funcionarioId") != f.ID || up.int("largura") != 300 || up.int("altura") != 200 ||
		thumb.int("largura") != 256 || thumb.str("url") == "" {
		t.Fatalf("photo upload = %v", up)
	}
	rec := e.api.do(t, request{Method: http.MethodGet, Path: "/funcionarios/" + itoa(f.ID), Token: c.Token, CheckRequest: true}).expect(t, http.StatusOK).object(t)
	if rec.str("fotoProfile") != up.str("fotoProfile") {
		t.Fatalf("fotoProfile = %q; the upload said %q", rec.str("fotoProfile"), up.str("fotoProfile"))
	}
	for _, tok := range []string{f.Token, c.Token} {
		a := e.api.do(t, request{Method: http.MethodGet, Path: up.str("fotoProfile"), Token: tok, CheckRequest: true}).expect(t, http.StatusOK)
		sum := sha256.Sum256(a.Body)
		img, err := jpeg.Decode(bytes.NewReader(a.Body))
		if err != nil || img.Bounds().Dx() != 300 || img.Bounds().Dy() != 200 || hex.EncodeToString(sum[:]) != up.str("sha256") ||
			a.Header.Get("ETag") != `"`+up.str("sha256")+`"` {
			t.Fatalf("photo download: %v, %v, ETag %s; want a 300x200 JPEG with sha256 %s", err, img.Bounds(), a.Header.Get("ETag"), up.str("sha256"))
		}
	}
	e.api.do(t, request{Method: http.MethodGet, Path: up.str("fotoProfile"), Token: f.Token, CheckRequest: true,
		Headers: map[string]string{"If-None-Match": `"` + up.str("sha256") + `"`}}).expect(t, http.StatusNotModified)
	small := e.api.do(t, request{Method: http.MethodGet, Path: thumb.str("url"), Token: f.Token, CheckRequest: true}).expect(t, http.StatusOK)
	if img, err := jpeg.Decode(bytes.NewReader(small.Body)); err != nil || img.Bounds().Dx() != int(thumb.int("largura")) {
		t.Fatalf("thumbnail: %v; want a JPEG %d wide", err, thumb.int("largura"))
	}
}

// TestGatewayServesTheDocument: make run's gateway serves api/openapi.yaml
// at /openapi.yaml (the stack passes it by default).
func TestGatewayServesTheDocument(t *testing.T) {
	e := sharedEnv(t)
	want, err := os.ReadFile(openAPIFile(t))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(e.stack.GatewayURL() + "/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got bytes.Buffer
	_, _ = got.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK || !bytes.Equal(got.Bytes(), want) || !strings.Contains(resp.Header.Get("Content-Type"), "yaml") {
		t.Fatalf("GET /openapi.yaml = %d %s (%d bytes); want the file api/openapi.yaml", resp.StatusCode, resp.Header.Get("Content-Type"), got.Len())
	}
}
