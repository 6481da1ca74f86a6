package empresas

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/database/dbtest"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

// upTo is the migrations whose file names sort before last's.
func upTo(t *testing.T, last string) fs.FS {
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

// Companies registered before establishments existed get their principal
// one, and the REP its estabelecimento.incluido numbered after each
// company's own events; a company with no event yet starts at 1.
func TestMigrationGivesExistingCompaniesTheirPrincipal(t *testing.T) {
	ctx := context.Background()
	ownerURL := dbtest.CreateDatabase(t)
	if err := database.Migrate(ctx, ownerURL, upTo(t, "00005")); err != nil {
		t.Fatal(err)
	}
	owner, err := pgxpool.New(ctx, ownerURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	insert := func(cnpj, nome string, resp bool) int64 {
		var id int64
		var respNome, respCPF *string
		if resp {
			n, c := "Ana Souza", "529.982.247-25"
			respNome, respCPF = &n, &c
		}
		err := owner.QueryRow(ctx, `INSERT INTO empresas (nome, razao_social, cnpj, data_abertura, email, password_hash,
			nome_do_plano, role, preco_id, invoice_id, billing_customer_id, subscription_id, fuso_horario,
			responsavel_nome, responsavel_cpf)
			VALUES ($1, $1 || ' Ltda', $2, '2010-03-15', $2 || '@x.com', 'h', 'basic', 'basic', 'p', 'i', 'c' || $2, 's' || $2,
			'America/Manaus', $3, $4) RETURNING id`, nome, cnpj, respNome, respCPF).Scan(&id)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a := insert("11.222.333/0001-81", "Padaria", true)
	b := insert("11.444.777/0001-61", "Oficina", false)
	// Company a already sent two events.
	for _, sql := range []string{`INSERT INTO outbox_sequencias VALUES ($1, 2)`,
		`INSERT INTO outbox_eventos (empresa_id, sequencia, tipo, dados, ocorrido_em)
		VALUES ($1, 1, 'empresa.incluida', '{}', now()), ($1, 2, 'empresa.alterada', '{}', now())`} {
		if _, err := owner.Exec(ctx, sql, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := database.Migrate(ctx, ownerURL, os.DirFS("../../migrations")); err != nil {
		t.Fatal(err)
	}

	type row struct {
		EmpresaID int64
		Sequencia int64
		Tipo      string
		Payload   timekeepingapi.Payload
	}
	rows, _ := owner.Query(ctx, `SELECT o.empresa_id, o.sequencia, o.tipo, o.dados FROM outbox_eventos o
		WHERE tipo = 'estabelecimento.incluido' ORDER BY empresa_id`)
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		var raw []byte
		if err := r.Scan(&x.EmpresaID, &x.Sequencia, &x.Tipo, &raw); err != nil {
			return x, err
		}
		return x, json.Unmarshal(raw, &x.Payload)
	})
	if err != nil {
		t.Fatal(err)
	}
	var idA, idB int64
	if err := owner.QueryRow(ctx, `SELECT (SELECT id FROM estabelecimentos WHERE empresa_id = $1 AND principal),
		(SELECT id FROM estabelecimentos WHERE empresa_id = $2 AND principal)`, a, b).Scan(&idA, &idB); err != nil {
		t.Fatal(err)
	}
	want := []row{
		{a, 3, timekeepingapi.EstabelecimentoIncluido, timekeepingapi.Payload{
			Empresa: &timekeepingapi.Empresa{CNPJ: "11.222.333/0001-81", RazaoSocial: "Padaria Ltda",
				Responsavel: &timekeepingapi.Responsavel{Nome: "Ana Souza", CPF: "529.982.247-25"}},
			Estabelecimento: &timekeepingapi.Estabelecimento{ID: idA, Principal: true, Tipo: "cnpj", Numero: "11222333000181",
				Nome: "Padaria", Ativo: true}}},
		{b, 1, timekeepingapi.EstabelecimentoIncluido, timekeepingapi.Payload{
			Empresa: &timekeepingapi.Empresa{CNPJ: "11.444.777/0001-61", RazaoSocial: "Oficina Ltda"},
			Estabelecimento: &timekeepingapi.Estabelecimento{ID: idB, Principal: true, Tipo: "cnpj", Numero: "11444777000161",
				Nome: "Oficina", Ativo: true}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("migration events (-want +got):\n%s", diff)
	}
	var zone string
	if err := owner.QueryRow(ctx, `SELECT fuso_horario FROM estabelecimentos WHERE id = $1`, idA).Scan(&zone); err != nil || zone != "America/Manaus" {
		t.Fatalf("principal zone %q (%v); want the company's", zone, err)
	}
}
