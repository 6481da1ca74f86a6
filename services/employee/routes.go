package main

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/employee/internal/departamento"
	"github.com/ponto/ponto/services/employee/internal/escala"
	"github.com/ponto/ponto/services/employee/internal/funcionario"
)

// mountRoutes registers every route of the service: the public ones
// behind the token verifier (each handler package names the roles of its
// routes), the internal API on the internal listener.
//
// Public (company role unless noted):
//
//	POST  /funcionarios                                          funcionario
//	GET   /funcionarios                                          funcionario
//	GET   /funcionarios/{funcionarioId}  (company or himself)    funcionario
//	PATCH /funcionarios/{funcionarioId}                          funcionario
//	GET   /departamentos/{departamentoId}/{segmento}/funcionarios funcionario
//	POST  /departamentos, GET /departamentos[/{departamentoId}]  departamento
//	POST  /escalatrabalhos, GET /escalatrabalhos[/{escalaId}]    escala
//
// Internal (by service token; the callers in funcionario/internal.go and
// escala/handlers.go, as docs/internal-api.md lists them).
func mountRoutes(srv *httpserver.Server, verifier *jwtauth.Verifier, db *pgxpool.Pool, revoker funcionario.Revoker,
	clk *clock.Clock, ests funcionario.Estabelecimentos) {
	srv.Metrics.MustRegister(database.Collector(db))
	departamentos := departamento.NewStore(db)
	escalas := escala.NewHandlers(escala.NewStore(db))
	deps := departamento.NewHandlers(departamentos)
	funcs := funcionario.NewHandlers(funcionario.NewStore(db), departamentos, revoker, clk, ests)

	public := srv.Public.Group("", verifier.Middleware())
	funcs.Public(public)
	deps.Public(public)
	escalas.Public(public)

	funcs.Internal(srv.Internal, verifier)
	escalas.Internal(srv.Internal, verifier)
}
