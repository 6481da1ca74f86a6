package departamento

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/page"
)

var (
	// ErrNotFound means no such department in the caller's company.
	ErrNotFound = domainerr.NotFound("departamento não encontrado")
	// ErrSegmentoNotFound means the department has no such segment.
	ErrSegmentoNotFound = domainerr.NotFound("segmento não encontrado")
	errDuplicate        = domainerr.Conflict("departamento_duplicado", "já existe um departamento com este nome")
)

// Store holds the SQL of departments and segments.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Create stores d with its segments in one transaction.
func (s *Store) Create(ctx context.Context, d Departamento) (Departamento, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx,
			`INSERT INTO departamentos (empresa_id, nome) VALUES ($1, $2) RETURNING id`,
			d.EmpresaID, d.Nome).Scan(&d.ID)
		if err != nil {
			return err
		}
		numeros := make([]int, len(d.Segmentos))
		nomes := make([]string, len(d.Segmentos))
		for i, sg := range d.Segmentos {
			numeros[i], nomes[i] = sg.Numero, sg.Nome
		}
		_, err = tx.Exec(ctx,
			`INSERT INTO segmentos (departamento_id, numero, nome)
			 SELECT $1, n, nome FROM unnest($2::int[], $3::text[]) AS t(n, nome)`,
			d.ID, numeros, nomes)
		return err
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "departamentos_empresa_nome" {
		return Departamento{}, errDuplicate
	}
	if err != nil {
		return Departamento{}, fmt.Errorf("departamento: create: %w", err)
	}
	return d, nil
}

// selectDepartamento reads a department with its segments in one row.
const selectDepartamento = `SELECT d.id, d.empresa_id, d.nome,
	COALESCE((SELECT json_agg(json_build_object('numero', s.numero, 'nome', s.nome) ORDER BY s.numero)
	          FROM segmentos s WHERE s.departamento_id = d.id), '[]'::json)
	FROM departamentos d `

// Get returns department id of company empresaID, or ErrNotFound.
func (s *Store) Get(ctx context.Context, empresaID, id int64) (Departamento, error) {
	return s.one(ctx, selectDepartamento+`WHERE d.id = $1 AND d.empresa_id = $2`, id, empresaID)
}

// ByNome returns the company's department named nome, case-insensitively.
func (s *Store) ByNome(ctx context.Context, empresaID int64, nome string) (Departamento, error) {
	return s.one(ctx, selectDepartamento+`WHERE d.empresa_id = $1 AND lower(d.nome) = lower($2)`, empresaID, nome)
}

// CheckSegmento returns nil when the company's department has segment
// numero (0, the whole department, always exists), ErrNotFound for an
// unknown or foreign department and ErrSegmentoNotFound for an unknown
// segment.
func (s *Store) CheckSegmento(ctx context.Context, empresaID, id int64, numero int) error {
	var hasSegmento bool
	err := s.db.QueryRow(ctx,
		`SELECT $3 = 0 OR EXISTS (SELECT 1 FROM segmentos WHERE departamento_id = d.id AND numero = $3)
		 FROM departamentos d WHERE d.id = $1 AND d.empresa_id = $2`, id, empresaID, numero).Scan(&hasSegmento)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return ErrNotFound
	case err != nil:
		return fmt.Errorf("departamento: segmento: %w", err)
	case !hasSegmento:
		return ErrSegmentoNotFound
	}
	return nil
}

func (s *Store) one(ctx context.Context, sql string, args ...any) (Departamento, error) {
	return database.One(ctx, s.db, scanDepartamento, ErrNotFound, "departamento: get", sql, args...)
}

// List returns one page of the company's departments, oldest first, and
// how many it has in all.
func (s *Store) List(ctx context.Context, empresaID int64, p page.Page) ([]Departamento, int, error) {
	return database.Page(ctx, s.db, scanDepartamento, "departamento", `SELECT count(*) FROM departamentos WHERE empresa_id = $1`,
		selectDepartamento+`WHERE d.empresa_id = $1 ORDER BY d.id LIMIT $2 OFFSET $3`, p.Limit(), p.Offset(), empresaID)
}

func scanDepartamento(row pgx.CollectableRow) (Departamento, error) {
	var d Departamento
	err := row.Scan(&d.ID, &d.EmpresaID, &d.Nome, &d.Segmentos)
	return d, err
}
