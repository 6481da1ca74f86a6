package main

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/internal/afd"
	"github.com/ponto/ponto/services/timekeeping/internal/afdexport"
	"github.com/ponto/ponto/services/timekeeping/internal/ajuste"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
	"github.com/ponto/ponto/services/timekeeping/internal/comprovante"
	"github.com/ponto/ponto/services/timekeeping/internal/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/empresa"
	"github.com/ponto/ponto/services/timekeeping/internal/espelho"
	"github.com/ponto/ponto/services/timekeeping/internal/falta"
	"github.com/ponto/ponto/services/timekeeping/internal/feriado"
	locais "github.com/ponto/ponto/services/timekeeping/internal/local"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/relatorio"
)

// dependencies are what the routes use: the database, the peers'
// internal APIs, the clock, the REP-P's identification and how long the
// clock-in may keep what it reads (zero: not at all).
type dependencies struct {
	db        *pgxpool.Pool
	employees *employee.Client
	companies *empresa.Client
	clock     *clock.Clock
	rep       afd.REP
	// employeeCacheTTL: the clock-in's employee records (employee.Cached).
	employeeCacheTTL time.Duration
	// locaisCacheTTL: each company's work places for the geofence check.
	locaisCacheTTL time.Duration
}

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
//	GET  /registropontos/afd                                 company    afdexport
//	GET  /registropontos/{registroId}/comprovante            both       comprovante
//	GET  /registropontos/funcionario/{funcionarioId}/espelho both       espelho
//	POST /registropontos/feriados                            company    feriado
//	GET  /registropontos/feriados                            company    feriado
//	DEL  /registropontos/feriados/{data}                     company    feriado
//	POST /registropontos/locais-trabalho                     company    local
//	GET  /registropontos/locais-trabalho                     company    local
//	DEL  /registropontos/locais-trabalho/{localId}           company    local
func mountRoutes(srv *httpserver.Server, verifier *jwtauth.Verifier, d dependencies) {
	registros := registro.NewStore(d.db, d.clock)
	places := locais.NewStore(d.db, d.locaisCacheTTL)
	// Only the clock-in reads employees through the cache: the other
	// routes are rare and show or check the current record.
	clockInEmployees := employee.NewCached(d.employees, d.employeeCacheTTL, employee.CacheSize)

	public := srv.Public.Group("", verifier.Middleware())
	registro.NewHandlers(registros, clockInEmployees, d.clock, places).Public(public)
	ajuste.NewHandlers(ajuste.NewStore(d.db), registros, d.clock).Public(public)
	falta.NewHandlers(falta.NewStore(d.db), d.employees, d.clock).Public(public)
	relatorios := relatorio.NewStore(d.db)
	relatorio.NewHandlers(relatorios, d.employees, d.clock).Public(public)
	afdexport.NewHandlers(afdexport.NewStore(d.db), d.companies, d.clock, d.rep).Public(public)
	comprovante.NewHandlers(comprovante.NewStore(d.db), d.employees, d.companies, d.rep).Public(public)
	espelho.NewHandlers(espelho.NewStore(d.db), relatorios, d.employees, d.companies, d.clock).Public(public)
	feriado.NewHandlers(d.db, d.clock).Public(public)
	locais.NewHandlers(places, d.clock).Public(public)
}
