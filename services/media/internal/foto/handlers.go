// Package foto serves employees' profile photos: the upload (endpoint 8
// of the contract) checks, re-encodes and stores them in MinIO and points
// the employee's fotoProfile at them; the download streams them back.
//
//	handlers.go  the two routes and who may call them
//	upload.go    reading the multipart upload, storing and replacing a photo
//	download.go  streaming a photo with its caching headers
//	image.go     recognising, checking and re-encoding an image
//	keys.go      object names and the fotoProfile URL
//	rules.go     limits, configuration and the error answers
package foto

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/media/internal/objectstore"
)

// Handlers serve the photo routes.
type Handlers struct {
	store     *objectstore.Store
	employees *employeeapi.Client
	cfg       Config
	log       *slog.Logger
	// slots bounds concurrent decodes (Config.MaxConcurrent).
	slots chan struct{}
}

// NewHandlers returns the handlers; store holds the images, employees is
// the employee service's internal API (the employee's company and
// fotoProfile).
func NewHandlers(store *objectstore.Store, employees *employeeapi.Client, cfg Config, log *slog.Logger) *Handlers {
	return &Handlers{store: store, employees: employees, cfg: cfg, log: log,
		slots: make(chan struct{}, max(cfg.MaxConcurrent, 1))}
}

// Public mounts the routes on r, which must already verify the token.
// Both admit the employee himself and his company:
//
//	POST /funcionarios/{funcionarioId}/foto                 upload (multipart, part foto)
//	GET  /funcionarios/{funcionarioId}/foto[?tamanho=thumb] download
func (h *Handlers) Public(r fiber.Router) {
	owner := jwtauth.RequireRole(jwtauth.RoleEmpresa, jwtauth.RoleFuncionario)
	r.Post("/funcionarios/:funcionarioId/foto", owner, h.upload)
	r.Get("/funcionarios/:funcionarioId/foto", owner, h.download)
}

// errInactive refuses a deactivated employee his own photo routes: his
// token may still be valid for a few minutes, his access is not.
var errInactive = domainerr.Forbidden("funcionario_inativo", "funcionário inativo")

// owner returns the employee named in the path when the caller may touch
// his photo: he himself, or his company. A colleague, another company and
// an unknown id all get the same 404. The company comes from the employee
// service, never from the request.
func (h *Handlers) owner(c *fiber.Ctx) (employeeapi.Funcionario, error) {
	caller, ok := jwtauth.FromContext(c)
	if !ok { // the routes are mounted behind the verifier: a wiring bug
		return employeeapi.Funcionario{}, domainerr.Unauthenticated("nao_autenticado", "token ausente")
	}
	id, err := strconv.ParseInt(c.Params("funcionarioId"), 10, 64)
	if err != nil || id < 1 {
		return employeeapi.Funcionario{}, domainerr.InvalidField("funcionarioId", "deve ser um inteiro positivo")
	}
	if caller.IsFuncionario() && !caller.IsFuncionarioSelf(id) {
		return employeeapi.Funcionario{}, errNotFound
	}
	f, err := h.employees.GetFuncionario(c.UserContext(), id)
	if e, ok := apierr.As(err); ok && e.Status == http.StatusNotFound {
		return employeeapi.Funcionario{}, errNotFound.Wrap(err)
	}
	if err != nil {
		return employeeapi.Funcionario{}, err
	}
	if f.ID != id || !caller.OwnsEmpresa(f.EmpresaID) {
		return employeeapi.Funcionario{}, errNotFound
	}
	if caller.IsFuncionario() && !f.Ativo {
		return employeeapi.Funcionario{}, errInactive
	}
	return f.Funcionario, nil
}

// acquire waits for a decode slot, giving up with the request.
func (h *Handlers) acquire(ctx context.Context) (release func(), err error) {
	select {
	case h.slots <- struct{}{}:
		return func() { <-h.slots }, nil
	case <-ctx.Done():
		return nil, domainerr.Unavailable("decodificação de imagens", ctx.Err())
	}
}
