package dispositivo

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/domainerr"
)

var (
	errNotFound = domainerr.NotFound("dispositivo não encontrado")
	errLimite   = domainerr.Conflict("limite_dispositivos", "o funcionário já tem o máximo de 10 dispositivos ativos")
)

// maxAtivos bounds an employee's active devices.
const maxAtivos = 10

// Dispositivo is a registered device key.
type Dispositivo struct {
	ID            int64      `json:"id"`
	FuncionarioID int64      `json:"funcionarioId"`
	Nome          string     `json:"nome"`
	CriadoEm      time.Time  `json:"criadoEm"`
	UltimoContato time.Time  `json:"ultimoContato"`
	RevogadoEm    *time.Time `json:"revogadoEm"`

	empresaID int64
	chave     []byte
	// desvio is the device's clock minus the server's at its last on-line
	// contact (nil: never measured).
	desvio *time.Duration
}

// Store holds the devices.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Register records employee funcionarioID's device key (SPKI DER).
func (s *Store) Register(ctx context.Context, empresaID, funcionarioID int64, nome string, chave []byte,
	desvio *time.Duration, now time.Time) (Dispositivo, error) {
	d := Dispositivo{FuncionarioID: funcionarioID, Nome: nome, CriadoEm: now, UltimoContato: now}
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		// Lock the employee's devices: two registrations cannot both pass the limit.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('dispositivos', $1))`, funcionarioID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM dispositivos WHERE funcionario_id = $1 AND revogado_em IS NULL`,
			funcionarioID).Scan(&n); err != nil {
			return err
		}
		if n >= maxAtivos {
			return errLimite
		}
		return tx.QueryRow(ctx, `INSERT INTO dispositivos (empresa_id, funcionario_id, nome, chave_publica, desvio_ms,
				criado_em, ultimo_contato) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
			empresaID, funcionarioID, nome, chave, millis(desvio), now).Scan(&d.ID)
	})
	if err != nil {
		var de *domainerr.Error
		if errors.As(err, &de) {
			return Dispositivo{}, err
		}
		return Dispositivo{}, fmt.Errorf("dispositivo: register: %w", err)
	}
	return d, nil
}

// Revoke revokes device id of company empresaID; funcionarioID > 0 limits
// it to that employee's devices. Revoking twice is no error.
func (s *Store) Revoke(ctx context.Context, empresaID, funcionarioID, id int64, now time.Time) error {
	tag, err := s.db.Exec(ctx, `UPDATE dispositivos SET revogado_em = coalesce(revogado_em, $4)
		WHERE id = $1 AND empresa_id = $2 AND ($3 = 0 OR funcionario_id = $3)`, id, empresaID, funcionarioID, now)
	if err != nil {
		return fmt.Errorf("dispositivo: revoke: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errNotFound
	}
	return nil
}

// List returns company empresaID's devices (funcionarioID > 0: that
// employee's), newest first.
func (s *Store) List(ctx context.Context, empresaID, funcionarioID int64) ([]Dispositivo, error) {
	rows, _ := s.db.Query(ctx, `SELECT id, funcionario_id, nome, criado_em, ultimo_contato, revogado_em
		FROM dispositivos WHERE empresa_id = $1 AND ($2 = 0 OR funcionario_id = $2) ORDER BY id DESC LIMIT 500`,
		empresaID, funcionarioID)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Dispositivo, error) {
		var d Dispositivo
		err := row.Scan(&d.ID, &d.FuncionarioID, &d.Nome, &d.CriadoEm, &d.UltimoContato, &d.RevogadoEm)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("dispositivo: list: %w", err)
	}
	return out, nil
}

// get reads device id with its key (any company: the caller checks).
func (s *Store) get(ctx context.Context, id int64) (Dispositivo, error) {
	var d Dispositivo
	var ms *int64
	err := s.db.QueryRow(ctx, `SELECT id, empresa_id, funcionario_id, nome, chave_publica, desvio_ms, criado_em,
			ultimo_contato, revogado_em FROM dispositivos WHERE id = $1`, id).
		Scan(&d.ID, &d.empresaID, &d.FuncionarioID, &d.Nome, &d.chave, &ms, &d.CriadoEm, &d.UltimoContato, &d.RevogadoEm)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, ErrOutro // no such device is, for the caller, one not his
	}
	if err != nil {
		return d, fmt.Errorf("dispositivo: get: %w", err)
	}
	if ms != nil {
		v := time.Duration(*ms) * time.Millisecond
		d.desvio = &v
	}
	return d, nil
}

// Touch records an on-line contact of device id at now, with the clock
// skew measured then (nil: unknown, the last measure kept).
func (s *Store) Touch(ctx context.Context, id int64, desvio *time.Duration, now time.Time) error {
	_, err := s.db.Exec(ctx, `UPDATE dispositivos SET ultimo_contato = greatest(ultimo_contato, $2),
		desvio_ms = coalesce($3, desvio_ms) WHERE id = $1`, id, now, millis(desvio))
	if err != nil {
		return fmt.Errorf("dispositivo: touch: %w", err)
	}
	return nil
}

// LimiteDias is company empresaID's limit, in days, on how old an
// off-line punch may arrive (default when it set none).
func (s *Store) LimiteDias(ctx context.Context, empresaID int64, padrao int) (int, error) {
	var dias int
	err := s.db.QueryRow(ctx, `SELECT limite_dias FROM offline_empresas WHERE empresa_id = $1`, empresaID).Scan(&dias)
	if errors.Is(err, pgx.ErrNoRows) {
		return padrao, nil
	}
	if err != nil {
		return 0, fmt.Errorf("dispositivo: limit: %w", err)
	}
	return dias, nil
}

// SetLimiteDias sets company empresaID's limit.
func (s *Store) SetLimiteDias(ctx context.Context, empresaID int64, dias int, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO offline_empresas (empresa_id, limite_dias, atualizado_em) VALUES ($1, $2, $3)
		ON CONFLICT (empresa_id) DO UPDATE SET limite_dias = EXCLUDED.limite_dias, atualizado_em = EXCLUDED.atualizado_em`,
		empresaID, dias, now)
	if err != nil {
		return fmt.Errorf("dispositivo: set limit: %w", err)
	}
	return nil
}

