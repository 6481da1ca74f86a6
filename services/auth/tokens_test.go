package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/revocation"
)

func TestRefresh(t *testing.T) {
	t.Parallel()
	h := start(t)
	login := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK)
	rt := login.str("refreshToken")

	a := h.refresh(rt).expect(t, http.StatusOK)
	next := a.str("refreshToken")
	if len(a.body) != 2 || a.str("accessToken") == "" || next == "" || next == rt {
		t.Fatalf("refresh answer %s, want accessToken and a new refreshToken", a.raw)
	}
	c := h.verify(h.verifier(), a.str("accessToken"))
	if c.Role != jwtauth.RoleEmpresa || c.EmpresaID != empresaID || c.Subject != "empresa:10" {
		t.Errorf("claims %+v", c)
	}
	// Rotation: the successor works and hands out its own successor.
	h.refresh(next).expect(t, http.StatusOK)
	// The account was re-checked with company-billing each time.
	if n := len(h.billing.callsTo("GET /internal/empresas/10")); n != 2 {
		t.Errorf("%d company look-ups, want 2", n)
	}
}

// Reusing a rotated refresh token revokes its whole session (RFC 9700):
// the thief and the victim both lose it, the account's other sessions
// do not.
func TestRefreshReuseRevokesFamily(t *testing.T) {
	t.Parallel()
	h := start(t)
	other := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	rt0 := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	rt1 := h.refresh(rt0).expect(t, http.StatusOK).str("refreshToken")
	rt2 := h.refresh(rt1).expect(t, http.StatusOK).str("refreshToken")

	h.refresh(rt0).expectError(t, http.StatusUnauthorized, "refresh_token_invalido") // the replay
	h.refresh(rt2).expectError(t, http.StatusUnauthorized, "refresh_token_invalido") // the family's live token
	h.refresh(rt1).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.refresh(other).expect(t, http.StatusOK)
	members := h.rdb.ZCard(context.Background(), h.cfg.Auth.RedisPrefix+"rt:sub:empresa:10").Val()
	if members != 1 {
		t.Errorf("subject index has %d members, want 1 (the other session)", members)
	}

	// Logging out with a rotated token also ends its session.
	s0 := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	s1 := h.refresh(s0).expect(t, http.StatusOK).str("refreshToken")
	h.post("/auth/logout", map[string]string{"refreshToken": s0}).expect(t, http.StatusNoContent)
	h.refresh(s1).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")

	// A forged secret in a live family is a replay as well.
	f0 := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	family, _, _ := strings.Cut(f0, ".")
	h.refresh(family+".forged").expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.refresh(f0).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
}

// Of simultaneous refreshes with one token at most one succeeds: the
// check and the rotation are one Redis script.
func TestRefreshConcurrentRotation(t *testing.T) {
	t.Parallel()
	h := start(t)
	for round := range 5 {
		rt := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
		const n = 8
		statuses := make(chan int, n)
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() { statuses <- h.refresh(rt).status })
		}
		wg.Wait()
		close(statuses)
		ok := 0
		for st := range statuses {
			switch st {
			case http.StatusOK:
				ok++
			case http.StatusUnauthorized:
			default:
				t.Errorf("round %d: status %d", round, st)
			}
		}
		if ok > 1 {
			t.Errorf("round %d: %d of %d concurrent refreshes succeeded, want at most 1", round, ok, n)
		}
	}
}

// Rotation stores nothing per refresh: a session is one record however
// often it rotates, and it keeps its login's expiry.
func TestRefreshRotationKeepsOneRecord(t *testing.T) {
	t.Parallel()
	h := start(t)
	rt := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	// The rate limiter's budgets (prefix + "rate:") are not the session's.
	records := func() map[string][]string {
		d := h.dump()
		maps.DeleteFunc(d, func(k string, _ []string) bool { return strings.HasPrefix(k, h.cfg.Auth.RedisPrefix+"rate:") })
		return d
	}
	before := records()
	key, exp := h.session(t)
	for range 10 {
		rt = h.refresh(rt).expect(t, http.StatusOK).str("refreshToken")
	}
	if after := records(); len(after) != len(before) {
		t.Errorf("%d keys after 10 rotations, %d before", len(after), len(before))
	}
	if k, e := h.session(t); k != key || e != exp {
		t.Errorf("after 10 rotations the session is %s expiring at %d; want %s at %d", k, e, key, exp)
	}
	// The session ends at its login's expiry, however often it rotated:
	// move that expiry to the past, as the clock would.
	if err := h.rdb.HSet(context.Background(), key, "exp", time.Now().UnixMilli()-1).Err(); err != nil {
		t.Fatal(err)
	}
	h.refresh(rt).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
}

