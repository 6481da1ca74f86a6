package request

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
)

// CompanyBody is the body of a company's create route: it may name the
// company it is for.
type CompanyBody interface {
	// Empresa is the empresaId sent, 0 when absent.
	Empresa() int64
}

// Body reads the caller and the JSON body into in, and refuses a body that
// names another company than the caller's (SameEmpresa), in that order.
func Body(c *fiber.Ctx, in CompanyBody) (*jwtauth.Claims, error) {
	caller, err := jwtauth.Caller(c)
	if err != nil {
		return nil, err
	}
	if err := httpserver.DecodeJSON(c, in); err != nil {
		return nil, err
	}
	if err := SameEmpresa(caller, in.Empresa()); err != nil {
		return nil, err
	}
	return caller, nil
}

// CallerPage reads the caller and the page asked for (?pagina=&tamanho=).
func CallerPage(c *fiber.Ctx) (*jwtauth.Claims, page.Page, error) {
	caller, err := jwtauth.Caller(c)
	if err != nil {
		return nil, page.Page{}, err
	}
	p, err := page.FromQuery(c)
	if err != nil {
		return nil, page.Page{}, err
	}
	return caller, p, nil
}

// Get is the handler of GET /{things}/{param}: the thing get finds by the
// path id among the caller's company's, as JSON. The store answers 404
// for another company's, so nothing of it is revealed.
func Get[T any](param string, get func(ctx context.Context, empresaID, id int64) (T, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller, err := jwtauth.Caller(c)
		if err != nil {
			return err
		}
		return ByID(param, func(ctx context.Context, id int64) (T, error) { return get(ctx, caller.EmpresaID, id) })(c)
	}
}

// ByID is the handler of an internal GET .../{param}: what get finds by
// the path id, as JSON. Internal callers are ponto's services, so there is
// no caller to check.
func ByID[T any](param string, get func(ctx context.Context, id int64) (T, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := httpserver.PathID(c, param)
		if err != nil {
			return err
		}
		v, err := get(c.UserContext(), id)
		if err != nil {
			return err
		}
		return c.JSON(v)
	}
}

// List is the handler of GET /{things}?pagina=&tamanho=: a page of the
// caller's company's things, as list returns them.
func List[T any](list func(ctx context.Context, empresaID int64, p page.Page) ([]T, int, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller, p, err := CallerPage(c)
		if err != nil {
			return err
		}
		items, total, err := list(c.UserContext(), caller.EmpresaID, p)
		if err != nil {
			return err
		}
		return c.JSON(page.NewResult(items, p, total))
	}
}

// Create is the handler of POST /{things}: the body read into an I (Body:
// one naming another company is refused), made a thing for the caller's
// company by check, stored by create and answered as JSON.
func Create[I any, PI interface {
	*I
	CompanyBody
}, T any](check func(in I, empresaID int64) (T, error), create func(ctx context.Context, v T) (T, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var in I
		caller, err := Body(c, PI(&in))
		if err != nil {
			return err
		}
		v, err := check(in, caller.EmpresaID)
		if err != nil {
			return err
		}
		if v, err = create(c.UserContext(), v); err != nil {
			return err
		}
		return c.JSON(v)
	}
}

// Collection mounts a company's collection on r, for the company role:
// POST path (create), GET path?pagina=&tamanho= (a page of list) and GET
// path/:param (get: 404 for another company's).
func Collection[T, L any](r fiber.Router, path, param string, create fiber.Handler,
	list func(ctx context.Context, empresaID int64, p page.Page) ([]L, int, error),
	get func(ctx context.Context, empresaID, id int64) (T, error)) {
	empresa := jwtauth.RequireRole(jwtauth.RoleEmpresa)
	r.Post(path, empresa, create)
	r.Get(path, empresa, List(list))
	r.Get(path+"/:"+param, empresa, Get(param, get))
}
