package ledger

import (
	"context"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// A company's responsible persons are kept by the instant each came in
// force: naming the one already in force then adds nothing, and the one
// in force at an instant is read back whatever order they were named in.
func TestResponsibleInForceFromHistory(t *testing.T) {
	l := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	ctx := t.Context()
	at := func(h int) time.Time { return time.Date(2024, 3, 4, h, 0, 0, 0, time.UTC) }
	const z, a = "11111111111", "22222222222"
	err := pgx.BeginFunc(ctx, l.db, func(tx pgx.Tx) error {
		for _, n := range []struct {
			cpf   string
			desde time.Time
		}{{z, at(10)}, {z, at(11)}, {a, at(12)}, {z, at(9)}} { // 11:00 repeats Z; 09:00 arrives last
			if err := NomearResponsavel(ctx, tx, 1, n.cpf, n.desde); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = pgx.BeginFunc(ctx, l.db, func(tx pgx.Tx) error {
		for _, h := range []int{8, 9, 10, 11, 12, 13} {
			r, err := ResponsavelEm(ctx, tx, 1, at(h))
			if err != nil {
				return err
			}
			got = append(got, r)
		}
		other, err := ResponsavelEm(ctx, tx, 2, at(13)) // another company named nobody
		got = append(got, other)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{core.ResponsavelNaoIdentificado, z, z, z, a, a, core.ResponsavelNaoIdentificado}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("in force at 08..13h, then another company (-want +got):\n%s", d)
	}
	var rows int
	if err := l.db.QueryRow(ctx, `SELECT count(*) FROM responsaveis_empresa`).Scan(&rows); err != nil || rows != 3 {
		t.Errorf("history rows = %d, %v; want 3 (Z at 10h repeated at 11h adds none)", rows, err)
	}
}

// Migration 00015 starts the history from the type-2 records written
// before it, each in force from its recording time.
func TestMigrationStartsTheHistoryFromTheType2Records(t *testing.T) {
	ctx := context.Background()
	ownerURL := dbtest.CreateDatabase(t)
	if err := database.Migrate(ctx, ownerURL, migrationsBefore(t, "00015")); err != nil {
		t.Fatal(err)
	}
	owner, err := pgxpool.New(ctx, ownerURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	t1, t2 := time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC), time.Date(2024, 3, 5, 11, 0, 0, 0, time.UTC)
	if _, err := owner.Exec(ctx, `INSERT INTO empresas_rep (empresa_id, estabelecimento_id, nsr, responsavel, empregador,
			razao_social, local, gravado_em, fuso_minutos)
		VALUES (1, 0, 1, '00000000000', '11222333000181', 'A', 'L', $1, -180),
			(1, 0, 2, '12345678909', '11222333000181', 'A', 'L', $2, -180)`, t1, t2); err != nil {
		t.Fatal(err)
	}
	if err := database.Migrate(ctx, ownerURL, os.DirFS("../../migrations")); err != nil {
		t.Fatal(err)
	}
	rows, _ := owner.Query(ctx, `SELECT responsavel, vigente_desde FROM responsaveis_empresa WHERE empresa_id = 1 ORDER BY id`)
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[core.Vigencia])
	if err != nil {
		t.Fatal(err)
	}
	want := []core.Vigencia{{Responsavel: "00000000000", Desde: t1}, {Responsavel: "12345678909", Desde: t2}}
	if d := cmp.Diff(want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); d != "" {
		t.Errorf("history (-want +got):\n%s", d)
	}
}

// migrationsBefore is timekeeping's migrations whose names sort before last's.
func migrationsBefore(t *testing.T, last string) fs.FS {
	t.Helper()
	all := os.DirFS("../../migrations")
	entries, err := fs.ReadDir(all, ".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") && e.Name() < last {
			b, err := fs.ReadFile(all, e.Name())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dir+"/"+e.Name(), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	return os.DirFS(dir)
}
