// Package redisclient opens the traced Redis client every service uses.
package redisclient

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/extra/redisotel/v9"
	"github.com/redis/go-redis/extra/redisprometheus/v9"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/telemetry"
)

// Config is the client configuration. Services embed it in their config
// struct as a field named Redis, so ardanlabs/conf reads it from
// REDIS_ADDR, REDIS_PASSWORD, REDIS_DB, REDIS_DIAL_TIMEOUT, ...
//
// The timeouts are short on purpose: Redis holds caches, rate limits and
// sessions, and a slow Redis must surface as a quick error rather than
// stall every request behind it.
type Config struct {
	Addr         string        `conf:"default:127.0.0.1:6379"`
	Password     string        `conf:"mask"`
	DB           int           `conf:"default:0"`
	DialTimeout  time.Duration `conf:"default:2s"`
	ReadTimeout  time.Duration `conf:"default:1s"`
	WriteTimeout time.Duration `conf:"default:1s"`
	// CommandTimeout bounds each command (and pipeline) as a whole:
	// waiting for a connection, the retries and the reply. A stalled
	// Redis then costs a request this much before its fallback (the
	// limiter lets it through), not the ~7 s the socket timeouts and
	// go-redis' retries added up to.
	CommandTimeout time.Duration `conf:"default:250ms,help:deadline of each Redis command on a request's path, retries included"`
	// KeyPrefix starts every key and channel the services share on this
	// Redis (revocations, rate limits), so that two deployments on one
	// Redis (staging beside production, parallel test stacks) never see
	// each other's. Pub/Sub channels ignore DB, hence a prefix.
	KeyPrefix string `conf:"default:ponto:,help:prefix of the Redis keys and channels the services share; one per deployment sharing a Redis"`
}

// Defaults used when a Config is built by hand and leaves a timeout at
// zero; they match the conf defaults above.
const (
	defaultDialTimeout  = 2 * time.Second
	defaultReadTimeout  = time.Second
	defaultWriteTimeout = time.Second
	defaultCommand      = 250 * time.Millisecond
)

// Open builds a client with OpenTelemetry tracing. It does not dial:
// go-redis connects on first use, so a service starts while Redis is down
// and Ping reports it not-ready.
//
// Spans carry the command name but not its arguments (db.statement is
// off), since keys and values may hold tokens or personal data. They are
// made only when an exporter is configured (telemetry.Enabled): redisotel
// renders every pipeline's commands and looks up its caller's frame
// before it asks the tracer for a span, which without an exporter records
// nothing; that was 3% of what timekeeping allocated under the clock-in
// benchmark (docs/performance.md).
func Open(cfg Config) (*redis.Client, error) {
	if cfg.Addr == "" {
		return nil, errors.New("redisclient: empty address")
	}
	c := redis.NewClient(&redis.Options{
		Addr:         cfg.Addr,
		Password:     cfg.Password,
		DB:           cfg.DB,
		DialTimeout:  orDefault(cfg.DialTimeout, defaultDialTimeout),
		ReadTimeout:  orDefault(cfg.ReadTimeout, defaultReadTimeout),
		WriteTimeout: orDefault(cfg.WriteTimeout, defaultWriteTimeout),
		// The command's context deadline reaches the socket: without it
		// go-redis waits ReadTimeout per attempt whatever the caller's ctx.
		ContextTimeoutEnabled: true,
	})
	c.AddHook(deadline(orDefault(cfg.CommandTimeout, defaultCommand)))
	if !telemetry.Enabled() {
		return c, nil
	}
	if err := redisotel.InstrumentTracing(c, redisotel.WithDBStatement(false)); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("redisclient: tracing: %w", err)
	}
	return c, nil
}

// deadline is a hook giving every command and pipeline at most d, unless
// the caller's context ends sooner. Blocking commands (BLPOP, XREAD with
// BLOCK...) wait as long as they ask, so they are left alone.
type deadline time.Duration

func (d deadline) DialHook(next redis.DialHook) redis.DialHook { return next }

func (d deadline) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if blocking[cmd.Name()] {
			return next(ctx, cmd)
		}
		ctx, cancel := context.WithTimeout(ctx, time.Duration(d))
		defer cancel()
		return next(ctx, cmd)
	}
}

func (d deadline) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		ctx, cancel := context.WithTimeout(ctx, time.Duration(d))
		defer cancel()
		return next(ctx, cmds)
	}
}

// blocking are the commands that wait on the server by design.
var blocking = map[string]bool{
	"blpop": true, "brpop": true, "brpoplpush": true, "blmove": true, "blmpop": true,
	"bzpopmin": true, "bzpopmax": true, "bzmpop": true, "xread": true, "xreadgroup": true, "wait": true,
}

// Ping returns a readiness check that fails while Redis does not answer.
func Ping(c *redis.Client) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		if err := c.Ping(ctx).Err(); err != nil {
			return fmt.Errorf("redisclient: ping %s: %w", c.Options().Addr, err)
		}
		return nil
	}
}

// Collector exports the client's connection pool statistics (hits,
// misses, timeouts, total, idle and stale connections) as
// redis_pool_* series, and those of its pipeline pool (go-redis keeps
// one apart for pipelines: the rate limits' automatic pipeline) as
// redis_pipeline_pool_*, for the service's metrics registry.
func Collector(c *redis.Client) prometheus.Collector {
	return collectors{
		redisprometheus.NewCollector("redis", "", c),
		redisprometheus.NewCollector("redis", "pipeline", pipelinePool{c}),
	}
}

// pipelinePool is the client's pipeline pool as redisprometheus reads a
// pool: all zero while go-redis has none.
type pipelinePool struct{ c *redis.Client }

func (p pipelinePool) PoolStats() *redis.PoolStats {
	if s := p.c.PoolStats().PipelineStats; s != nil {
		return (*redis.PoolStats)(s)
	}
	return &redis.PoolStats{}
}

// collectors is several collectors registered as one.
type collectors []prometheus.Collector

func (cs collectors) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range cs {
		c.Describe(ch)
	}
}

func (cs collectors) Collect(ch chan<- prometheus.Metric) {
	for _, c := range cs {
		c.Collect(ch)
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
