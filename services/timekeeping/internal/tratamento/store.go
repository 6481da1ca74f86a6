// Package tratamento is the time-treatment program's work on punches
// (Portaria 671 arts. 82-84): punches the employee forgot, included by the
// company (POST /registropontos/funcionario/{funcionarioId}/marcacoes),
// and punches disregarded or reconsidered (PUT /registropontos/
// {registroId}/desconsiderar, /reconsiderar). It only adds rows: the
// REP's originals are never touched and never leave the AFD; an inclusion
// never enters it. Every write takes the company's chain lock and refuses
// a date inside a closed period (package fechamento).
package tratamento

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
)

// Origins of a treated punch.
const (
	OrigemOriginal = "original"
	OrigemIncluida = "incluída"
)

var (
	errNaoEncontrada    = domainerr.NotFound("marcação não encontrada")
	errDuplicada        = domainerr.Conflict("marcacao_duplicada", "já existe uma marcação neste minuto da jornada")
	errJaDesconsiderada = domainerr.Conflict("marcacao_ja_desconsiderada", "a marcação já está desconsiderada")
	errNaoDesconsid     = domainerr.Conflict("marcacao_nao_desconsiderada", "a marcação não está desconsiderada")
)

// Store holds the SQL of inclusions and disregards.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Marcacao is a punch as the treatment sees it: an original of the REP or
// an inclusion, with its current treatment.
type Marcacao struct {
	ID             int64  `json:"id"`
	FuncionarioID  int64  `json:"funcionarioId"`
	Data           string `json:"data"`
	Horario        string `json:"horario"`
	Origem         string `json:"origem"`
	NSR            *int64 `json:"nsr"`
	Desconsiderada bool   `json:"desconsiderada"`
	// Motivo is an inclusion's reason (null for an original);
	// MotivoDesconsideracao the reason of the latest disregard or
	// reconsideration.
	Motivo                *string `json:"motivo"`
	MotivoDesconsideracao *string `json:"motivoDesconsideracao"`
	RegistradoEm          *string `json:"registradoEm"`
}

// marcacoes selects every punch of either kind with its latest disregard
// step; filter it as a subquery.
const marcacoes = `SELECT m.*, coalesce(d.desconsiderada, false) AS desconsiderada, d.motivo AS motivo_desc
	FROM (
		SELECT p.id, p.empresa_id, p.funcionario_id, p.jornada, date_trunc('minute', CASE
				WHEN a.status = 'ajuste aprovado pela empresa' THEN a.data_solicitar ELSE p.horario_registro END) AS horario,
			'original' AS origem, p.nsr, NULL::text AS motivo, NULL::timestamptz AS registrado_em
		FROM registros_ponto p LEFT JOIN ajustes a ON a.registro_id = p.id
		UNION ALL
		SELECT i.id, i.empresa_id, i.funcionario_id, i.jornada, i.horario, 'incluída', NULL, i.motivo, i.registrado_em
		FROM marcacoes_incluidas i
	) m
	LEFT JOIN LATERAL (SELECT x.desconsiderada, x.motivo FROM desconsideracoes x
		WHERE x.registro_id = m.id ORDER BY x.id DESC LIMIT 1) d ON true`

func scanMarcacao(row pgx.CollectableRow) (Marcacao, error) {
	var m Marcacao
	var empresaID int64
	var jornada, horario time.Time
	var registrado *time.Time
	err := row.Scan(&m.ID, &empresaID, &m.FuncionarioID, &jornada, &horario, &m.Origem, &m.NSR, &m.Motivo,
		&registrado, &m.Desconsiderada, &m.MotivoDesconsideracao)
	m.Data, m.Horario = jornada.Format(time.DateOnly), clock.FormatISO(horario)
	if registrado != nil {
		s := clock.FormatISO(*registrado)
		m.RegistradoEm = &s
	}
	return m, err
}