// session is the one refresh-token record (rt:<family>) and its expiry
// (ms since the epoch).
func (h *harness) session(t *testing.T) (key string, exp int64) {
	t.Helper()
	for k, vals := range h.dump() {
		// rt:<sha256 of the family>, not the subject's index rt:sub:...
		if family, ok := strings.CutPrefix(k, h.cfg.Auth.RedisPrefix+"rt:"); !ok || len(family) != sha256.Size*2 {
			continue
		}
		if key != "" {
			t.Fatalf("two session records: %s and %s", key, k)
		}
		key = k
		for i := 0; i+1 < len(vals); i += 2 {
			if vals[i] == "exp" {
				exp, _ = strconv.ParseInt(vals[i+1], 10, 64)
			}
		}
	}
	if key == "" || exp == 0 {
		t.Fatalf("no session record with an expiry: %q %d", key, exp)
	}
	return key, exp
}

// A refresh token issued before rotation existed (no family part, a
// record without cur) still works once and then rotates like any other.
func TestRefreshPreRotationToken(t *testing.T) {
	t.Parallel()
	h := start(t)
	legacy := "bGVnYWN5LXRva2VuLWZyb20tYmVmb3JlLXJvdGF0aW9uMQ"
	sum := sha256.Sum256([]byte(legacy))
	hash := hex.EncodeToString(sum[:])
	ctx := context.Background()
	exp := time.Now().Add(time.Hour).UnixMilli()
	p := h.cfg.Auth.RedisPrefix
	h.rdb.HSet(ctx, p+"rt:"+hash, "role", "empresa", "sub", "empresa:10", "empresaId", empresaID, "funcionarioId", 0, "exp", exp)
	h.rdb.ZAdd(ctx, p+"rt:sub:empresa:10", redis.Z{Score: float64(exp), Member: hash})

	next := h.refresh(legacy).expect(t, http.StatusOK).str("refreshToken")
	if !strings.HasPrefix(next, legacy+".") {
		t.Errorf("successor %q is not in the legacy token's family", next)
	}
	after := h.refresh(next).expect(t, http.StatusOK).str("refreshToken")
	h.refresh(legacy).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.refresh(after).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
}

// The two documented error answers: 400 (missing or not a string) and 401
// (unknown, expired, revoked), each with a message.
func TestRefreshErrors(t *testing.T) {
	t.Parallel()
	h := start(t)
	for _, body := range []string{`{}`, `{"refreshToken":""}`, `{"refreshToken":null}`, `{"refreshToken":42}`, `{"refreshToken":["a"]}`} {
		a := h.post("/auth/refresh-token", body).expectError(t, http.StatusBadRequest, "validacao")
		if f, _ := a.body["fields"].(map[string]any); f["refreshToken"] == nil {
			t.Errorf("%s: %s does not name refreshToken", body, a.raw)
		}
	}
	unknown := h.refresh("bm90LWEtdG9rZW4tYXQtYWxsLWJ1dC13ZWxsLWZvcm1lZA").expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.refresh(strings.Repeat("x", 5000)).expect(t, http.StatusRequestEntityTooLarge)
	if a := h.refresh(strings.Repeat("x", 500)); string(a.raw) != string(unknown.raw) {
		t.Errorf("over-long token: %s", a.raw)
	}
	// An access token is not a refresh token.
	access := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("token")
	h.refresh(access).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
}

func TestRefreshExpires(t *testing.T) {
	t.Parallel()
	// Long enough for the login and one refresh on a busy machine; the
	// wait is read from Redis, not assumed.
	h := start(t, func(c *Config) { c.Auth.RefreshTokenTTL = 5 * time.Second })
	rt := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	rt = h.refresh(rt).expect(t, http.StatusOK).str("refreshToken")
	key, _ := h.session(t)
	time.Sleep(h.rdb.PTTL(context.Background(), key).Val() + 100*time.Millisecond)
	h.refresh(rt).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	if n := h.keysMatching("rt:"); n != 0 {
		t.Errorf("%d refresh keys outlived the token: %v", n, h.dump())
	}
}

