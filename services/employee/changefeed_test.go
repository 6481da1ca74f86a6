package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
)

// changed lists the rows funcionarios_alterados holds, as
// "empresa:funcionario" (0: the whole company), in the order recorded.
func (e *env) changed() []string {
	e.t.Helper()
	rows, _ := e.db.Query(context.Background(), `SELECT empresa_id, COALESCE(funcionario_id, 0)
		FROM funcionarios_alterados ORDER BY id`)
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var empresa, funcionario int64
		err := r.Scan(&empresa, &funcionario)
		return fmt.Sprintf("%d:%d", empresa, funcionario), err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return got
}

// The migration's triggers record, in the changing transaction, what
// timekeeping's clock-in cache must forget (pkg/changefeed publishes it):
// an employee changed or deleted, a schedule changed (the whole company);
// not a login (code, password hash, update time) nor an update that
// changes nothing.
func TestChangesRecordedForTheClockInCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	esc := e.escala(a, "A")
	ana, bia, caio := e.funcionario(a, esc, nil), e.funcionario(a, esc, nil), e.funcionario(a, esc, nil)
	davi := e.funcionario(b, e.escala(b, "B"), nil)
	if got := e.changed(); len(got) != 0 {
		t.Fatalf("creations recorded %v", got)
	}

	want(t, e.pub("PATCH", path("/funcionarios/%d", ana), a.token, map[string]any{"nome": "Ana Lima"}), 200)
	for _, sql := range []string{
		`UPDATE funcionarios SET code_verify = 'x', password_hash = 'y', atualizado_em = now() WHERE id = $1`, // a login
		`UPDATE funcionarios SET nome = nome WHERE id = $1`,                                                   // no change
	} {
		if _, err := e.db.Exec(context.Background(), sql, bia); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.db.Exec(context.Background(), `UPDATE escalas_trabalho SET nome = 'A 44h' WHERE id = $1`, esc); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Exec(context.Background(), `DELETE FROM funcionarios WHERE id = $1`, caio); err != nil {
		t.Fatal(err)
	}
	want(t, e.pub("PATCH", path("/funcionarios/%d", davi), b.token, map[string]any{"cargo": "Gerente"}), 200)

	wantChanged := []string{
		fmt.Sprintf("%d:%d", a.id, ana), fmt.Sprintf("%d:0", a.id),
		fmt.Sprintf("%d:%d", a.id, caio), fmt.Sprintf("%d:%d", b.id, davi),
	}
	if diff := cmp.Diff(wantChanged, e.changed()); diff != "" {
		t.Fatalf("recorded changes (-want +got):\n%s", diff)
	}
}
