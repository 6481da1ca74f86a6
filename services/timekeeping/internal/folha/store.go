package folha

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store holds the mappings and layouts (migration 00021) and reads the
// period's closing and pending requests.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Mapa is company empresaID's mapping: the defaults (Padrao) overridden
// by its own codes.
func (s *Store) Mapa(ctx context.Context, empresaID int64) (map[string]string, error) {
	out := Padrao()
	rows, _ := s.db.Query(ctx, `SELECT evento, codigo FROM folha_eventos WHERE empresa_id = $1`, empresaID)
	var ev, cod string
	_, err := pgx.ForEachRow(rows, []any{&ev, &cod}, func() error {
		if Conhecido(ev) {
			out[ev] = cod
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("folha: mapa: %w", err)
	}
	return out, nil
}

// SetMapa replaces company empresaID's codes with mapa (checked): the
// events it leaves out go back to their defaults.
func (s *Store) SetMapa(ctx context.Context, empresaID int64, mapa map[string]string, now time.Time) error {
	return pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM folha_eventos WHERE empresa_id = $1`, empresaID); err != nil {
			return fmt.Errorf("folha: set mapa: %w", err)
		}
		for ev, cod := range mapa {
			if _, err := tx.Exec(ctx, `INSERT INTO folha_eventos (empresa_id, evento, codigo, atualizado_em)
				VALUES ($1, $2, $3, $4)`, empresaID, ev, cod, now); err != nil {
				return fmt.Errorf("folha: set mapa: %w", err)
			}
		}
		return nil
	})
}

// Layout is company empresaID's layout nome: its own, else the preset,
// false when neither exists.
func (s *Store) Layout(ctx context.Context, empresaID int64, nome string) (Layout, bool, error) {
	l := Layout{Nome: nome}
	var campos []byte
	err := s.db.QueryRow(ctx, `SELECT descricao, campos FROM folha_layouts WHERE empresa_id = $1 AND nome = $2`,
		empresaID, nome).Scan(&l.Descricao, &campos)
	if errors.Is(err, pgx.ErrNoRows) {
		p, ok := Presets()[nome]
		return p, ok, nil
	}
	if err != nil {
		return Layout{}, false, fmt.Errorf("folha: layout: %w", err)
	}
	if err := json.Unmarshal(campos, &l.Campos); err != nil {
		return Layout{}, false, fmt.Errorf("folha: layout %s: %w", nome, err)
	}
	return l, true, nil
}

// Layouts lists company empresaID's layouts by name: the presets, each
// replaced by the company's edit, and its own.
func (s *Store) Layouts(ctx context.Context, empresaID int64) ([]Layout, error) {
	byName := Presets()
	rows, _ := s.db.Query(ctx, `SELECT nome, descricao, campos FROM folha_layouts WHERE empresa_id = $1`, empresaID)
	var l Layout
	var campos []byte
	_, err := pgx.ForEachRow(rows, []any{&l.Nome, &l.Descricao, &campos}, func() error {
		x := Layout{Nome: l.Nome, Descricao: l.Descricao}
		if err := json.Unmarshal(campos, &x.Campos); err != nil {
			return err
		}
		byName[x.Nome] = x
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("folha: layouts: %w", err)
	}
	out := make([]Layout, 0, len(byName))
	for _, x := range byName {
		out = append(out, x)
	}
	sortLayouts(out)
	return out, nil
}

// SaveLayout stores company empresaID's layout l (checked).
func (s *Store) SaveLayout(ctx context.Context, empresaID int64, l Layout, now time.Time) error {
	campos, err := json.Marshal(l.Campos)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO folha_layouts (empresa_id, nome, descricao, campos, atualizado_em)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (empresa_id, nome) DO UPDATE
		SET descricao = EXCLUDED.descricao, campos = EXCLUDED.campos, atualizado_em = EXCLUDED.atualizado_em`,
		empresaID, l.Nome, l.Descricao, campos, now)
	if err != nil {
		return fmt.Errorf("folha: save layout: %w", err)
	}
	return nil
}

// Fechado reports whether every day from inicio to fim is inside one of
// company empresaID's standing (not reopened) closings.
func (s *Store) Fechado(ctx context.Context, empresaID int64, inicio, fim time.Time) (bool, error) {
	var aberto bool
	err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM generate_series($2::date, $3::date, '1 day') d
		WHERE NOT EXISTS (SELECT 1 FROM fechamentos f WHERE f.empresa_id = $1 AND d BETWEEN f.inicio AND f.fim
			AND NOT EXISTS (SELECT 1 FROM reaberturas r WHERE r.fechamento_id = f.id)))`,
		empresaID, inicio, fim).Scan(&aberto)
	if err != nil {
		return false, fmt.Errorf("folha: fechado: %w", err)
	}
	return !aberto, nil
}

// Pendencias lists the pending requests of employees ids over [inicio,
// fim] (by workday): punch adjustments, then inclusion requests, each by
// date.
func (s *Store) Pendencias(ctx context.Context, empresaID int64, ids []int64, inicio, fim time.Time) ([]Pendencia, error) {
	rows, _ := s.db.Query(ctx, `
		SELECT 'ajuste', a.registro_id, a.funcionario_id, p.jornada
		FROM ajustes a JOIN registros_ponto p ON p.id = a.registro_id
		WHERE a.empresa_id = $1 AND a.status = 'ajuste solicitado' AND a.funcionario_id = ANY($2)
			AND p.jornada BETWEEN $3 AND $4
		UNION ALL
		SELECT 'inclusao', s.id, s.funcionario_id, s.jornada
		FROM solicitacoes_marcacao s
		WHERE s.empresa_id = $1 AND s.funcionario_id = ANY($2) AND s.jornada BETWEEN $3 AND $4
			AND NOT EXISTS (SELECT 1 FROM solicitacoes_decisoes d WHERE d.solicitacao_id = s.id)
		ORDER BY 1, 4, 2`, empresaID, ids, inicio, fim)
	out := []Pendencia{}
	var p Pendencia
	var data time.Time
	_, err := pgx.ForEachRow(rows, []any{&p.Tipo, &p.ID, &p.FuncionarioID, &data}, func() error {
		p.Data = data.Format(time.DateOnly)
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("folha: pendencias: %w", err)
	}
	return out, nil
}