// A company blocked (or an employee deactivated) after login loses its
// refresh token even if the revocation call never came.
func TestRefreshRechecksAccount(t *testing.T) {
	t.Parallel()
	h := start(t)
	rt := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	code, _ := h.codeByMail(funcEmail)
	frt := h.loginCode(funcEmail, code).expect(t, http.StatusOK).str("refreshToken")

	// A peer outage is a 503 and keeps the token.
	h.billing.setDown(true)
	h.refresh(rt).expectError(t, http.StatusServiceUnavailable, "dependencia_indisponivel")
	h.billing.setDown(false)
	rt = h.refresh(rt).expect(t, http.StatusOK).str("refreshToken")

	h.employees.set(funcID, "ativo", false)
	h.refresh(frt).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.employees.set(funcID, "ativo", true)
	h.refresh(frt).expectError(t, http.StatusUnauthorized, "refresh_token_invalido") // revoked for good

	h.billing.block(empresaEmail, true)
	h.refresh(rt).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.billing.block(empresaEmail, false)
	h.refresh(rt).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
}

func TestLogout(t *testing.T) {
	t.Parallel()
	h := start(t)
	a := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK)
	other := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	rt := a.str("refreshToken")

	if l := h.post("/auth/logout", map[string]string{"refreshToken": rt}); l.status != http.StatusNoContent || len(l.raw) != 0 {
		t.Fatalf("logout: %d %s", l.status, l.raw)
	}
	h.refresh(rt).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	// Logging out twice, or with an unknown token, is fine.
	h.post("/auth/logout", map[string]string{"refreshToken": rt}).expect(t, http.StatusNoContent)
	h.post("/auth/logout", `{}`).expectError(t, http.StatusBadRequest, "validacao")
	// The other session of the same company is untouched.
	h.refresh(other).expect(t, http.StatusOK)
	// The revoked token left no trace in the indexes.
	members := h.rdb.ZCard(context.Background(), h.cfg.Auth.RedisPrefix+"rt:sub:empresa:10").Val()
	if members != 1 {
		t.Errorf("subject index has %d members, want 1", members)
	}
}

func TestRevokeEmpresa(t *testing.T) {
	t.Parallel()
	h := start(t)
	c1 := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	c2 := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")
	code, _ := h.codeByMail(funcEmail)
	f1 := h.loginCode(funcEmail, code).expect(t, http.StatusOK).str("refreshToken")
	outra := h.loginEmpresa(outraEmpresaEmail, "outra-senha-123").expect(t, http.StatusOK).str("refreshToken")
	code, _ = h.codeByMail(outraFunc)
	outraF := h.loginCode(outraFunc, code).expect(t, http.StatusOK).str("refreshToken")
	admin := h.loginEmpresa(adminEmail, adminPassword).expect(t, http.StatusOK).str("refreshToken")

	// Internal only: the public listener does not have the route.
	h.post("/internal/tokens/revogar", map[string]int{"empresaId": empresaID}).expect(t, http.StatusNotFound)

	a := h.postInternal("/internal/tokens/revogar", map[string]int{"empresaId": empresaID})
	if a.status != http.StatusNoContent {
		t.Fatalf("revogar: %d %s", a.status, a.raw)
	}
	for name, rt := range map[string]string{"company session 1": c1, "company session 2": c2, "employee": f1} {
		if a := h.refresh(rt); a.status != http.StatusUnauthorized {
			t.Errorf("%s survived the revocation: %d", name, a.status)
		}
	}
	for name, rt := range map[string]string{"other company": outra, "other company's employee": outraF, "admin": admin} {
		h.refresh(rt).expect(t, http.StatusOK)
		_ = name
	}
	if n := h.keysMatching("rt:empresa:10"); n != 0 {
		t.Error("the company index is still there")
	}
	// Revoking a company without tokens is fine.
	h.postInternal("/internal/tokens/revogar", map[string]int{"empresaId": 999}).expect(t, http.StatusNoContent)
}

func TestRevokeFuncionario(t *testing.T) {
	t.Parallel()
	h := start(t)
	code, _ := h.codeByMail(funcEmail)
	a1 := h.loginCode(funcEmail, code).expect(t, http.StatusOK).str("refreshToken")
	code, _ = h.codeByMail(funcEmail)
	a2 := h.loginCode(funcEmail, code).expect(t, http.StatusOK).str("refreshToken")
	code, _ = h.codeByMail(func2)
	b := h.loginCode(func2, code).expect(t, http.StatusOK).str("refreshToken")
	company := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken")

	h.postInternal("/internal/tokens/revogar", map[string]int{"funcionarioId": funcID}).expect(t, http.StatusNoContent)
	h.refresh(a1).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.refresh(a2).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.refresh(b).expect(t, http.StatusOK)
	h.refresh(company).expect(t, http.StatusOK)
}

func TestRevokeValidation(t *testing.T) {
	t.Parallel()
	h := start(t)
	for _, body := range []string{`{}`, `{"empresaId":1,"funcionarioId":2}`, `{"empresaId":0}`, `{"funcionarioId":-3}`, `{"empresaId":"1"}`, `{"usuario":1}`} {
		h.postInternal("/internal/tokens/revogar", body).expectError(t, http.StatusBadRequest, "validacao")
	}
}

