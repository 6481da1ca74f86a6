package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ardanlabs/conf/v3"
	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/pkg/service"
)

// A replica started before its migrate Job finished answers /readyz 503,
// naming the schema, and starts no background work; once the migrations
// ran it is ready and the work starts.
func TestReadyzWaitsForTheSchema(t *testing.T) {
	ctx := context.Background()
	owner := dbtest.CreateDatabase(t)
	cfg := database.Config{URL: dbtest.ServiceURL(t, owner), MigrateURL: owner}
	pool, closeDB, err := service.Open(ctx, "teste", "test", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	schema, err := service.ExpectSchema(files)
	if err != nil {
		t.Fatal(err)
	}
	if schema.Version() != 1 {
		t.Fatalf("expected schema version %d, want 1 (00001_nota.sql)", schema.Version())
	}
	deps := service.Deps{DB: pool, Guards: service.Guards{Redis: redistest.New(t), Verifier: jwttest.NewIssuer(t).NewVerifier(t)}, Schema: schema}
	run := servertest.Start(t, deps.Server("teste", httpConfig(), quiet))
	var started atomic.Bool
	workCtx, stopWork := context.WithCancel(ctx)
	defer stopWork()
	schema.Go(workCtx, pool, func() { started.Store(true) })

	status, checks := readyz(t, run.Internal)
	if status != http.StatusServiceUnavailable || checks["postgres"] != "ok" || checks["schema"] == "ok" {
		t.Fatalf("readyz before the migrations = %d %v, want 503 with postgres ok and schema failing", status, checks)
	}
	time.Sleep(1500 * time.Millisecond) // more than one of Go's pauses
	if started.Load() {
		t.Fatal("background work started before the migrations ran")
	}

	if err := service.Command(ctx, conf.Args{"migrate"}, cfg, files, quiet); !errors.Is(err, service.ErrCommandDone) {
		t.Fatalf("migrate: %v", err)
	}
	status, checks = readyz(t, run.Internal)
	if diff := cmp.Diff(map[string]string{"postgres": "ok", "schema": "ok", "jwks": "ok"}, checks); status != http.StatusOK || diff != "" {
		t.Fatalf("readyz after the migrations = %d, checks (-want +got):\n%s", status, diff)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !started.Load() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !started.Load() {
		t.Fatal("background work did not start after the migrations ran")
	}
}

func httpConfig() httpserver.Config {
	return httpserver.Config{
		ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 2 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: 2 * time.Second,
		BodyLimit: 1024,
	}
}

// readyz is /readyz's status and checks.
func readyz(t *testing.T, internal string) (int, map[string]string) {
	t.Helper()
	a := servertest.Call(t, http.MethodGet, internal+"/readyz", nil, nil)
	var body struct {
		Checks map[string]string `json:"checks"`
	}
	if err := json.Unmarshal(a.Body, &body); err != nil {
		t.Fatalf("readyz body %q: %v", a.Body, err)
	}
	return a.Status, body.Checks
}
