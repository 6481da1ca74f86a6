package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// registrationRate is RATE_REGISTRATION in the e2e stack: a burst of 125,
// refilled one every 28.8 s, so that 126 registrations sent within a
// minute meet exactly one refusal at the 126th, however slow the machine.
const registrationRate = "125/h"

// TestRegistrationRateLimit: from one client address, 125 registrations
// within a minute are served (here refused as invalid: a budget counts
// attempts, not successes) and the 126th gets 429 with Retry-After, as does
// a valid registration then, without creating anything. Another address
// keeps its own budget. The address is a loopback one of the test's own
// (127.0.0.x), which the gateway forwards as the client's.
func TestRegistrationRateLimit(t *testing.T) {
	e := sharedEnv(t)
	from := fromAddress(t, e, fmt.Sprintf("127.0.%d.%d", 1+time.Now().Nanosecond()%200, 2+time.Now().Nanosecond()%250))
	invalid := request{Method: http.MethodPost, Path: "/empresas", Body: map[string]any{}}
	for i := 1; i <= 125; i++ {
		if a := from.do(t, invalid); a.Status != http.StatusBadRequest {
			t.Fatalf("registration %d: %d; want 400 — %s", i, a.Status, a)
		}
	}
	a := from.do(t, invalid)
	a.expectError(t, http.StatusTooManyRequests, "limite_excedido")
	if n, err := strconv.Atoi(a.Header.Get("Retry-After")); err != nil || n < 1 {
		t.Errorf("Retry-After %q", a.Header.Get("Retry-After"))
	}
	before := e.rowCounts(t)
	valid := request{Method: http.MethodPost, Path: "/empresas", Body: map[string]any{
		"cnpj": newCNPJ(t), "dataAbertura": "15/03/2012", "email": uniqueEmail("limite"), "nome": "Limite",
		"nomeDoPlano": "basic", "password": "senhaForte123", "razaoSocial": "Limite Ltda"}}
	from.do(t, valid).expectError(t, http.StatusTooManyRequests, "limite_excedido")
	if after := e.rowCounts(t); !equalCounts(before, after) {
		t.Errorf("a refused registration wrote: before %v after %v", before, after)
	}
	// The suite's other registrations, from 127.0.0.1, are unaffected.
	e.api.do(t, invalid).expect(t, http.StatusBadRequest)
}

// fromAddress is a client of the gateway whose connections come from the
// loopback address ip.
func fromAddress(t *testing.T, e *env, ip string) *client {
	t.Helper()
	c, err := newClient(t, e.stack.GatewayURL())
	if err != nil {
		t.Fatal(err)
	}
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c.http = &http.Client{Timeout: requestTimeout, Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, addr)
		},
	}}
	return c
}