func get(ctx context.Context, q database.Querier, empresaID, id int64) (Marcacao, time.Time, error) {
	m, err := database.One(ctx, q, scanMarcacao, errNaoEncontrada, "tratamento: get",
		`SELECT * FROM (`+marcacoes+`) t WHERE t.id = $1 AND t.empresa_id = $2`, id, empresaID)
	if err != nil {
		return m, time.Time{}, err
	}
	jornada, _ := time.Parse(time.DateOnly, m.Data)
	return m, jornada, nil
}

// Inclusao is a forgotten punch to include.
type Inclusao struct {
	EmpresaID, FuncionarioID, Autor int64
	Jornada                         time.Time // the workday (core.Jornada)
	Horario                         time.Time // whole minutes
	FusoMinutos                     int
	Motivo                          string
}

// Include records in: 409 when its workday is closed or already has a
// punch (original or included, not disregarded) at the same minute.
func (s *Store) Include(ctx context.Context, in Inclusao, now time.Time) (Marcacao, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		var err error
		id, err = insertInclusao(ctx, tx, in, now)
		return err
	})
	if err != nil {
		return Marcacao{}, err
	}
	m, _, err := get(ctx, s.db, in.EmpresaID, id)
	return m, err
}

// insertInclusao is Include inside tx, returning the new punch's id.
func insertInclusao(ctx context.Context, tx pgx.Tx, in Inclusao, now time.Time) (int64, error) {
	if err := fechamento.Lock(ctx, tx, in.EmpresaID); err != nil {
		return 0, err
	}
	if err := checkInclusao(ctx, tx, in); err != nil {
		return 0, err
	}
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO marcacoes_incluidas
		(empresa_id, funcionario_id, jornada, horario, fuso_minutos, motivo, autor_id, registrado_em)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		in.EmpresaID, in.FuncionarioID, in.Jornada, in.Horario, in.FusoMinutos, in.Motivo, in.Autor, now).Scan(&id)
	return id, err
}

// checkInclusao refuses an inclusion in a closed period or at the minute
// of a punch of its workday. Call it under fechamento.Lock.
func checkInclusao(ctx context.Context, tx pgx.Tx, in Inclusao) error {
	if err := fechamento.CheckOpen(ctx, tx, in.EmpresaID, in.Jornada); err != nil {
		return err
	}
	var dup bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM (`+marcacoes+`) t
		WHERE t.funcionario_id = $1 AND t.jornada = $2 AND t.horario = $3 AND NOT t.desconsiderada)`,
		in.FuncionarioID, in.Jornada, in.Horario).Scan(&dup); err != nil {
		return fmt.Errorf("tratamento: same minute: %w", err)
	}
	if dup {
		return errDuplicada
	}
	return nil
}

// Disregard disregards (desconsiderar true) or reconsiders punch id
// of company empresaID, either kind: 404 when it is not the company's
// punch, 409 when its workday is closed or it is already in that state.
func (s *Store) Disregard(ctx context.Context, empresaID, id, autor int64, desconsiderar bool, motivo string,
	now time.Time) (Marcacao, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		m, jornada, err := get(ctx, tx, empresaID, id)
		if err != nil {
			return err
		}
		if err := fechamento.CheckOpen(ctx, tx, empresaID, jornada); err != nil {
			return err
		}
		switch {
		case desconsiderar && m.Desconsiderada:
			return errJaDesconsiderada
		case !desconsiderar && !m.Desconsiderada:
			return errNaoDesconsid
		}
		_, err = tx.Exec(ctx, `INSERT INTO desconsideracoes
			(registro_id, empresa_id, funcionario_id, jornada, desconsiderada, motivo, autor_id, registrado_em)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, id, empresaID, m.FuncionarioID, jornada, desconsiderar, motivo, autor, now)
		if err != nil {
			return fmt.Errorf("tratamento: desconsiderar: %w", err)
		}
		return nil
	})
	if err != nil {
		return Marcacao{}, err
	}
	m, _, err := get(ctx, s.db, empresaID, id)
	return m, err
}
