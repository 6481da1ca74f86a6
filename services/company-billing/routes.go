package main

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/company-billing/internal/empresas"
	"github.com/ponto/ponto/services/company-billing/internal/estabelecimentos"
	"github.com/ponto/ponto/services/company-billing/internal/webhooks"
)

// mountRoutes registers every route of the service on srv (each feature
// package names the roles of its routes), and db's pool statistics among
// its metrics.
//
// Public:
//
//	POST /empresas                                  no token   empresas (cadastro.go)
//	GET  /empresas/me                               company    empresas (me.go)
//	PATCH /empresas/me                              company    empresas (alterar.go)
//	GET  /admin/empresas                            admin      empresas (admin.go)
//	PUT  /admin/empresas/{empresaId}/bloquear       admin      empresas (admin.go)
//	PUT  /admin/empresas/{empresaId}/desbloquear    admin      empresas (admin.go)
//	POST /webhooks/stripe                           Stripe     webhooks
//	GET  /empresas/me/estabelecimentos              company    estabelecimentos
//	POST /empresas/me/estabelecimentos              company    estabelecimentos
//	PATCH /empresas/me/estabelecimentos/{estabelecimentoId}  company  estabelecimentos
//
// Internal (by service token):
//
//	POST /internal/empresas/login                   auth       empresas (internal.go)
//	GET  /internal/empresas/{empresaId}             auth, timekeeping  empresas (internal.go)
//	GET  /internal/empresas/{empresaId}/estabelecimentos/{estabelecimentoId}  employee  estabelecimentos
func mountRoutes(srv *httpserver.Server, verifier *jwtauth.Verifier, db *pgxpool.Pool, companies *empresas.Service,
	establishments *estabelecimentos.Handlers, hooks *webhooks.Handler) {
	srv.Metrics.MustRegister(database.Collector(db))
	companies.Public(srv.Public, verifier)
	hooks.Mount(srv.Public)
	establishments.Public(srv.Public, verifier)

	companies.Internal(srv.Internal, verifier)
	establishments.Internal(srv.Internal, verifier)
}
