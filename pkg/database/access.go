package database

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Table access classes, the values of table_access.access.
const (
	// AppendOnly tables (the REP-P records and their history) are read and
	// inserted by the service role, never updated, deleted or truncated.
	AppendOnly = "append_only"
	// ReadWrite tables are the service's working state.
	ReadWrite = "read_write"
)

// accessTableDDL is the one place every table of a service's database is
// classified. The migration that creates a table adds its row:
//
//	INSERT INTO table_access (table_name, access) VALUES ('abonos', 'append_only');
//
// Migrate refuses a schema with a table missing from it, so a new table
// cannot silently get the wrong rights.
const accessTableDDL = `CREATE TABLE IF NOT EXISTS table_access (
	table_name TEXT PRIMARY KEY,
	access     TEXT NOT NULL CHECK (access IN ('append_only', 'read_write'))
)`

// internalTables are migration bookkeeping: the service role may only read
// them (goose's version table, for its readiness to see the schema version
// it expects: SchemaReady).
var internalTables = []string{"goose_db_version", "table_access"}

// ensureAccessTable creates table_access before the migrations run, so
// that any of them can classify its tables. The transaction lock keeps
// replicas migrating at once from racing on CREATE TABLE.
func ensureAccessTable(ctx context.Context, conn *pgx.Conn) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('ponto table_access'))`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, accessTableDDL)
		return err
	})
}

// tableAccess lists each table of the current schema with its class ("" when
// it is not classified), internal tables aside.
func tableAccess(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}) (map[string]string, error) {
	rows, err := q.Query(ctx, `
		SELECT t.tablename, coalesce(a.access, '')
		FROM pg_tables t LEFT JOIN table_access a ON a.table_name = t.tablename
		WHERE t.schemaname = current_schema() AND t.tablename <> ALL ($1)
		ORDER BY t.tablename`, internalTables)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	var name, access string
	_, err = pgx.ForEachRow(rows, []any{&name, &access}, func() error {
		out[name] = access
		return nil
	})
	return out, err
}

// checkClassified fails, naming them, when tables are missing from
// table_access.
func checkClassified(access map[string]string) error {
	var missing []string
	for name, class := range access {
		if class == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	return fmt.Errorf("tables not classified in table_access: %s (the migration that creates a table "+
		"inserts its row: 'append_only' for records, 'read_write' otherwise)", strings.Join(missing, ", "))
}

// Grant gives role, the service's runtime role, the rights each table's
// class allows, on the database reached through ownerURL (the role the
// migrations ran as, which owns the tables): SELECT and INSERT on
// append-only tables, SELECT, INSERT, UPDATE and DELETE on the others,
// USAGE and SELECT on the sequences. Whatever else role held on a table
// (UPDATE on a record table, TRUNCATE, TRIGGER) is revoked first, so Grant
// is idempotent and also narrows rights given by hand. Not owning the
// tables, role cannot ALTER them or disable their triggers.
func Grant(ctx context.Context, ownerURL, role string) error {
	if role == "" {
		return errors.New("database: grant: empty service role")
	}
	conn, err := pgx.Connect(ctx, ownerURL)
	if err != nil {
		return fmt.Errorf("database: grant: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := checkServiceRole(ctx, conn, role); err != nil {
		return err
	}
	if err := ensureAccessTable(ctx, conn); err != nil {
		return fmt.Errorf("database: grant: table_access: %w", err)
	}
	access, err := tableAccess(ctx, conn)
	if err != nil {
		return fmt.Errorf("database: grant: %w", err)
	}
	if err := checkClassified(access); err != nil {
		return fmt.Errorf("database: grant: %w", err)
	}
	var versioned bool
	if err := conn.QueryRow(ctx, `SELECT to_regclass('goose_db_version') IS NOT NULL`).Scan(&versioned); err != nil {
		return fmt.Errorf("database: grant: %w", err)
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		r := pgx.Identifier{role}.Sanitize()
		for _, stmt := range grantStatements(access, versioned, r) {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("%s: %w", stmt, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("database: grant to %s: %w", role, err)
	}
	return nil
}

// grantStatements are the GRANT/REVOKE statements for access, r being the
// quoted role; versioned tells that goose's version table exists (an FS
// without migrations creates none).
func grantStatements(access map[string]string, versioned bool, r string) []string {
	stmts := []string{
		"REVOKE ALL ON table_access FROM " + r,
		"GRANT SELECT ON table_access TO " + r,
		"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA " + pgx.Identifier{"public"}.Sanitize() + " TO " + r,
	}
	if versioned {
		stmts = append(stmts, "REVOKE ALL ON goose_db_version FROM "+r, "GRANT SELECT ON goose_db_version TO "+r)
	}
	for _, name := range slices.Sorted(maps.Keys(access)) {
		t := pgx.Identifier{name}.Sanitize()
		rights := "SELECT, INSERT, UPDATE, DELETE"
		if access[name] == AppendOnly {
			rights = "SELECT, INSERT"
		}
		stmts = append(stmts, "REVOKE ALL ON "+t+" FROM "+r, "GRANT "+rights+" ON "+t+" TO "+r)
	}
	return stmts
}

// checkServiceRole refuses a role that would defeat the grants: the
// owner itself or a superuser (both bypass every privilege check).
func checkServiceRole(ctx context.Context, conn *pgx.Conn, role string) error {
	var current string
	var exists, super bool
	err := conn.QueryRow(ctx, `SELECT current_user, r.rolname IS NOT NULL, coalesce(r.rolsuper, false)
		FROM (SELECT 1) x LEFT JOIN pg_roles r ON r.rolname = $1`, role).Scan(&current, &exists, &super)
	switch {
	case err != nil:
		return fmt.Errorf("database: grant: look up role %s: %w", role, err)
	case !exists:
		return fmt.Errorf("database: grant: role %s does not exist", role)
	case role == current:
		return fmt.Errorf("database: grant: the service role %s is the role migrations run as: give the service a role of its own", role)
	case super:
		return fmt.Errorf("database: grant: the service role %s is a superuser, which no grant restrains", role)
	}
	return checkOwnsNothing(ctx, conn, role)
}

// checkOwnsNothing refuses a service role that owns, itself or through a
// role it belongs to, what a grant cannot restrain: the migrating role,
// the database or the schema (their owners may drop any table in them),
// or a table or sequence (its owner may alter it and disable its
// triggers). A database migrated before the service had a role of its own
// is owned by the service's role: REASSIGN OWNED fixes it once. It also
// refuses tables the migrating role cannot grant on, which GRANT would
// skip with a mere warning.
func checkOwnsNothing(ctx context.Context, conn *pgx.Conn, role string) error {
	var ownsMigrator, ownsDatabase, ownsSchema bool
	var owned, foreign string
	err := conn.QueryRow(ctx, `
		SELECT pg_has_role(r.oid, me.oid, 'MEMBER'),
			pg_has_role(r.oid, d.datdba, 'MEMBER'),
			pg_has_role(r.oid, n.nspowner, 'MEMBER'),
			coalesce((SELECT string_agg(c.relname, ', ' ORDER BY c.relname) FROM pg_class c
				WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'p', 'S', 'v', 'm')
					AND pg_has_role(r.oid, c.relowner, 'MEMBER')), ''),
			coalesce((SELECT string_agg(c.relname, ', ' ORDER BY c.relname) FROM pg_class c
				WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'p', 'S')
					AND NOT pg_has_role(me.oid, c.relowner, 'MEMBER')), '')
		FROM pg_roles r, pg_roles me, pg_database d, pg_namespace n
		WHERE r.rolname = $1 AND me.rolname = current_user AND d.datname = current_database()
			AND n.oid = current_schema()::regnamespace`, role).
		Scan(&ownsMigrator, &ownsDatabase, &ownsSchema, &owned, &foreign)
	switch {
	case err != nil:
		return fmt.Errorf("database: grant: ownership of %s: %w", role, err)
	case ownsMigrator:
		return fmt.Errorf("database: grant: the service role %s is a member of the role migrations run as", role)
	case ownsDatabase || ownsSchema:
		return fmt.Errorf("database: grant: the service role %s owns the database or its schema, "+
			"and could drop any table in it: give them to the role migrations run as", role)
	case owned != "":
		return fmt.Errorf("database: grant: the service role %s owns %s: as an administrator, "+
			"REASSIGN OWNED BY %s TO <the role migrations run as>, once", role, owned, pgx.Identifier{role}.Sanitize())
	case foreign != "":
		return fmt.Errorf("database: grant: %s belong to another role than the one migrations run as, "+
			"which cannot grant on them", foreign)
	}
	return nil
}