// Past MaxSessions live refresh tokens, the oldest is revoked.
func TestSessionCap(t *testing.T) {
	t.Parallel()
	h := start(t, func(c *Config) { c.Auth.MaxSessions = 2 })
	var rts []string
	for range 3 {
		rts = append(rts, h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken"))
	}
	h.refresh(rts[0]).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	h.refresh(rts[1]).expect(t, http.StatusOK)
	h.refresh(rts[2]).expect(t, http.StatusOK)
}

// Redis holds neither refresh tokens, nor codes, nor e-mails in clear text.
func TestRedisHoldsNoSecretsInClear(t *testing.T) {
	t.Parallel()
	h := start(t)
	var secrets []string
	for range 2 {
		secrets = append(secrets, h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("refreshToken"))
	}
	secrets = append(secrets, h.loginEmpresa(adminEmail, adminPassword).expect(t, http.StatusOK).str("refreshToken"))
	used, _ := h.codeByMail(funcEmail)
	secrets = append(secrets, h.loginCode(funcEmail, used).expect(t, http.StatusOK).str("refreshToken"))
	live, _ := h.codeByMail(func2) // stays in Redis, unused
	h.requestCode(funcEmail)       // and one more code e-mail in flight
	h.smtp.Next(t)

	dump := h.dump()
	if len(dump) < 8 {
		t.Fatalf("only %d keys under the test prefix: %v", len(dump), dump)
	}
	if h.rdb.Exists(context.Background(), h.codeKey(func2)).Val() != 1 {
		t.Fatal("the live code is not in Redis")
	}
	for k, vals := range dump {
		for _, s := range secrets {
			if strings.Contains(k, s) {
				t.Errorf("refresh token in clear in key %s", k)
			}
		}
		for _, code := range []string{used, live} {
			if strings.Contains(k, code) {
				t.Errorf("code in clear in key %s", k)
			}
		}
		for _, email := range []string{empresaEmail, funcEmail, func2} {
			if strings.Contains(k, email) {
				t.Errorf("e-mail in clear in key %s", k)
			}
		}
		for _, v := range vals {
			for _, s := range secrets {
				if strings.Contains(v, s) {
					t.Errorf("refresh token in clear in %s", k)
				}
			}
			for _, code := range []string{used, live} {
				// Timestamps are long runs of digits that may hold any
				// 6 digits by chance; a code stored as such is the value.
				if v == code || (!isDigits(v) && strings.Contains(v, code)) {
					t.Errorf("code in clear in %s: %q", k, v)
				}
			}
			for _, email := range []string{empresaEmail, funcEmail, func2} {
				if strings.Contains(v, email) {
					t.Errorf("e-mail in clear in %s", k)
				}
			}
		}
	}
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// A logout voids the session's access tokens at once (their sid), in
// every service that watches the revocations: the one of the login and
// those of its refreshes; another session of the account keeps working.
func TestLogoutEndsTheSessionsAccessTokens(t *testing.T) {
	t.Parallel()
	h := start(t)
	a := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK)
	other := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK)
	refreshed := h.refresh(a.str("refreshToken")).expect(t, http.StatusOK)
	v := h.verifier()
	first, renewed, kept := h.verify(v, a.str("token")), h.verify(v, refreshed.str("accessToken")), h.verify(v, other.str("token"))
	if first.SessionID == "" || first.SessionID != renewed.SessionID || first.SessionID == kept.SessionID {
		t.Fatalf("sids: login %q, refresh %q, other session %q", first.SessionID, renewed.SessionID, kept.SessionID)
	}
	w := revocation.Watch(t.Context(), h.rdb, h.cfg.Redis.KeyPrefix, slog.New(slog.DiscardHandler), 50*time.Millisecond)
	h.post("/auth/logout", map[string]string{"refreshToken": refreshed.str("refreshToken")}).expect(t, http.StatusNoContent)
	deadline := time.Now().Add(3 * time.Second)
	for w.Guard(nil, first) == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	for name, c := range map[string]*jwtauth.Claims{"login's": first, "refresh's": renewed} {
		var de *domainerr.Error
		if err := w.Guard(nil, c); !errors.As(err, &de) || de.Code != "sessao_encerrada" || de.Kind != domainerr.KindUnauthenticated {
			t.Errorf("%s access token after logout: %v, want 401 sessao_encerrada", name, err)
		}
	}
	if err := w.Guard(nil, kept); err != nil {
		t.Errorf("the other session's token: %v", err)
	}
}
