package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/ponto/ponto/pkg/mail"
	"github.com/ponto/ponto/pkg/mailtest"
	"github.com/ponto/ponto/services/timekeeping/internal/lembrete"
)

// switchable is a sender whose SMTP server can be swapped: down first,
// then up.
type switchable struct {
	mu sync.Mutex
	s  mail.Sender
}

func (w *switchable) Send(ctx context.Context, m mail.Message) error {
	w.mu.Lock()
	s := w.s
	w.mu.Unlock()
	return s.Send(ctx, m)
}

func (w *switchable) set(s mail.Sender) { w.mu.Lock(); w.s = s; w.mu.Unlock() }

func smtpTo(t *testing.T, addr string) mail.Sender {
	t.Helper()
	s, err := mail.NewSMTP(mail.SMTPConfig{Addr: addr, From: "ponto <nao-responda@ponto.test>", TLS: mail.TLSNone,
		Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLembretesOncePerDayWithTwoReplicas: on Tuesday 2024-03-12 from
// 07:00 (LEMBRETES_HOUR 7) Ana's Monday ended with one punch (odd),
// Bruno's too but he opted out, Carla's with four; the company gets its
// digest, planned at 08:00, within the 5 minutes of tolerance after the
// 08:00 entrada: nobody late or absent yet. First the mail server is
// down: each attempt fails (counted), nothing is sent, and it is tried
// again a minute later (the first backoff). Two replicas pass at once,
// over and over: each message goes out once.
func TestLembretesOncePerDayWithTwoReplicas(t *testing.T) {
	e := newEnv(t)
	inbox := mailtest.NewInbox(t, mailtest.Config{})
	sender := &switchable{s: smtpTo(t, freeAddr(t))}
	var mu sync.Mutex
	var jobs []*lembrete.Job
	e.tune = func(d *dependencies) {
		d.lembretesConfig = lembrete.Config{Interval: time.Hour, Hour: 7, OptOutURL: "https://ponto.test/ponto/lembretes"}
		d.lembretesSender = sender
		d.log = slog.New(slog.NewTextHandler(io.Discard, nil))
		d.lembretes = func(j *lembrete.Job) { mu.Lock(); jobs = append(jobs, j); mu.Unlock() }
	}
	e.public = e.startTimekeeping(e.db)
	e.replica()
	if len(jobs) != 2 {
		t.Fatalf("%d reminder jobs, want one per replica", len(jobs))
	}

	c := e.company(1)
	std := e.escala(c, "Comercial", standard())
	ana := e.funcionario(c, std, map[string]any{"nome": "Ana Lima", "email": "ana@empresa.com.br"})
	bruno := e.funcionario(c, std, map[string]any{"nome": "Bruno Reis"})
	carla := e.funcionario(c, std, map[string]any{"nome": "Carla Dias"})
	e.punch(ana, local(2024, 3, 11, 8, 0))
	e.punch(bruno, local(2024, 3, 11, 8, 0))
	for _, at := range []time.Time{local(2024, 3, 11, 8, 0), local(2024, 3, 11, 12, 0), local(2024, 3, 11, 13, 0), local(2024, 3, 11, 17, 0)} {
		e.punch(carla, at)
	}
	want(t, e.pub("PUT", "/registropontos/lembretes/me", bruno.token, map[string]any{"ativo": false}), 200)

	passAll := func() {
		t.Helper()
		var wg sync.WaitGroup
		errs := make([]error, len(jobs))
		for i, j := range jobs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = j.Pass(t.Context()) }()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	failed := func() float64 {
		var n float64
		for _, j := range jobs {
			n += testutil.ToFloat64(j.Failed.WithLabelValues(lembrete.TipoImpares)) +
				testutil.ToFloat64(j.Failed.WithLabelValues(lembrete.TipoResumo))
		}
		return n
	}

	// 06:59: before the company's hour, nothing is planned.
	e.clock.Set(local(2024, 3, 12, 6, 59))
	passAll()
	if n := e.count("lembretes_envios"); n != 0 {
		t.Fatalf("%d messages planned before LEMBRETES_HOUR", n)
	}

	// 08:00, the mail server down: two attempts (Ana, the digest) fail.
	e.clock.Set(local(2024, 3, 12, 8, 0))
	passAll()
	passAll() // not due again before a minute
	if got := failed(); got != 2 {
		t.Fatalf("%v failed attempts, want 2 (one per message)", got)
	}
	inbox.None(t)

	// The server back, a minute later: each message once, whatever the
	// passes of the two replicas.
	sender.set(smtpTo(t, inbox.Addr))
	e.clock.Set(local(2024, 3, 12, 8, 1))
	for range 3 {
		passAll()
	}
	e.clock.Set(local(2024, 3, 12, 15, 0))
	passAll()
	got := map[string]mailtest.Decoded{}
	for range 2 {
		m := inbox.Next(t)
		d, err := mailtest.Decode(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		got[strings.Join(m.To, ",")] = d
	}
	inbox.None(t)
	a, ok := got["ana@empresa.com.br"]
	if !ok || a.Subject != "Ponto: marcação faltando em 11/03/2024" ||
		!strings.Contains(a.Body, "terminou com 1 marcação(ões)") || !strings.Contains(a.Body, "https://ponto.test/ponto/lembretes") {
		t.Errorf("Ana's reminder: %+v", a)
	}
	r, ok := got["rh@empresa1.com.br"]
	if !ok || r.Subject != "Ponto: resumo do dia 12/03/2024" {
		t.Fatalf("the company's digest: %v", got)
	}
	// The open period: 62 days before 2024-03-12, 2024-01-10 (29 days
	// back to 02-12, 33 more); its odd days are Ana's and Bruno's Monday.
	for _, w := range []string{"Atrasados: 0", "Ausentes: 0", "Dias com marcações ímpares desde 2024-01-10: 2"} {
		if !strings.Contains(r.Body, w) {
			t.Errorf("the digest lacks %q:\n%s", w, r.Body)
		}
	}
	var sent float64
	for _, j := range jobs {
		sent += testutil.ToFloat64(j.Sent.WithLabelValues(lembrete.TipoImpares)) + testutil.ToFloat64(j.Sent.WithLabelValues(lembrete.TipoResumo))
	}
	if d := cmp.Diff([]float64{2, 2}, []float64{sent, failed()}); d != "" {
		t.Errorf("sent, failed (-want +got):\n%s", d)
	}

	// The switch: off, the next day plans nothing for the company.
	r2 := e.pub("PUT", "/registropontos/lembretes", c.token, map[string]any{"ativo": false})
	want(t, r2, 200)
	e.clock.Set(local(2024, 3, 13, 9, 0))
	passAll()
	inbox.None(t)
	wantErr(t, e.pub("PUT", "/registropontos/lembretes", c.token, map[string]any{}), 400, "validacao")
	wantErr(t, e.pub("PUT", "/registropontos/lembretes", ana.token, map[string]any{"ativo": true}), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/registropontos/lembretes/me", c.token, nil), 403, "acesso_negado")
	var me struct{ Ativo bool }
	r3 := e.pub("GET", "/registropontos/lembretes/me", bruno.token, nil)
	want(t, r3, 200)
	r3.into(t, &me)
	if me.Ativo {
		t.Error("Bruno's opt-out does not show")
	}
}
