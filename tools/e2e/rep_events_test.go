package e2e

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// afd reads the company's AFD of the current month (nil while it has no
// record yet).
func (e *env) afd(t testing.TB, c *company) *core.Arquivo {
	t.Helper()
	a := e.api.do(t, request{Method: http.MethodGet, Path: "/registropontos/afd", Token: c.Token})
	if a.Status == http.StatusNotFound {
		return nil
	}
	a.expect(t, http.StatusOK)
	arq, err := core.ParseAFD(a.Body)
	if err != nil {
		t.Fatalf("AFD does not read back: %v", err)
	}
	return arq
}

// awaitAFD polls the AFD until done accepts it: the events travel from
// company-billing's and employee's outboxes to timekeeping asynchronously.
func (e *env) awaitAFD(t testing.TB, c *company, what string, done func(*core.Arquivo) bool) *core.Arquivo {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		arq := e.afd(t, c)
		if arq != nil && done(arq) {
			return arq
		}
		if time.Now().After(deadline) {
			t.Fatalf("AFD never showed %s: %+v\n%s", what, arq, e.tail(40))
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// sameDoc compares a zero-padded AFD document field (CPF, CNPJ; 11, 12 or
// 14 wide) with a document as the API writes it ("" for none: zeros).
func sameDoc(field, doc string) bool {
	return strings.TrimLeft(field, "0") == strings.TrimLeft(digits(doc), "0")
}

// A company registered, naming its responsible person later, and an
// employee created, renamed and deactivated before he ever punches: the
// AFD shows type 2 twice and type 5 I, A, E, in that order, with the
// responsible CPF once named.
func TestREPEventsReachTheAFD(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Eventos "+randomHex(3))
	e.setUp(t, c)
	arq := e.awaitAFD(t, c, "the registration's type 2", func(a *core.Arquivo) bool { return len(a.Empresas) >= 1 })
	if r := arq.Empresas[0]; !sameDoc(r.Responsavel, "") || !sameDoc(r.Empregador, c.Saved.str("cnpj")) {
		t.Fatalf("registration's type 2 = %+v; want zeros as the responsible CPF and the company's CNPJ", r)
	}

	respCPF := newCPF(t)
	e.api.do(t, request{Method: http.MethodPatch, Path: "/empresas/me", Token: c.Token, CheckRequest: true,
		Body: map[string]any{"responsavel": map[string]string{"nome": "Responsável " + randomHex(3), "cpf": respCPF}}}).expect(t, http.StatusOK)
	e.awaitAFD(t, c, "the responsible person's type 2", func(a *core.Arquivo) bool {
		return len(a.Empresas) == 2 && sameDoc(a.Empresas[1].Responsavel, respCPF)
	})

	body := employeeBody(t, c, "Ana Evento "+randomHex(3), uniqueEmail("func"))
	id := e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: c.Token, CheckRequest: true,
		Body: body}).expect(t, http.StatusOK).object(t).int("id")
	novoNome := "Ana Renomeada " + randomHex(3)
	patch := func(b map[string]any) {
		t.Helper()
		e.api.do(t, request{Method: http.MethodPatch, Path: "/funcionarios/" + itoa(id), Token: c.Token, CheckRequest: true,
			Body: b}).expect(t, http.StatusOK)
	}
	patch(map[string]any{"nome": novoNome})
	patch(map[string]any{"cargo": "Gerente"}) // not the REP's business
	patch(map[string]any{"ativo": false})

	cpf := digits(body["cpf"].(string))
	arq = e.awaitAFD(t, c, "the employee's I, A and E", func(a *core.Arquivo) bool { return len(a.Empregados) >= 3 })
	if len(arq.Empregados) != 3 || len(arq.Marcacoes) != 0 {
		t.Fatalf("type 5 records %+v, punches %d; want exactly I, A, E and no punch", arq.Empregados, len(arq.Marcacoes))
	}
	for i, want := range []struct{ op, nome string }{{"I", body["nome"].(string)}, {"A", novoNome}, {"E", novoNome}} {
		r := arq.Empregados[i]
		if r.Operacao != want.op || !sameDoc(r.CPF, cpf) || strings.TrimSpace(r.Nome) != want.nome ||
			!sameDoc(r.Responsavel, respCPF) {
			t.Errorf("type 5 #%d = %+v; want %s %s %s, responsible %s", i, r, want.op, cpf, want.nome, digits(respCPF))
		}
		if i > 0 && r.NSR <= arq.Empregados[i-1].NSR {
			t.Errorf("type 5 NSRs out of order: %+v", arq.Empregados)
		}
	}
	if arq.Empregados[0].NSR <= arq.Empresas[1].NSR {
		t.Errorf("the employee's inclusion (NSR %d) precedes the company change (NSR %d)", arq.Empregados[0].NSR, arq.Empresas[1].NSR)
	}
}

