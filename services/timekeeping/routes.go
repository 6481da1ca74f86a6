package main

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/internal/ajuste"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
	"github.com/ponto/ponto/services/timekeeping/internal/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/falta"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/relatorio"
)

// mountRoutes registers every route of the service, all public and behind
// the token verifier (each handler package names the roles of its routes).
// The service has no internal API of its own.
//
//	POST /registropontos                                     employee   registro
//	GET  /registropontos/me                                  employee   registro
//	PUT  /registropontos/solicitar/{registroId}              employee   ajuste
//	GET  /registropontos/ajustes                             company    ajuste
//	PUT  /registropontos/{registroId}/aprovar                company    ajuste
//	PUT  /registropontos/{registroId}/reprovar               company    ajuste
//	POST /registropontos/{funcionarioId}/marcar-falta/{data} company    falta
//	GET  /registropontos/departamento/{departamento}         company    relatorio
func mountRoutes(srv *httpserver.Server, verifier *jwtauth.Verifier, db *pgxpool.Pool,
	employees *employee.Client, clk *clock.Clock) {
	registros := registro.NewStore(db, clk)

	public := srv.Public.Group("", verifier.Middleware())
	registro.NewHandlers(registros, employees, clk).Public(public)
	ajuste.NewHandlers(ajuste.NewStore(db), registros, clk).Public(public)
	falta.NewHandlers(falta.NewStore(db), employees, clk).Public(public)
	relatorio.NewHandlers(relatorio.NewStore(db), employees, clk).Public(public)
}
