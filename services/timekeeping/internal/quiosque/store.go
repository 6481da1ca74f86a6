package quiosque

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
)

var (
	errNotFound   = domainerr.NotFound("quiosque não encontrado")
	errPINUnknown = domainerr.NotFound("o funcionário não tem PIN cadastrado")
)

// Quiosque is a registered kiosk as the company sees it.
type Quiosque struct {
	ID          int64      `json:"id"`
	EmpresaID   int64      `json:"-"`
	Nome        string     `json:"nome"`
	Dispositivo string     `json:"dispositivo"`
	Coletor     string     `json:"coletor"`
	CriadoEm    time.Time  `json:"criadoEm"`
	UltimoUso   *time.Time `json:"ultimoUso"`
}

// Store holds the SQL of kiosks, PINs and badges.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

const columns = `id, empresa_id, nome, dispositivo, coletor, criado_em, ultimo_uso`

// Create registers a kiosk known by the hash of its credential.
func (s *Store) Create(ctx context.Context, q Quiosque, credencial []byte) (Quiosque, error) {
	err := s.db.QueryRow(ctx, `INSERT INTO quiosques (empresa_id, nome, dispositivo, coletor, credencial_hash, criado_em)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, q.EmpresaID, q.Nome, q.Dispositivo, q.Coletor, credencial,
		q.CriadoEm).Scan(&q.ID)
	if err != nil {
		return Quiosque{}, fmt.Errorf("quiosque: create: %w", err)
	}
	return q, nil
}

// Ativos lists company empresaID's kiosks not revoked, oldest first.
func (s *Store) Ativos(ctx context.Context, empresaID int64) ([]Quiosque, error) {
	rows, _ := s.db.Query(ctx, `SELECT `+columns+` FROM quiosques WHERE empresa_id = $1 AND revogado_em IS NULL
		ORDER BY id`, empresaID)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Quiosque])
	if err != nil {
		return nil, fmt.Errorf("quiosque: list: %w", err)
	}
	return out, nil
}

// Revoke ends kiosk id of company empresaID: its credential stops working.
func (s *Store) Revoke(ctx context.Context, empresaID, id int64, now time.Time) error {
	tag, err := s.db.Exec(ctx, `UPDATE quiosques SET revogado_em = $3
		WHERE id = $1 AND empresa_id = $2 AND revogado_em IS NULL`, id, empresaID, now)
	if err != nil {
		return fmt.Errorf("quiosque: revoke: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errNotFound
	}
	return nil
}

// Use finds the live kiosk of a credential's hash and stamps its last use.
func (s *Store) Use(ctx context.Context, credencial []byte, now time.Time) (Quiosque, error) {
	return database.One(ctx, s.db, pgx.RowToStructByPos[Quiosque], errCredencial, "quiosque: use",
		`UPDATE quiosques SET ultimo_uso = $2 WHERE credencial_hash = $1 AND revogado_em IS NULL RETURNING `+columns,
		credencial, now)
}

// SetPIN keeps employee funcionarioID's PIN hash, unlocked. A former
// record of his CPF in the company (a re-hire) gives way.
func (s *Store) SetPIN(ctx context.Context, empresaID, funcionarioID int64, cpf, pinHash string, now time.Time) error {
	return pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM quiosque_pins WHERE empresa_id = $1 AND cpf = $2 AND funcionario_id <> $3`,
			empresaID, cpf, funcionarioID); err != nil {
			return fmt.Errorf("quiosque: set PIN: %w", err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO quiosque_pins (funcionario_id, empresa_id, cpf, pin_hash, atualizado_em)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (funcionario_id) DO UPDATE SET empresa_id = $2, cpf = $3,
				pin_hash = $4, tentativas = 0, bloqueado_em = NULL, atualizado_em = $5`,
			funcionarioID, empresaID, cpf, pinHash, now)
		if err != nil {
			return fmt.Errorf("quiosque: set PIN: %w", err)
		}
		return nil
	})
}

// ResetPIN removes employee funcionarioID's PIN (and its lock): he sets a
// new one.
func (s *Store) ResetPIN(ctx context.Context, empresaID, funcionarioID int64) error {
	tag, err := s.db.Exec(ctx, `DELETE FROM quiosque_pins WHERE funcionario_id = $1 AND empresa_id = $2`,
		funcionarioID, empresaID)
	if err != nil {
		return fmt.Errorf("quiosque: reset PIN: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errPINUnknown
	}
	return nil
}

// pin is an employee's stored PIN.
type pin struct {
	funcionarioID int64
	hash          string
	bloqueado     bool
}

// PIN finds the PIN of CPF cpf in company empresaID (false: none).
func (s *Store) PIN(ctx context.Context, empresaID int64, cpf string) (pin, bool, error) {
	var p pin
	err := s.db.QueryRow(ctx, `SELECT funcionario_id, pin_hash, bloqueado_em IS NOT NULL FROM quiosque_pins
		WHERE empresa_id = $1 AND cpf = $2`, empresaID, cpf).Scan(&p.funcionarioID, &p.hash, &p.bloqueado)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return p, false, nil
	case err != nil:
		return p, false, fmt.Errorf("quiosque: PIN: %w", err)
	}
	return p, true, nil
}

// Failed counts a wrong PIN of funcionarioID and says whether it is now
// locked (maxTentativas in a row).
func (s *Store) Failed(ctx context.Context, funcionarioID int64, now time.Time) (bool, error) {
	var locked bool
	err := s.db.QueryRow(ctx, `UPDATE quiosque_pins SET tentativas = tentativas + 1,
			bloqueado_em = CASE WHEN tentativas + 1 >= $2 THEN coalesce(bloqueado_em, $3) ELSE bloqueado_em END
		WHERE funcionario_id = $1 RETURNING bloqueado_em IS NOT NULL`, funcionarioID, maxTentativas, now).Scan(&locked)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("quiosque: failed PIN: %w", err)
	}
	return locked, nil
}

// Succeeded clears funcionarioID's count of wrong PINs.
func (s *Store) Succeeded(ctx context.Context, funcionarioID int64) error {
	if _, err := s.db.Exec(ctx, `UPDATE quiosque_pins SET tentativas = 0 WHERE funcionario_id = $1 AND tentativas > 0`,
		funcionarioID); err != nil {
		return fmt.Errorf("quiosque: PIN right: %w", err)
	}
	return nil
}

// IssueBadge keeps the hash of funcionarioID's new badge, replacing (and
// so revoking) his previous one.
func (s *Store) IssueBadge(ctx context.Context, empresaID, funcionarioID int64, token []byte, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO quiosque_crachas (funcionario_id, empresa_id, token_hash, emitido_em)
		VALUES ($1, $2, $3, $4) ON CONFLICT (funcionario_id) DO UPDATE SET empresa_id = $2, token_hash = $3,
			emitido_em = $4`, funcionarioID, empresaID, token, now)
	if err != nil {
		return fmt.Errorf("quiosque: issue badge: %w", err)
	}
	return nil
}

// BadgeOwner is the employee of company empresaID whose badge has token's
// hash (false: none, or another company's).
func (s *Store) BadgeOwner(ctx context.Context, empresaID int64, token []byte) (int64, bool, error) {
	var id int64
	err := s.db.QueryRow(ctx, `SELECT funcionario_id FROM quiosque_crachas WHERE token_hash = $1 AND empresa_id = $2`,
		token, empresaID).Scan(&id)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, fmt.Errorf("quiosque: badge: %w", err)
	}
	return id, true, nil
}