// With timekeeping stopped, ten employees are created through the
// employee service, whose relay keeps their events and counts its failed
// deliveries. Once timekeeping is back, the AFD shows ten type-5
// inclusions, once each, in the order of creation, with gapless NSRs.
func TestREPEventsWaitOutATimekeepingOutage(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Eventos Adiados "+randomHex(3))
	e.setUp(t, c)
	// The registration's type 2 first: the company then has NSR 1.
	e.awaitAFD(t, c, "the registration's type 2", func(a *core.Arquivo) bool { return len(a.Empresas) >= 1 })

	failuresBefore := outboxFailures(t, e, "employee")
	if err := e.stack.StopService("timekeeping"); err != nil {
		t.Fatal(err)
	}
	down := true
	defer func() {
		if down { // the other tests share the stack
			e.restart(t, "timekeeping")
		}
	}()

	var cpfs []string
	for i := range 10 {
		body := employeeBody(t, c, fmt.Sprintf("Adiado %02d %s", i, randomHex(3)), uniqueEmail("func"))
		e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: c.Token, CheckRequest: true,
			Body: body}).expect(t, http.StatusOK)
		cpfs = append(cpfs, digits(body["cpf"].(string)))
	}
	// The relay keeps the ten events and says why it cannot deliver them.
	deadline := time.Now().Add(30 * time.Second)
	for {
		m := scrape(t, e, "employee")
		pending := total(m["outbox_pending_events"])
		if pending >= 10 && outboxFailures(t, e, "employee") > failuresBefore {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("employee's relay: %v events pending, failures %v → %v; want the ten kept and the failures counted",
				pending, failuresBefore, outboxFailures(t, e, "employee"))
		}
		time.Sleep(300 * time.Millisecond)
	}

	e.restart(t, "timekeeping")
	down = false
	e.awaitAFD(t, c, "the ten inclusions", func(a *core.Arquivo) bool { return len(a.Empregados) >= 10 })
	e.awaitOutboxDrained(t, "employee")
	arq := e.afd(t, c) // nothing more arrives once the outbox is empty
	if len(arq.Empregados) != 10 {
		t.Fatalf("%d type-5 records, want the ten inclusions once each: %+v", len(arq.Empregados), arq.Empregados)
	}
	for i, r := range arq.Empregados {
		if r.Operacao != "I" || !sameDoc(r.CPF, cpfs[i]) {
			t.Errorf("type 5 #%d = %s %s; want I %s (creation order)", i, r.Operacao, r.CPF, cpfs[i])
		}
	}
	checkGaplessNSRs(t, arq)
}

// restart starts a service StopService stopped and waits for the stack
// to be ready again.
func (e *env) restart(t testing.TB, name string) {
	t.Helper()
	if err := e.stack.StartService(name); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := e.stack.WaitReady(ctx); err != nil {
		t.Fatalf("%s did not come back: %v\n%s", name, err, e.tail(60))
	}
}

// outboxFailures is the relay's count of deliveries that found
// timekeeping unavailable.
func outboxFailures(t testing.TB, e *env, service string) float64 {
	t.Helper()
	for _, m := range scrape(t, e, service)["outbox_delivery_failures_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "reason" && l.GetValue() == "indisponivel" {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("%s exports no outbox_delivery_failures_total{reason=\"indisponivel\"}", service)
	return 0
}

// awaitOutboxDrained waits until the service's outbox has no event left
// to deliver, read in its database (the relay's gauge lags by a pass).
func (e *env) awaitOutboxDrained(t *testing.T, service string) {
	t.Helper()
	conn := dbConn(t, e, service)
	deadline := time.Now().Add(90 * time.Second)
	for {
		var pending int
		if err := conn.QueryRow(context.Background(),
			`SELECT count(*) FROM outbox_eventos WHERE enviado_em IS NULL`).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s's outbox still holds %d events\n%s", service, pending, e.tail(40))
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// checkGaplessNSRs: the file's records, every type together, are
// numbered 1, 2, 3… with no gap and no repeat.
func checkGaplessNSRs(t testing.TB, arq *core.Arquivo) {
	t.Helper()
	var nsrs []int64
	for _, r := range arq.Empresas {
		nsrs = append(nsrs, r.NSR)
	}
	for _, r := range arq.Empregados {
		nsrs = append(nsrs, r.NSR)
	}
	for _, r := range arq.Eventos {
		nsrs = append(nsrs, r.NSR)
	}
	for _, r := range arq.Marcacoes {
		nsrs = append(nsrs, r.NSR)
	}
	slices.Sort(nsrs)
	for i, n := range nsrs {
		if n != int64(i+1) {
			t.Fatalf("NSRs %v: want 1…%d without gaps", nsrs, len(nsrs))
		}
	}
}
