package empresas

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/contracttest"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/services/company-billing/internalapi"
)

// TestInternalAPIContract runs both internal routes on companies whose
// records fill every field (a subscription status, a responsible person,
// one of them blocked), and checks that each answer decodes strictly into
// services/company-billing/internalapi's Empresa, that the answers fill
// every field of it, and that the package's client reads the same.
func TestInternalAPIContract(t *testing.T) {
	e := newEnv(t)
	var ids []int64
	for n := range 2 {
		req := validRequest(n)
		req["responsavel"] = map[string]any{"nome": "Ana Souza", "cpf": "529.982.247-25"}
		ids = append(ids, savedID(t, e.register(t, req, nil)))
	}
	if _, err := e.db.Exec(t.Context(), `UPDATE empresas SET assinatura_status = 'active'`); err != nil {
		t.Fatal(err)
	}
	blocked := ids[1]
	if a := do(t, http.MethodPut, e.public+"/admin/empresas/"+strconv.FormatInt(blocked, 10)+"/bloquear", nil,
		bearer(e.iss.Admin(t))); a.status != http.StatusOK {
		t.Fatalf("bloquear: %d %s", a.status, a.raw)
	}
	// Generous: the login's bcrypt under the race detector on a busy
	// machine takes seconds.
	api := internalapi.New(e.internal, svcclient.WithTimeout(30*time.Second), svcclient.WithTokens(e.iss.Tokens(t, "auth")))

	t.Run("get", func(t *testing.T) {
		var got []internalapi.Empresa
		for _, id := range ids {
			a := do(t, http.MethodGet, e.internal+"/internal/empresas/"+strconv.FormatInt(id, 10), nil, e.asAuth(t))
			if a.status != http.StatusOK {
				t.Fatalf("%d %s", a.status, a.raw)
			}
			got = append(got, contracttest.Decode[internalapi.Empresa](t, a.raw))
		}
		contracttest.Filled(t, got)
		viaClient, err := api.GetEmpresa(t.Context(), blocked)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got[1], viaClient); diff != "" {
			t.Fatalf("the client's read against the route's answer (-route +client):\n%s", diff)
		}
	})
	t.Run("login", func(t *testing.T) {
		email, password := validRequest(0)["email"].(string), validRequest(0)["password"].(string)
		a := do(t, http.MethodPost, e.internal+"/internal/empresas/login", internalapi.Login{Email: email, Password: password}, e.asAuth(t))
		if a.status != http.StatusOK {
			t.Fatalf("%d %s", a.status, a.raw)
		}
		got := contracttest.Decode[internalapi.Empresa](t, a.raw)
		// A blocked company is refused (403), never answered.
		contracttest.Filled(t, []internalapi.Empresa{got}, "bloqueada")
		viaClient, err := api.Login(t.Context(), email, password)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got, viaClient); diff != "" {
			t.Fatalf("the client's read against the route's answer (-route +client):\n%s", diff)
		}
		if _, err := api.Login(t.Context(), email, "errada123"); !hasStatus(err, http.StatusUnauthorized) {
			t.Errorf("a wrong password: %v, want 401", err)
		}
		if _, err := api.Login(t.Context(), validRequest(1)["email"].(string), password); !hasStatus(err, http.StatusForbidden) {
			t.Errorf("the blocked company's login: %v, want 403", err)
		}
	})
}

func hasStatus(err error, status int) bool {
	ae, ok := apierr.As(err)
	return ok && ae.Status == status
}