// LastTipo is the tipo of employee funcionarioID's last punch of workday
// jornada ("" when none).
func (s *Store) LastTipo(ctx context.Context, funcionarioID int64, jornada time.Time) (string, error) {
	var tipo string
	err := s.db.QueryRow(ctx, `SELECT tipo FROM registros_ponto WHERE funcionario_id = $1 AND jornada = $2
		ORDER BY nsr DESC LIMIT 1`, funcionarioID, jornada).Scan(&tipo)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("quiosque: last tipo: %w", err)
	}
	return tipo, nil
}

// SetChave keeps kiosk id's off-line public key (SPKI DER), replacing any
// former one, with its clock skew now.
func (s *Store) SetChave(ctx context.Context, id int64, der []byte, desvioMS *int64) error {
	if _, err := s.db.Exec(ctx, `UPDATE quiosques SET chave_publica = $2, desvio_ms = $3 WHERE id = $1`,
		id, der, desvioMS); err != nil {
		return fmt.Errorf("quiosque: set key: %w", err)
	}
	return nil
}

// Chave reads kiosk id's off-line key and last clock skew (nil der: none
// registered).
func (s *Store) Chave(ctx context.Context, id int64) ([]byte, *int64, error) {
	var der []byte
	var ms *int64
	if err := s.db.QueryRow(ctx, `SELECT chave_publica, desvio_ms FROM quiosques WHERE id = $1`, id).
		Scan(&der, &ms); err != nil {
		return nil, nil, fmt.Errorf("quiosque: key: %w", err)
	}
	return der, ms, nil
}

// Touch records kiosk id's clock skew at an on-line contact (nil: the last
// measure kept).
func (s *Store) Touch(ctx context.Context, id int64, desvioMS *int64) error {
	if _, err := s.db.Exec(ctx, `UPDATE quiosques SET desvio_ms = coalesce($2, desvio_ms) WHERE id = $1`,
		id, desvioMS); err != nil {
		return fmt.Errorf("quiosque: touch: %w", err)
	}
	return nil
}
