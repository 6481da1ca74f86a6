package jwtauth_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
)

// errorHandler stands in for the shared one: *apierr.Error to its status.
func errorHandler(c *fiber.Ctx, err error) error {
	if e, ok := apierr.As(err); ok {
		return c.Status(e.Status).JSON(e)
	}
	return c.Status(fiber.StatusInternalServerError).SendString(err.Error())
}

func newApp(v *jwtauth.Verifier) *fiber.App {
	app := fiber.New(fiber.Config{ErrorHandler: errorHandler})
	me := func(c *fiber.Ctx) error {
		claims, ok := jwtauth.FromContext(c)
		if !ok {
			return c.SendStatus(fiber.StatusTeapot) // makes a missing Locals visible
		}
		return c.JSON(claims)
	}
	app.Get("/me", v.Middleware(), me)
	app.Get("/admin", v.Middleware(), jwtauth.RequireRole(jwtauth.RoleAdmin), me)
	app.Get("/empresa", v.Middleware(), jwtauth.RequireRole(jwtauth.RoleEmpresa, jwtauth.RoleAdmin), me)
	// RequireRole without Middleware: a wiring mistake must fail closed.
	app.Get("/unwired", jwtauth.RequireRole(jwtauth.RoleAdmin), me)
	// Caller behind the middleware, and without it (a wiring mistake).
	caller := func(c *fiber.Ctx) error {
		claims, err := jwtauth.Caller(c)
		if err != nil {
			return err
		}
		return c.JSON(claims)
	}
	app.Get("/caller", v.Middleware(), caller)
	app.Get("/caller-unwired", caller)
	app.Get("/public", func(c *fiber.Ctx) error {
		if _, ok := jwtauth.FromContext(c); ok {
			return c.SendStatus(fiber.StatusTeapot)
		}
		return c.SendStatus(fiber.StatusNoContent)
	})
	return app
}

type response struct {
	status  int
	body    apierr.Error
	claims  jwtauth.Claims
	headers http.Header
	raw     string
}

func do(t *testing.T, app *fiber.App, path, authorization string) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := app.Test(req, -1)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := response{status: resp.StatusCode, headers: resp.Header, raw: string(raw)}
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(raw, &r.claims); err != nil {
			t.Fatalf("claims body %q: %v", raw, err)
		}
	} else if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			t.Fatalf("error body %q: %v", raw, err)
		}
	}
	return r
}

func TestMiddlewareRejects(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	app := newApp(iss.NewVerifier(t))
	expired := iss.Mint(t, jwtauth.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			IssuedAt:  jwt.NewNumericDate(time.Now().Add(-20 * time.Minute)),
			ExpiresAt: jwt.NewNumericDate(time.Now().Add(-5 * time.Minute)),
		},
		Role: jwtauth.RoleAdmin,
	})

	tests := []struct {
		name          string
		authorization string
		wantMessage   string
	}{
		{"missing header", "", "token ausente"},
		{"blank header", "   ", "token ausente"},
		{"basic scheme", "Basic dXNlcjpwYXNz", "token inválido"},
		{"raw token without scheme", iss.Admin(t), "token inválido"},
		{"bearer without token", "Bearer", "token inválido"},
		{"bearer with blank token", "Bearer    ", "token inválido"},
		{"two tokens", "Bearer " + iss.Admin(t) + " " + iss.Admin(t), "token inválido"},
		{"garbage token", "Bearer abc.def.ghi", "token inválido"},
		{"expired token", "Bearer " + expired, "token inválido"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, app, "/me", tt.authorization)
			if r.status != http.StatusUnauthorized {
				t.Fatalf("status = %d, want 401 (body %s)", r.status, r.raw)
			}
			if r.body.Message != tt.wantMessage || r.body.Code != "nao_autenticado" {
				t.Errorf("body = %s, want message %q", r.raw, tt.wantMessage)
			}
			// The client never learns why a token failed.
			for _, leak := range []string{"expired", "jwt", "malformed", "kid", "signature"} {
				if strings.Contains(strings.ToLower(r.raw), leak) {
					t.Errorf("body %s leaks %q", r.raw, leak)
				}
			}
			if got := r.headers.Get("WWW-Authenticate"); got != "Bearer" {
				t.Errorf("WWW-Authenticate = %q, want Bearer", got)
			}
		})
	}
}

func TestMiddlewareAcceptsValidToken(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	app := newApp(iss.NewVerifier(t))

	for _, scheme := range []string{"Bearer", "bearer", "BEARER"} {
		r := do(t, app, "/me", scheme+" "+iss.Funcionario(t, 7, 9))
		if r.status != http.StatusOK {
			t.Fatalf("%s: status = %d, body %s", scheme, r.status, r.raw)
		}
		if r.claims.Role != jwtauth.RoleFuncionario || r.claims.EmpresaID != 7 || r.claims.FuncionarioID != 9 {
			t.Errorf("%s: FromContext claims = %+v", scheme, r.claims)
		}
	}
}

func TestFromContextWithoutMiddleware(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	app := newApp(iss.NewVerifier(t))
	if r := do(t, app, "/public", "Bearer "+iss.Admin(t)); r.status != http.StatusNoContent {
		t.Errorf("status = %d, want 204: FromContext must report no claims", r.status)
	}
}

func TestCaller(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	app := newApp(iss.NewVerifier(t))
	if r := do(t, app, "/caller", "Bearer "+iss.Empresa(t, 7)); r.status != http.StatusOK || r.claims.EmpresaID != 7 {
		t.Errorf("behind the middleware: %d %s", r.status, r.raw)
	}
	// Without the middleware: 401, never an anonymous caller.
	r := do(t, app, "/caller-unwired", "Bearer "+iss.Empresa(t, 7))
	if r.status != http.StatusUnauthorized || r.body.Code != "nao_autenticado" || r.body.Message != "token ausente" {
		t.Errorf("unwired: %d %s", r.status, r.raw)
	}
}

func TestRequireRole(t *testing.T) {
	iss := jwttest.NewIssuer(t)
	app := newApp(iss.NewVerifier(t))

	tests := []struct {
		name       string
		path       string
		token      string
		wantStatus int
	}{
		{"admin on admin route", "/admin", iss.Admin(t), http.StatusOK},
		{"empresa on admin route", "/admin", iss.Empresa(t, 1), http.StatusForbidden},
		{"funcionario on admin route", "/admin", iss.Funcionario(t, 1, 2), http.StatusForbidden},
		{"empresa on empresa|admin route", "/empresa", iss.Empresa(t, 1), http.StatusOK},
		{"admin on empresa|admin route", "/empresa", iss.Admin(t), http.StatusOK},
		{"funcionario on empresa|admin route", "/empresa", iss.Funcionario(t, 1, 2), http.StatusForbidden},
		{"no token on admin route", "/admin", "", http.StatusUnauthorized},
		{"without Middleware", "/unwired", iss.Admin(t), http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			auth := ""
			if tt.token != "" {
				auth = "Bearer " + tt.token
			}
			r := do(t, app, tt.path, auth)
			if r.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d (body %s)", r.status, tt.wantStatus, r.raw)
			}
			if tt.wantStatus == http.StatusForbidden &&
				(r.body.Message != "acesso não permitido para este perfil" || r.body.Code != "acesso_negado") {
				t.Errorf("403 body = %s", r.raw)
			}
		})
	}
}
