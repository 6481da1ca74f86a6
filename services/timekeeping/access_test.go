package main

import (
	"io/fs"
	"testing"

	"github.com/ponto/ponto/pkg/database/dbtest"
)

// Every table guarded by the append-only triggers is classified
// append_only in table_access, and the service role holds exactly SELECT
// and INSERT on each append-only table and owns none: a record table added
// with its triggers but classified read_write fails here.
func TestServiceRoleRightsFollowTheRecordTables(t *testing.T) {
	t.Parallel()
	migrations, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	db := dbtest.New(t, migrations)
	rows, err := db.Query(t.Context(), `
		SELECT c.relname, coalesce(a.access, ''),
			EXISTS (SELECT 1 FROM pg_trigger g JOIN pg_proc p ON p.oid = g.tgfoid
				WHERE g.tgrelid = c.oid AND p.proname = 'somente_inclusao'),
			pg_get_userbyid(c.relowner) = current_user,
			has_table_privilege(c.oid, 'SELECT'), has_table_privilege(c.oid, 'INSERT'),
			has_table_privilege(c.oid, 'UPDATE'), has_table_privilege(c.oid, 'DELETE'),
			has_table_privilege(c.oid, 'TRUNCATE'), has_table_privilege(c.oid, 'TRIGGER')
		FROM pg_class c LEFT JOIN table_access a ON a.table_name = c.relname
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
			AND c.relname NOT IN ('goose_db_version', 'table_access')
		ORDER BY c.relname`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	appendOnly := 0
	for rows.Next() {
		var table, access string
		var guarded, owns, sel, ins, upd, del, trunc, trig bool
		if err := rows.Scan(&table, &access, &guarded, &owns, &sel, &ins, &upd, &del, &trunc, &trig); err != nil {
			t.Fatal(err)
		}
		switch {
		case guarded && access != "append_only":
			t.Errorf("%s has the append-only triggers but is classified %q", table, access)
		case owns || trunc || trig || !sel || !ins:
			t.Errorf("%s: the service role owns it (%v) or has TRUNCATE (%v), TRIGGER (%v), lacks SELECT/INSERT (%v/%v)",
				table, owns, trunc, trig, sel, ins)
		case access == "append_only" && (upd || del):
			t.Errorf("%s is append-only but the service role may UPDATE (%v) or DELETE (%v)", table, upd, del)
		case access == "read_write" && (!upd || !del):
			t.Errorf("%s is read_write but the service role may not UPDATE (%v) or DELETE (%v)", table, upd, del)
		}
		if access == "append_only" {
			appendOnly++
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if appendOnly < 4 {
		t.Fatalf("%d append-only tables, want at least the punches, types 5, absences and history", appendOnly)
	}
}
