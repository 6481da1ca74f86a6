package local

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
)

var (
	errNotFound = domainerr.NotFound("local de trabalho não encontrado")
	errLimite   = domainerr.Conflict("limite_locais", "a empresa já tem o máximo de 500 locais de trabalho ativos")
)

// Store holds the SQL of work places, and the cache of them that the
// geofence check reads.
type Store struct {
	db     *pgxpool.Pool
	places *placesCache // nil: every check queries
}

// NewStore returns a Store on db whose geofence check keeps each company's
// places for cacheTTL (placesCache); zero (or less) disables the cache.
func NewStore(db *pgxpool.Pool, cacheTTL time.Duration) *Store {
	s := &Store{db: db}
	if cacheTTL > 0 {
		s.places = newPlacesCache(cacheTTL)
	}
	return s
}

// Ativos returns company empresaID's active places, oldest first, as the
// database has them now (the list route uses it; see ativosCached).
func (s *Store) Ativos(ctx context.Context, empresaID int64) ([]Local, error) {
	rows, _ := s.db.Query(ctx, `SELECT id, nome, endereco, latitude, longitude, raio_metros FROM locais_trabalho
		WHERE empresa_id = $1 AND removido_em IS NULL ORDER BY id LIMIT $2`, empresaID, maxLocais)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Local])
	if err != nil {
		return nil, fmt.Errorf("local: list: %w", err)
	}
	return out, nil
}

// Create adds a place unless the company has maxLocais active ones; the
// company's chain lock serialises concurrent creations.
func (s *Store) Create(ctx context.Context, empresaID int64, in input, now time.Time) (Local, error) {
	l := Local{Nome: in.Nome, Endereco: in.Endereco, Latitude: *in.Latitude, Longitude: *in.Longitude, RaioMetros: in.RaioMetros}
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM locais_trabalho WHERE empresa_id = $1 AND removido_em IS NULL`,
			empresaID).Scan(&n); err != nil {
			return fmt.Errorf("local: count: %w", err)
		}
		if n >= maxLocais {
			return errLimite
		}
		return tx.QueryRow(ctx, `INSERT INTO locais_trabalho (empresa_id, nome, endereco, latitude, longitude, raio_metros,
			criado_em) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, empresaID, l.Nome, l.Endereco, l.Latitude,
			l.Longitude, l.RaioMetros, now).Scan(&l.ID)
	})
	if err != nil {
		return Local{}, err
	}
	s.changed(empresaID)
	return l, nil
}

// Remove deactivates place id of company empresaID (punches keep naming
// it).
func (s *Store) Remove(ctx context.Context, empresaID, id int64, now time.Time) error {
	tag, err := s.db.Exec(ctx, `UPDATE locais_trabalho SET removido_em = $3
		WHERE id = $1 AND empresa_id = $2 AND removido_em IS NULL`, id, empresaID, now)
	if err != nil {
		return fmt.Errorf("local: remove: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errNotFound
	}
	s.changed(empresaID)
	return nil
}

// changed drops company empresaID's cached places once a change to them
// is committed, so this replica's next punch reads them anew.
func (s *Store) changed(empresaID int64) {
	if s.places != nil {
		s.places.forget(empresaID)
	}
}

// ativosCached is Ativos through the cache, for the geofence check.
func (s *Store) ativosCached(ctx context.Context, empresaID int64) ([]Local, error) {
	if s.places == nil {
		return s.Ativos(ctx, empresaID)
	}
	return s.places.get(ctx, empresaID, s.Ativos)
}

// Geofence checks a punch's stored position against the company's active
// places (registro.Geofencer): nil when it has none. The places may be up
// to the cache's TTL old when another replica changed them.
func (s *Store) Geofence(ctx context.Context, empresaID int64, localizacao string) (*registro.Geofence, error) {
	lat, lng, ok := ParsePosicao(localizacao)
	if !ok {
		return nil, nil
	}
	places, err := s.ativosCached(ctx, empresaID)
	if err != nil {
		return nil, err
	}
	r, ok := Check(lat, lng, places)
	if !ok {
		return nil, nil
	}
	return &registro.Geofence{LocalTrabalhoID: r.LocalID, DistanciaMetros: r.Distancia, Fora: r.Fora}, nil
}
