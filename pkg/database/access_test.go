package database_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
)

// accessMigrations: an append-only record table with an identity column
// and a trigger, and a working table, each classified.
var accessMigrations = fstest.MapFS{"00001_tables.sql": {Data: []byte(`-- +goose Up
CREATE TABLE records (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text NOT NULL);
CREATE TABLE state (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text NOT NULL);
-- +goose StatementBegin
CREATE FUNCTION records_noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END; $$;
-- +goose StatementEnd
CREATE TRIGGER records_noop BEFORE INSERT ON records FOR EACH ROW EXECUTE FUNCTION records_noop();
INSERT INTO table_access (table_name, access) VALUES ('records', 'append_only'), ('state', 'read_write');
-- +goose Down
DROP TABLE records, state;
`)}}

func TestServiceRoleOnlyAppendsToRecordTables(t *testing.T) {
	t.Parallel()
	pool, url := dbtest.NewWithURL(t, accessMigrations)
	ctx := context.Background()

	// What the service needs works, sequences included.
	for _, sql := range []string{
		`INSERT INTO records (v) VALUES ('a')`, `SELECT count(*) FROM records`,
		`INSERT INTO state (v) VALUES ('a')`, `UPDATE state SET v = 'b'`, `DELETE FROM state`,
		`SELECT count(*) FROM table_access`,
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Errorf("%s as the service role: %v", sql, err)
		}
	}
	// What would alter a record does not, nor anything on the bookkeeping.
	for _, sql := range []string{
		`UPDATE records SET v = 'x'`, `DELETE FROM records`, `TRUNCATE records`,
		`ALTER TABLE records DISABLE TRIGGER ALL`, `ALTER TABLE records DISABLE TRIGGER USER`,
		`DROP TRIGGER records_noop ON records`, `ALTER TABLE records ADD COLUMN w int`,
		`DROP TABLE records`, `ALTER TABLE records OWNER TO ` + dbtest.ServiceRole,
		`INSERT INTO table_access VALUES ('x', 'read_write')`, `UPDATE table_access SET access = 'read_write'`,
		`DELETE FROM goose_db_version`,
	} {
		if _, err := pool.Exec(ctx, sql); !isPermissionDenied(err) {
			t.Errorf("%s as the service role: err = %v, want permission denied", sql, err)
		}
	}
	var n int
	if err := dbtest.AsOwner(t, url).QueryRow(ctx, `SELECT count(*) FROM records WHERE v = 'a'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("records = %d (%v), want the one inserted, unchanged", n, err)
	}
}

func TestGrantIsIdempotentAndNarrowsHandGivenRights(t *testing.T) {
	t.Parallel()
	pool, url := dbtest.NewWithURL(t, accessMigrations)
	ctx := context.Background()
	owner := dbtest.AsOwner(t, url)
	if _, err := owner.Exec(ctx, `GRANT ALL ON records TO `+dbtest.ServiceRole); err != nil {
		t.Fatal(err)
	}
	ownerURL := owner.Config().ConnString()
	for range 2 {
		if err := database.Grant(ctx, ownerURL, dbtest.ServiceRole); err != nil {
			t.Fatalf("Grant: %v", err)
		}
	}
	if _, err := pool.Exec(ctx, `DELETE FROM records`); !isPermissionDenied(err) {
		t.Fatalf("DELETE after Grant: err = %v, want permission denied", err)
	}
}

func TestGrantRefusesTheOwnerAndUnknownRoles(t *testing.T) {
	t.Parallel()
	_, url := dbtest.NewWithURL(t, accessMigrations)
	ctx := context.Background()
	owner := dbtest.AsOwner(t, url)
	var me string
	if err := owner.QueryRow(ctx, `SELECT current_user`).Scan(&me); err != nil {
		t.Fatal(err)
	}
	ownerURL := owner.Config().ConnString()
	for role, want := range map[string]string{me: "is the role migrations run as", "ponto_no_such_role": "does not exist", "": "empty"} {
		if err := database.Grant(ctx, ownerURL, role); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Grant(%q) = %v, want %q", role, err, want)
		}
	}
}

// A service role that owns what a grant cannot restrain is refused: a
// record table (as when it ran the migrations before it had an owner
// beside it), the database or its schema (whose owners may drop tables).
func TestGrantRefusesAServiceRoleThatOwnsSomething(t *testing.T) {
	t.Parallel()
	_, url := dbtest.NewWithURL(t, accessMigrations)
	ctx := context.Background()
	owner := dbtest.AsOwner(t, url)
	ownerURL := owner.Config().ConnString()
	var db string
	if err := owner.QueryRow(ctx, `SELECT current_database()`).Scan(&db); err != nil {
		t.Fatal(err)
	}
	role := pgx.Identifier{dbtest.ServiceRole}.Sanitize()
	for _, c := range []struct{ give, takeBack, want string }{
		{`ALTER TABLE records OWNER TO ` + role, `ALTER TABLE records OWNER TO CURRENT_USER`, "owns records, records_id_seq: as an administrator, REASSIGN OWNED"},
		{`ALTER DATABASE ` + pgx.Identifier{db}.Sanitize() + ` OWNER TO ` + role,
			`ALTER DATABASE ` + pgx.Identifier{db}.Sanitize() + ` OWNER TO CURRENT_USER`, "owns the database or its schema"},
	} {
		if _, err := owner.Exec(ctx, c.give); err != nil {
			t.Fatal(err)
		}
		if err := database.Grant(ctx, ownerURL, dbtest.ServiceRole); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Grant after %s = %v, want %q", c.give, err, c.want)
		}
		if _, err := owner.Exec(ctx, c.takeBack); err != nil {
			t.Fatal(err)
		}
		if err := database.Grant(ctx, ownerURL, dbtest.ServiceRole); err != nil {
			t.Errorf("Grant after %s: %v", c.takeBack, err)
		}
	}
}

func TestMigrateRefusesAnUnclassifiedTable(t *testing.T) {
	t.Parallel()
	url := dbtest.CreateDatabase(t)
	dbtest.ServiceURL(t, url) // the role exists: Grant fails on the table alone
	fsys := fstest.MapFS{"00001_t.sql": {Data: []byte("-- +goose Up\nCREATE TABLE forgotten (id int);\n" + classify("kept") +
		"\nCREATE TABLE kept (id int);\n-- +goose Down\nDROP TABLE forgotten, kept;\n")}}
	err := database.Migrate(context.Background(), url, fsys)
	if err == nil || !strings.Contains(err.Error(), "forgotten") || strings.Contains(err.Error(), "kept") {
		t.Fatalf("Migrate with an unclassified table = %v, want an error naming it alone", err)
	}
	if err := database.Grant(context.Background(), url, dbtest.ServiceRole); err == nil || !strings.Contains(err.Error(), "forgotten") {
		t.Fatalf("Grant with an unclassified table = %v, want an error naming it", err)
	}
}

func isPermissionDenied(err error) bool {
	var pgErr *pgconn.PgError
	// 42501 insufficient_privilege: also "must be owner of table".
	return errors.As(err, &pgErr) && pgErr.Code == "42501"
}

func TestConfigMigrateGrantsTheServiceRole(t *testing.T) {
	t.Parallel()
	ownerURL := dbtest.CreateDatabase(t)
	cfg := database.Config{URL: dbtest.ServiceURL(t, ownerURL), MigrateURL: ownerURL}
	ctx := context.Background()
	if err := cfg.Migrate(ctx, accessMigrations, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	pool, err := database.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `INSERT INTO records (v) VALUES ('a')`); err != nil {
		t.Fatalf("INSERT as the service role: %v", err)
	}
	if _, err := pool.Exec(ctx, `UPDATE records SET v = 'b'`); !isPermissionDenied(err) {
		t.Fatalf("UPDATE as the service role: err = %v, want permission denied", err)
	}
}
