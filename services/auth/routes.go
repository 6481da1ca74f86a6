package main

import (
	"fmt"
	"log/slog"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/services/auth/internal/apidoc"
	"github.com/ponto/ponto/services/auth/internal/keys"
)

// authBodyLimit bounds the bodies of the /auth routes, which carry an
// e-mail and a password, code or token: a few hundred bytes at most.
const authBodyLimit = 4 << 10

// newServer builds both listeners and registers every route, each public
// one behind a per-address rate limit (the /auth ones also behind a body
// limit).
//
// Public:
//
//	GET  /.well-known/jwks.json             keys
//	GET  /openapi.yaml, /openapi.html       apidoc
//	POST /auth/login                        login (empresa.go: companies and admins)
//	POST /auth/login/funcionario/codigo     login (funcionario.go)
//	POST /auth/login/funcionario            login (funcionario.go)
//	POST /auth/refresh-token                tokens
//	POST /auth/logout                       tokens
//
// Internal:
//
//	POST /internal/servicos/token           tokens (servicos.go: a service's secret for its token)
//	POST /internal/tokens/revogar           tokens (service token of employee or company-billing)
func newServer(cfg Config, log *slog.Logger, rdb *redis.Client, d *dependencies) (*httpserver.Server, error) {
	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "redis", Ping: redisclient.Ping(rdb)},
	)
	perIP, err := d.limits.PerIP("public", cfg.Rate.PerIP, ratelimit.FailOpen)
	if err != nil {
		return nil, err
	}
	srv.Metrics.MustRegister(redisclient.Collector(rdb))
	srv.Public.Get(keys.JWKSPath, perIP, d.keyring.Handler())
	// The API's OpenAPI document and reference page: auth's public
	// listener is the one every client already reaches.
	if err := apidoc.Routes(srv.Public, perIP); err != nil {
		return nil, err
	}
	auth := srv.Public.Group("/auth", perIP, limitBody(authBodyLimit))
	d.login.Routes(auth)
	d.tokens.Routes(auth)
	d.services.Routes(srv.Internal)
	d.tokens.InternalRoutes(srv.Internal, d.verifier.Services("employee", "company-billing"))
	return srv, nil
}

func limitBody(n int) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if len(httpserver.Body(c)) > n {
			return domainerr.TooLarge(fmt.Sprintf("o corpo deve ter no máximo %d bytes", n))
		}
		return c.Next()
	}
}
