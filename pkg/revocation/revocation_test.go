package revocation_test

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"log/slog"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/pkg/revocation"
)

// randomID keeps tests sharing the Redis server (and its one revocation
// set) apart.
func randomID() int64 {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return int64(binary.BigEndian.Uint32(b[:4]))<<8 | int64(b[4]) + 1
}

func claims(empresa, funcionario int64, iat time.Time) *jwtauth.Claims {
	c := &jwtauth.Claims{EmpresaID: empresa, FuncionarioID: funcionario, Role: jwtauth.RoleEmpresa}
	if funcionario > 0 {
		c.Role = jwtauth.RoleFuncionario
	}
	c.IssuedAt = jwt.NewNumericDate(iat)
	return c
}

// eventually polls cond for a second: the copy is updated by a Pub/Sub
// message, asynchronously.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 2s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRevocationReachesEveryWatcher(t *testing.T) {
	rdb := redistest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	log := slog.New(slog.NewJSONHandler(&logtest.Buffer{}, nil))
	// Two services' copies, one with a reload too slow to matter.
	a := revocation.Watch(ctx, rdb, redistest.Prefix(t), log, time.Hour)
	b := revocation.Watch(ctx, rdb, redistest.Prefix(t), log, time.Hour)

	empresa, func1, func2 := randomID(), randomID(), randomID()
	issued := time.Now().Add(-time.Minute)
	tokFunc1, tokFunc2, tokEmpresa := claims(empresa, func1, issued), claims(empresa, func2, issued), claims(empresa, 0, issued)
	for _, w := range []*revocation.Watcher{a, b} {
		if w.Revoked(tokFunc1) || w.Revoked(tokEmpresa) {
			t.Fatal("revoked before any revocation")
		}
	}

	if err := revocation.Revoke(ctx, rdb, redistest.Prefix(t), revocation.Funcionario, func1, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, w := range []*revocation.Watcher{a, b} {
		eventually(t, "the employee's revocation", func() bool { return w.Revoked(tokFunc1) })
		if w.Revoked(tokFunc2) || w.Revoked(tokEmpresa) {
			t.Error("an employee's revocation voided a colleague's or the company's token")
		}
		if w.Guard(nil, tokFunc1) == nil {
			t.Error("the guard let a revoked token through")
		}
	}
	// A token issued after the revocation (a later login) works.
	if a.Revoked(claims(empresa, func1, time.Now().Add(2*time.Second))) {
		t.Error("a token issued after the revocation is void")
	}

	// Blocking the company voids its token and its employees'.
	if err := revocation.Revoke(ctx, rdb, redistest.Prefix(t), revocation.Empresa, empresa, time.Now()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the company's revocation", func() bool { return b.Revoked(tokEmpresa) && b.Revoked(tokFunc2) })

	// A watcher started later loads what was revoked before it.
	c := revocation.Watch(ctx, rdb, redistest.Prefix(t), log, time.Hour)
	if !c.Revoked(tokFunc1) || !c.Revoked(tokEmpresa) {
		t.Error("a new watcher did not load the earlier revocations")
	}
}

func TestRevokeRefusesBadSubjects(t *testing.T) {
	rdb := redistest.New(t)
	for _, kind := range []string{"admin", ""} {
		if revocation.Revoke(context.Background(), rdb, redistest.Prefix(t), kind, 1, time.Now()) == nil {
			t.Errorf("kind %q accepted", kind)
		}
	}
	if revocation.Revoke(context.Background(), rdb, redistest.Prefix(t), revocation.Funcionario, 0, time.Now()) == nil {
		t.Error("id 0 accepted")
	}
}

// BenchmarkGuard is the revocation's cost on every authenticated request
// (docs/performance.md): a read lock and two map lookups.
func BenchmarkGuard(b *testing.B) {
	rdb := redistest.New(b)
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	w := revocation.Watch(ctx, rdb, redistest.Prefix(b), slog.New(slog.NewJSONHandler(&logtest.Buffer{}, nil)), time.Hour)
	for i := range 100 { // a hundred revoked subjects in the copy
		_ = revocation.Revoke(ctx, rdb, redistest.Prefix(b), revocation.Funcionario, randomID()+int64(i), time.Now())
	}
	c := claims(randomID(), randomID(), time.Now())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if w.Guard(nil, c) != nil {
			b.Fatal("revoked")
		}
	}
}

// Two deployments sharing one Redis (each with its own key prefix) never
// see each other's revocations: the same ids name different accounts.
func TestRevocationsStayInTheirDeployment(t *testing.T) {
	rdb := redistest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	log := slog.New(slog.NewJSONHandler(&logtest.Buffer{}, nil))
	mine, theirs := redistest.Prefix(t)+"a:", redistest.Prefix(t)+"b:"
	w := revocation.Watch(ctx, rdb, mine, log, time.Hour)
	other := revocation.Watch(ctx, rdb, theirs, log, time.Hour)

	empresa, funcionario := randomID(), randomID()
	tok := claims(empresa, funcionario, time.Now().Add(-time.Minute))
	if err := revocation.Revoke(ctx, rdb, theirs, revocation.Empresa, empresa, time.Now()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the other deployment's revocation", func() bool { return other.Revoked(tok) })
	// A reload would have brought it by now had it been under this prefix.
	w2 := revocation.Watch(ctx, rdb, mine, log, time.Hour)
	if w.Revoked(tok) || w2.Revoked(tok) {
		t.Fatal("a revocation of another deployment voided this one's token")
	}
}
