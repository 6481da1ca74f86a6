package empresas

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// zoneEverywhere fails unless company id shows zone in every view: the
// company's own, the internal one timekeeping reads, the admin listing,
// and the row.
func (e *env) zoneEverywhere(t *testing.T, id int64, zone string) {
	t.Helper()
	me := decodeAs[wireEmpresa](t, do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, id))))
	internal := decodeAs[wireCompany](t, do(t, http.MethodGet, e.internal+"/internal/empresas/"+strconv.FormatInt(id, 10), nil, e.asAuth(t)))
	admin := decodeAs[wirePage[wireCompany]](t, do(t, http.MethodGet, e.public+"/admin/empresas?tamanho=100", nil, bearer(e.iss.Admin(t))))
	listed := ""
	for _, it := range admin.Itens {
		if it.ID == id {
			listed = it.FusoHorario
		}
	}
	var stored string
	if err := e.db.QueryRow(context.Background(), `SELECT fuso_horario FROM empresas WHERE id = $1`, id).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	type zones struct{ Me, Internal, Admin, Row string }
	if diff := cmp.Diff(zones{zone, zone, zone, zone}, zones{me.FusoHorario, internal.FusoHorario, listed, stored}); diff != "" {
		t.Errorf("company %d's zone (-want +got):\n%s", id, diff)
	}
}

func savedID(t *testing.T, a answer) int64 {
	t.Helper()
	if a.status != http.StatusOK {
		t.Fatalf("register: %d %s", a.status, a.raw)
	}
	return decodeAs[wireCadastro](t, a).SavedEmpresa.ID
}

func TestCadastroFusoHorarioSentOrDefault(t *testing.T) {
	e := newEnv(t)
	req := validRequest(0)
	req["fusoHorario"] = "America/Rio_Branco"
	a := e.register(t, req, nil)
	id := savedID(t, a)
	if got := decodeAs[wireCadastro](t, a).SavedEmpresa.FusoHorario; got != "America/Rio_Branco" {
		t.Errorf("savedEmpresa.fusoHorario = %v", got)
	}
	e.zoneEverywhere(t, id, "America/Rio_Branco")

	utc := validRequest(1)
	utc["fusoHorario"] = "UTC"
	e.zoneEverywhere(t, savedID(t, e.register(t, utc, nil)), "UTC")

	// Without fusoHorario: the configured default.
	def := e.register(t, validRequest(2), nil)
	if got := decodeAs[wireCadastro](t, def).SavedEmpresa.FusoHorario; got != "America/Sao_Paulo" {
		t.Errorf("default savedEmpresa.fusoHorario = %v", got)
	}
	e.zoneEverywhere(t, savedID(t, def), "America/Sao_Paulo")

	// The default is COMPANY_TIME_ZONE's, not a constant.
	noronha := newEnv(t, withDefaultZone("America/Noronha"))
	e2 := noronha.register(t, validRequest(0), nil)
	noronha.zoneEverywhere(t, savedID(t, e2), "America/Noronha")
}

func (e *env) patchMe(t *testing.T, id int64, body any) answer {
	t.Helper()
	return do(t, http.MethodPatch, e.public+"/empresas/me", body, bearer(e.iss.Empresa(t, id)))
}

func TestAlterarFusoHorario(t *testing.T) {
	e := newEnv(t)
	a := e.mustRegister(t, 0)
	b := e.mustRegister(t, 1)

	ans := e.patchMe(t, a, map[string]any{"fusoHorario": "America/Manaus"})
	wantOutcome(t, "PATCH", ans, outcome{Status: http.StatusOK})
	me := do(t, http.MethodGet, e.public+"/empresas/me", nil, bearer(e.iss.Empresa(t, a)))
	if diff := cmp.Diff(decodeAs[wireEmpresa](t, me), decodeAs[wireEmpresa](t, ans)); diff != "" {
		t.Errorf("PATCH answer against GET /empresas/me (-me +patch):\n%s", diff)
	}
	e.zoneEverywhere(t, a, "America/Manaus")
	e.zoneEverywhere(t, b, "America/Sao_Paulo") // the other tenant is untouched

	for name, body := range map[string]any{
		"unknown zone":  map[string]any{"fusoHorario": "America/Atlantida"},
		"empty zone":    map[string]any{"fusoHorario": ""},
		"Local":         map[string]any{"fusoHorario": "Local"},
		"not a string":  map[string]any{"fusoHorario": 4},
		"null":          map[string]any{"fusoHorario": nil},
		"nothing":       map[string]any{},
		"unknown field": map[string]any{"fusoHorario": "America/Belem", "nome": "Outra"},
		"not JSON":      "fusoHorario=America/Belem",
	} {
		t.Run(name, func(t *testing.T) {
			ans := e.patchMe(t, a, body)
			if ans.status != http.StatusBadRequest {
				t.Fatalf("%d %s", ans.status, ans.raw)
			}
			if name == "unknown zone" || name == "empty zone" || name == "Local" {
				wantOutcome(t, "PATCH", ans, outcome{http.StatusBadRequest, "validacao"})
				if decodeAs[wireError](t, ans).Fields["fusoHorario"] == "" {
					t.Errorf("answer does not name fusoHorario: %s", ans.raw)
				}
			}
		})
	}
	e.zoneEverywhere(t, a, "America/Manaus")

	// A blocked company changes nothing; an unknown one is 404.
	if s := do(t, http.MethodPut, e.public+"/admin/empresas/"+strconv.FormatInt(b, 10)+"/bloquear", nil, bearer(e.iss.Admin(t))).status; s != http.StatusOK {
		t.Fatalf("block: %d", s)
	}
	wantOutcome(t, "blocked company", e.patchMe(t, b, map[string]any{"fusoHorario": "America/Manaus"}), outcome{http.StatusForbidden, "empresa_bloqueada"})
	var stored string
	if err := e.db.QueryRow(context.Background(), `SELECT fuso_horario FROM empresas WHERE id = $1`, b).Scan(&stored); err != nil || stored != "America/Sao_Paulo" {
		t.Errorf("blocked company's zone %q (%v)", stored, err)
	}
	wantOutcome(t, "unknown company", e.patchMe(t, 999, map[string]any{"fusoHorario": "America/Manaus"}), outcome{http.StatusNotFound, "nao_encontrado"})
}
