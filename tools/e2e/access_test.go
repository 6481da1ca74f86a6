package e2e

import (
	"net/http"
	"testing"
)

// TestAccessEndsAtOnce: a deactivated employee's very next request is
// refused in every service, though his access token has not expired, and
// so is his refresh; a blocked company's token and its employees' stop
// working on the next request too. A new login after reactivation works.
func TestAccessEndsAtOnce(t *testing.T) {
	e := sharedEnv(t)
	a := e.registerCompany(t, "Empresa Acesso")
	e.setUp(t, a)
	f, g := e.hire(t, a, "Ana Acesso"), e.hire(t, a, "Bruno Acesso")
	e.punch(t, f)

	e.api.do(t, request{Method: http.MethodPatch, Path: "/funcionarios/" + itoa(f.ID), Token: a.Token,
		Body: map[string]any{"ativo": false}}).expect(t, http.StatusOK)
	punch := request{Method: http.MethodPost, Path: "/registropontos", Token: f.Token,
		Body: map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": f.ID}}
	e.api.do(t, punch).expect(t, http.StatusForbidden)
	e.api.do(t, request{Method: http.MethodGet, Path: "/funcionarios/" + itoa(f.ID), Token: f.Token}).expect(t, http.StatusForbidden)
	raw, ctype := multipartFile("foto", "foto.png", "image/png", pngImage(t, 20, 20))
	e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios/" + itoa(f.ID) + "/foto", Token: f.Token, Raw: raw, Type: ctype}).
		expect(t, http.StatusForbidden)
	e.api.do(t, request{Method: http.MethodPost, Path: "/auth/refresh-token", Body: map[string]string{"refreshToken": f.Refresh}}).
		expect(t, http.StatusUnauthorized)
	// His colleague is untouched.
	e.punch(t, g)

	// Reactivated, he logs in again and punches.
	e.api.do(t, request{Method: http.MethodPatch, Path: "/funcionarios/" + itoa(f.ID), Token: a.Token,
		Body: map[string]any{"ativo": true}}).expect(t, http.StatusOK)
	e.employeeLogin(t, f)
	e.punch(t, f)

	// The company blocked: its token and its employees' end at once.
	admin := e.adminToken(t)
	e.api.do(t, request{Method: http.MethodPut, Path: "/admin/empresas/" + itoa(a.ID) + "/bloquear", Token: admin}).expect(t, http.StatusOK)
	e.api.do(t, request{Method: http.MethodGet, Path: "/empresas/me", Token: a.Token}).expect(t, http.StatusForbidden)
	e.api.do(t, request{Method: http.MethodGet, Path: "/funcionarios", Token: a.Token}).expect(t, http.StatusForbidden)
	e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos", Token: g.Token,
		Body: map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": g.ID}}).expect(t, http.StatusForbidden)
}
