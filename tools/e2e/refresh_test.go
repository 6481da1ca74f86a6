package e2e

import (
	"net/http"
	"testing"
)

// TestRefreshTokenRotation: through the gateway, a refresh answers the
// refresh token's successor; sending the rotated token again (a thief's
// replay, or the victim's) ends that session, successor included, and
// leaves the account's other sessions alone (RFC 9700).
func TestRefreshTokenRotation(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Empresa Rotação")
	other := e.login(t, c.Email, c.Password).str("refreshToken")
	refresh := func(token string) answer {
		return e.api.do(t, request{Method: http.MethodPost, Path: "/auth/refresh-token", CheckRequest: true,
			Body: map[string]string{"refreshToken": token}})
	}

	next := refresh(c.Refresh).expect(t, http.StatusOK).object(t).str("refreshToken")
	if next == "" || next == c.Refresh {
		t.Fatalf("refresh answered refreshToken %q; want a new one", next)
	}
	last := refresh(next).expect(t, http.StatusOK).object(t).str("refreshToken")

	refresh(c.Refresh).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	refresh(last).expectError(t, http.StatusUnauthorized, "refresh_token_invalido")
	refresh(other).expect(t, http.StatusOK)
}
