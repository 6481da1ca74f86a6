package httpserver_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
)

// redisReply is an error reply of a Redis server that cannot serve now:
// go-redis recognises those by their prefix.
type redisReply string

func (r redisReply) Error() string { return string(r) }
func (redisReply) RedisError()     {}

// A handler returns domain errors and the errors of the drivers as they
// come; the error handler gives each its status: a domain kind its own,
// Redis or PostgreSQL out of service a 503, a bug a 500.
func TestDomainAndDriverErrorsAnswer(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	key := fmt.Sprintf("httpserver-test:%d", time.Now().UnixNano())
	if err := rdb.Set(t.Context(), key, "v", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	wrongType := rdb.LPush(t.Context(), key, "x").Err()
	rdb.Del(t.Context(), key)
	rdb.Close()
	closedErr := rdb.Get(t.Context(), key).Err()
	errs := map[string]error{
		"/conflict":       fmt.Errorf("store: %w", domainerr.Conflict("periodo_fechado", "período fechado")),
		"/not-found":      domainerr.NotFound("funcionário não encontrado"),
		"/redis-closed":   fmt.Errorf("tokens: %w", closedErr),
		"/redis-loading":  redisReply("LOADING Redis is loading the dataset in memory"),
		"/redis-busy":     redisReply("BUSY Redis is busy running a script"),
		"/redis-pool":     redis.ErrPoolTimeout,
		"/pg-too-many":    &pgconn.PgError{Code: "53300"},
		"/redis-wrongtyp": fmt.Errorf("codes: %w", wrongType),
	}
	r := start(t, testConfig(), func(s *httpserver.Server) {
		for path, err := range errs {
			s.Public.Get(path, func(*fiber.Ctx) error { return err })
		}
	})
	for path, want := range map[string]struct {
		status int
		code   string
	}{
		"/conflict":       {409, "periodo_fechado"},
		"/not-found":      {404, "nao_encontrado"},
		"/redis-closed":   {503, "dependencia_indisponivel"},
		"/redis-loading":  {503, "dependencia_indisponivel"},
		"/redis-busy":     {503, "dependencia_indisponivel"},
		"/redis-pool":     {503, "dependencia_indisponivel"},
		"/pg-too-many":    {503, "dependencia_indisponivel"},
		"/redis-wrongtyp": {500, "erro_interno"},
	} {
		wantError(t, call(t, "GET", r.public+path, nil, nil), want.status, want.code)
	}
}