func millis(d *time.Duration) *int64 {
	if d == nil {
		return nil
	}
	ms := d.Milliseconds()
	return &ms
}

// Verifier checks signed off-line punches against the registered keys.
type Verifier struct{ store *Store }

// NewVerifier returns a Verifier on store's keys.
func NewVerifier(store *Store) *Verifier { return &Verifier{store: store} }

// Chave is a device key that may sign employee's punches.
type Chave struct {
	ID     int64
	Desvio *time.Duration // skew at the last on-line contact
	key    *ecdsa.PublicKey
}

// Of returns device id's key if it may sign employee funcionarioID's
// punches at company empresaID: ErrOutro (403) when it is another
// employee's or company's, ErrRevogado (403) when revoked.
func (v *Verifier) Of(ctx context.Context, empresaID, funcionarioID, id int64) (Chave, error) {
	d, err := v.store.get(ctx, id)
	if err != nil {
		return Chave{}, err
	}
	if d.empresaID != empresaID || d.FuncionarioID != funcionarioID {
		return Chave{}, ErrOutro
	}
	if d.RevogadoEm != nil {
		return Chave{}, ErrRevogado
	}
	return NovaChave(id, d.chave, d.desvio)
}

// NovaChave is the key stored as der (SPKI) for signer id (a device or a
// kiosk), whose clock skew was desvio at its last on-line contact.
func NovaChave(id int64, der []byte, desvio *time.Duration) (Chave, error) {
	pub, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return Chave{}, fmt.Errorf("dispositivo %d: stored key: %w", id, err)
	}
	k, ok := pub.(*ecdsa.PublicKey)
	if !ok {
		return Chave{}, fmt.Errorf("dispositivo %d: stored key is not ECDSA", id)
	}
	return Chave{ID: id, Desvio: desvio, key: k}, nil
}

// Check verifies a's signature sig with k: ErrAssinatura when it does not
// match.
func (k Chave) Check(a Assinada, sig string) error {
	if a.DispositivoID != k.ID || !Verifica(k.key, a, sig) {
		return ErrAssinatura
	}
	return nil
}

// Touch records an on-line contact of the device (Store.Touch).
func (v *Verifier) Touch(ctx context.Context, id int64, desvio *time.Duration, now time.Time) error {
	return v.store.Touch(ctx, id, desvio, now)
}

// LimiteDias is Store.LimiteDias.
func (v *Verifier) LimiteDias(ctx context.Context, empresaID int64, padrao int) (int, error) {
	return v.store.LimiteDias(ctx, empresaID, padrao)
}
