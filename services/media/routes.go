package main

import (
	"log/slog"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/media/internal/documento"
	"github.com/ponto/ponto/services/media/internal/foto"
	"github.com/ponto/ponto/services/media/internal/objectstore"
)

// newServer builds both listeners: readiness pings MinIO (server up,
// bucket present), and the public routes sit behind the token verifier.
//
// Public (the employee himself or his company):
//
//	POST /funcionarios/{funcionarioId}/foto                  foto (upload.go)
//	GET  /funcionarios/{funcionarioId}/foto[?tamanho=thumb]  foto (download.go)
//
// Internal (service to service):
//
//	PUT|GET|DELETE /internal/documentos/afastamentos/{empresaId}/{afastamentoId}/{versao}  timekeeping  documento
func newServer(cfg Config, log *slog.Logger, store *objectstore.Store,
	verifier *jwtauth.Verifier, employees *employeeapi.Client) *httpserver.Server {
	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "minio", Ping: store.Ping},
		// Ready once auth's keys are fetched: no 401 for a valid token.
		httpserver.Check{Name: "jwks", Ping: verifier.Ready},
	)
	fotos := foto.NewHandlers(store, employees, cfg.Photo, log)
	fotos.Public(srv.Public.Group("", verifier.Middleware()))
	documento.NewHandlers(store).Internal(srv.Internal, verifier)
	return srv
}
