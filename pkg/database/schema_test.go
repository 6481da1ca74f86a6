package database_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
)

func TestExpectSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fsys    fstest.MapFS
		want    int64
		wantErr bool
	}{
		{name: "highest version", fsys: migrationsUpTo(1, 7, 3), want: 7},
		{name: "no migrations", fsys: fstest.MapFS{"README.md": {Data: []byte("x")}}, want: 0},
		{name: "unnumbered file", fsys: fstest.MapFS{"create.sql": {Data: []byte("x")}}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := database.ExpectSchema(tt.fsys)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ExpectSchema error = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && s.Version() != tt.want {
				t.Errorf("Version() = %d, want %d", s.Version(), tt.want)
			}
		})
	}
}

// Ready compares the database's version, read as the service role, with
// the binary's.
func TestSchemaReady(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		migrated fstest.MapFS // nil: nothing migrated
		expected fstest.MapFS
		wantErr  string
	}{
		{name: "nothing migrated", expected: migrationsUpTo(1, 2), wantErr: "goose_db_version"},
		{name: "behind", migrated: migrationsUpTo(1), expected: migrationsUpTo(1, 2),
			wantErr: "schema at version 1, this build expects 2"},
		{name: "at the version", migrated: migrationsUpTo(1, 2), expected: migrationsUpTo(1, 2)},
		// An older replica during a rolling upgrade keeps serving.
		{name: "ahead", migrated: migrationsUpTo(1, 2, 3), expected: migrationsUpTo(1, 2)},
		{name: "binary without migrations", expected: fstest.MapFS{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pool := dbtest.New(t, tt.migrated)
			s, err := database.ExpectSchema(tt.expected)
			if err != nil {
				t.Fatal(err)
			}
			err = s.Ready(pool)(context.Background())
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Ready = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Ready = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

// migrationsUpTo is an FS of one trivial migration per version.
func migrationsUpTo(versions ...int) fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, v := range versions {
		fsys[fmt.Sprintf("%05d_step.sql", v)] = &fstest.MapFile{Data: []byte("-- +goose Up\nSELECT 1;\n-- +goose Down\nSELECT 1;\n")}
	}
	return fsys
}
