package service_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"testing/fstest"

	"github.com/ardanlabs/conf/v3"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/service"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// files is a service's embedded migrations: one table, classified.
var files = fstest.MapFS{"migrations/00001_nota.sql": {Data: []byte(`-- +goose Up
CREATE TABLE notas (id BIGINT PRIMARY KEY);
INSERT INTO table_access (table_name, access) VALUES ('notas', 'read_write');
-- +goose Down
DROP TABLE notas;
`)}}

// The migrate command migrates as the owner, grants the service role and
// tells run to stop; no command lets the service start; any other is an
// error that names the known one.
func TestCommand(t *testing.T) {
	ctx := context.Background()
	owner := dbtest.CreateDatabase(t)
	cfg := database.Config{URL: dbtest.ServiceURL(t, owner), MigrateURL: owner}

	if err := service.Command(ctx, conf.Args{}, cfg, files, quiet); err != nil {
		t.Fatalf("no command: %v, want nil", err)
	}
	if err := service.Command(ctx, conf.Args{"migrar"}, cfg, files, quiet); err == nil || errors.Is(err, service.ErrCommandDone) {
		t.Fatalf("unknown command: %v, want an error", err)
	}
	if err := service.Command(ctx, conf.Args{"migrate"}, cfg, files, quiet); !errors.Is(err, service.ErrCommandDone) {
		t.Fatalf("migrate: %v, want ErrCommandDone", err)
	}
	pool, closeDB, err := service.Open(ctx, "teste", "test", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	if _, err := pool.Exec(ctx, `INSERT INTO notas (id) VALUES (1)`); err != nil {
		t.Fatalf("the service role cannot write the migrated table: %v", err)
	}
}
