package escala

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/page"
)

// ErrNotFound means no such schedule in the caller's company.
var ErrNotFound = domainerr.NotFound("escala de trabalho não encontrada")

// Store holds the SQL of schedules.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Create stores e and returns it with its id.
func (s *Store) Create(ctx context.Context, e Escala) (Escala, error) {
	err := s.db.QueryRow(ctx,
		`INSERT INTO escalas_trabalho (empresa_id, nome, horarios, minutos_diarios, tipo, data_inicio, descanso_semanal)
		 VALUES ($1, $2, $3, $4, coalesce(nullif($5, ''), 'semanal'), $6::date, $7::smallint[]) RETURNING id`,
		e.EmpresaID, e.Nome, e.Horarios, DailyMinutes(e.Horarios), e.Tipo, e.DataInicio, e.DescansoSemanal,
	).Scan(&e.ID)
	if err != nil {
		return Escala{}, fmt.Errorf("escala: create: %w", err)
	}
	return e, nil
}

// Select reads a schedule (Scan) from escalas_trabalho e; callers add
// the WHERE.
const Select = `SELECT e.id, e.empresa_id, e.nome, e.horarios, ` + Columns12x36 + ` FROM escalas_trabalho e `

// Columns12x36 read a 12x36's tipo and anchor date (e aliases
// escalas_trabalho), empty and NULL for a weekly schedule, then the
// weekly rest days (NULL: Sunday).
const Columns12x36 = `CASE WHEN e.tipo = '12x36' THEN e.tipo ELSE '' END, to_char(e.data_inicio, 'YYYY-MM-DD'), ` +
	`e.descanso_semanal::int[]`

// Get returns schedule id of company empresaID, or ErrNotFound.
func (s *Store) Get(ctx context.Context, empresaID, id int64) (Escala, error) {
	return s.one(ctx, Select+`WHERE e.id = $1 AND e.empresa_id = $2`, id, empresaID)
}

// OfFuncionario returns the schedule of employee funcionarioID, or
// ErrNotFound when there is no such employee.
func (s *Store) OfFuncionario(ctx context.Context, funcionarioID int64) (Escala, error) {
	return s.one(ctx, Select+
		`JOIN funcionarios f ON f.escala_trabalho_id = e.id AND f.empresa_id = e.empresa_id
		 WHERE f.id = $1`, funcionarioID)
}

func (s *Store) one(ctx context.Context, sql string, args ...any) (Escala, error) {
	return database.One(ctx, s.db, Scan, ErrNotFound, "escala: get", sql, args...)
}

// List returns one page of the company's schedules, oldest first, and
// how many it has in all.
func (s *Store) List(ctx context.Context, empresaID int64, p page.Page) ([]Escala, int, error) {
	return database.Page(ctx, s.db, Scan, "escala", `SELECT count(*) FROM escalas_trabalho WHERE empresa_id = $1`,
		Select+`WHERE e.empresa_id = $1 ORDER BY e.id LIMIT $2 OFFSET $3`, p.Limit(), p.Offset(), empresaID)
}

// Scan reads one row of Select.
func Scan(row pgx.CollectableRow) (Escala, error) {
	var e Escala
	err := row.Scan(&e.ID, &e.EmpresaID, &e.Nome, &e.Horarios, &e.Tipo, &e.DataInicio, &e.DescansoSemanal)
	return e, err
}
