package e2e

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/brdocs"
)

// caller is who calls a route in the authorization matrix.
type caller int

const (
	semToken         caller = iota // no Authorization header
	tokenExpirado                  // company A's token, expired (signed with auth's key)
	funcionario                    // employee E1 of company A: the subject of the rows
	outroFuncionario               // employee E2 of company B
	empresa                        // company A
	outraEmpresa                   // company B
	admin                          // a platform admin
	numCallers
)

var callerNames = [numCallers]string{"no token", "expired token", "employee", "another company's employee",
	"empresa", "outra empresa", "admin"}

// want is the expected status for each caller, in caller order.
type want [numCallers]int

// everyone is a route that ignores the token: the same answer for all.
func everyone(status int) want {
	var w want
	for i := range w {
		w[i] = status
	}
	return w
}

// row is one route of the matrix: the request each caller sends (the
// same for all but where the row says otherwise) and the status each
// must get.
type row struct {
	method, path string // the document's method and path template
	req          func(t testing.TB, m *matrix, c caller) request
	want         want
}

// matrix holds the fixtures: company A with employee E1 (its schedule,
// department, punches, a photo), company B with employee E2, company C
// (the one the admin blocks and unblocks), and the tokens.
type matrix struct {
	a, b, c *company
	e1, e2  *employee
	// r1 is a punch of E1 to ask an adjustment of; r2 and r3 are punches
	// with a pending adjustment, to approve and to reject.
	r1, r2, r3 obj
	// feriado and localID are company A's holiday and work place, to
	// remove.
	feriado string
	localID int64
	// abonoID is an abono of E1 to cancel; fechamentoID a closing of
	// company A to reopen (January 2002); January 2003 stays closed for
	// E1's acknowledgement.
	abonoID, fechamentoID int64
	// solicitacoes are two inclusion requests of E1, to approve and to
	// reject.
	solicitacoes [2]int64
	adminTok     string
	expired      string
	// estabelecimentoID is a branch (a CNO site) of company A, to change.
	estabelecimentoID int64
	// quiosqueID is a kiosk of company A, to revoke.
	quiosqueID int64
	// afastamentoID is a leave of E1 with a document, to change and to
	// attach another to; afastamentoCancelarID one to cancel.
	afastamentoID, afastamentoCancelarID int64
	// dispositivos are two device keys of E1: the first to revoke, the
	// second to sign off-line punches with.
	dispositivos [2]offlineDevice
}

func (m *matrix) token(c caller) string {
	switch c {
	case tokenExpirado:
		return m.expired
	case funcionario:
		return m.e1.Token
	case outroFuncionario:
		return m.e2.Token
	case empresa:
		return m.a.Token
	case outraEmpresa:
		return m.b.Token
	case admin:
		return m.adminTok
	}
	return ""
}

// rows is THE table. TestAuthorizationMatrix fails when a route of the
// OpenAPI document has no row here (or a row names no documented route).
func rows() []row {
	const (
		ok    = http.StatusOK
		unath = http.StatusUnauthorized
		forb  = http.StatusForbidden
		nf    = http.StatusNotFound
	)
	// Statuses of the common shapes, in caller order: none, expired, E1,
	// E2, A, B, admin.
	var (
		onlyCompanyList = want{unath, unath, forb, forb, ok, ok, forb}   // a list of the caller's own company
		companyOwned    = want{unath, unath, forb, forb, ok, nf, forb}   // company A's resource
		companyCreates  = want{unath, unath, forb, forb, ok, forb, forb} // body names company A
		adminOnly       = want{unath, unath, forb, forb, forb, forb, ok}
		employeeSelf    = want{unath, unath, ok, forb, forb, forb, forb} // body names E1
		personOrCompany = want{unath, unath, ok, nf, ok, nf, forb}       // E1 himself or company A
	)
	jsonPost := func(path string, body func(m *matrix) any) func(testing.TB, *matrix, caller) request {
		return func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodPost, Path: path, Token: m.token(c), Body: body(m)}
		}
	}
	get := func(path func(m *matrix) string) func(testing.TB, *matrix, caller) request {
		return func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodGet, Path: path(m), Token: m.token(c)}
		}
	}
	put := func(path func(m *matrix) string, body func(m *matrix) any) func(testing.TB, *matrix, caller) request {
		return func(t testing.TB, m *matrix, c caller) request {
			r := request{Method: http.MethodPut, Path: path(m), Token: m.token(c)}
			if body != nil {
				r.Body = body(m)
			}
			return r
		}
	}
	jsonPostPath := func(path func(m *matrix) string, body any) func(testing.TB, *matrix, caller) request {
		return func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodPost, Path: path(m), Token: m.token(c), Body: body}
		}
	}
	fixed := func(p string) func(*matrix) string { return func(*matrix) string { return p } }
	return []row{
		// auth: public routes, the token changes nothing.
		{"GET", "/.well-known/jwks.json", get(fixed("/.well-known/jwks.json")), everyone(ok)},
		{"POST", "/auth/login", jsonPost("/auth/login", func(m *matrix) any {
			return map[string]string{"email": m.a.Email, "password": "senhaErrada123"}
		}), everyone(unath)},
		{"POST", "/auth/login/funcionario/codigo", jsonPost("/auth/login/funcionario/codigo", func(*matrix) any {
			return map[string]string{"email": uniqueEmail("ninguem")}
		}), everyone(http.StatusAccepted)},
		{"POST", "/auth/login/funcionario", jsonPost("/auth/login/funcionario", func(*matrix) any {
			return map[string]string{"email": uniqueEmail("ninguem"), "codeVerify": "123456"}
		}), everyone(unath)},
		{"POST", "/auth/refresh-token", jsonPost("/auth/refresh-token", func(*matrix) any {
			return map[string]string{"refreshToken": "desconhecido-" + randomHex(16)}
		}), everyone(unath)},
		{"POST", "/auth/logout", jsonPost("/auth/logout", func(*matrix) any {
			return map[string]string{"refreshToken": "desconhecido-" + randomHex(16)}
		}), everyone(http.StatusNoContent)},

		// company-billing
		{"POST", "/empresas", jsonPost("/empresas", func(*matrix) any { return map[string]any{} }), everyone(http.StatusBadRequest)},
		{"GET", "/empresas/me", get(fixed("/empresas/me")), onlyCompanyList},
		{"PATCH", "/empresas/me", func(t testing.TB, m *matrix, c caller) request { // the zone the companies already have
			return request{Method: http.MethodPatch, Path: "/empresas/me", Token: m.token(c), Body: map[string]any{"fusoHorario": "America/Sao_Paulo"}}
		}, onlyCompanyList},
		{"GET", "/admin/empresas", get(fixed("/admin/empresas")), adminOnly},
		{"PUT", "/admin/empresas/{empresaId}/bloquear", put(func(m *matrix) string { return "/admin/empresas/" + itoa(m.c.ID) + "/bloquear" }, nil), adminOnly},
		{"PUT", "/admin/empresas/{empresaId}/desbloquear", put(func(m *matrix) string { return "/admin/empresas/" + itoa(m.c.ID) + "/desbloquear" }, nil), adminOnly},
		{"GET", "/empresas/me/estabelecimentos", get(fixed("/empresas/me/estabelecimentos")), onlyCompanyList},
		{"POST", "/empresas/me/estabelecimentos", jsonPost("/empresas/me/estabelecimentos", func(*matrix) any {
			return map[string]string{"tipo": "cno", "numero": randomCNO(), "nome": "Obra " + randomHex(3), "endereco": "Av. Central, 1"}
		}), want{unath, unath, forb, forb, http.StatusCreated, http.StatusCreated, forb}},
		{"PATCH", "/empresas/me/estabelecimentos/{estabelecimentoId}", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodPatch, Path: "/empresas/me/estabelecimentos/" + itoa(m.estabelecimentoID), Token: m.token(c),
				Body: map[string]string{"nome": "Obra da matriz"}}
		}, companyOwned},
		{"POST", "/webhooks/stripe", func(t testing.TB, m *matrix, c caller) request { // unsigned
			return request{Method: http.MethodPost, Path: "/webhooks/stripe", Token: m.token(c), Raw: []byte(`{"id":"evt_x","object":"event"}`), Type: "application/json"}
		}, everyone(http.StatusBadRequest)},

		// employee
		{"POST", "/funcionarios", func(t testing.TB, m *matrix, c caller) request {
			body := employeeBody(t, m.a, "Pessoa "+randomHex(3), uniqueEmail("matriz"))
			return request{Method: http.MethodPost, Path: "/funcionarios", Token: m.token(c), Body: body}
		}, companyCreates},
		{"GET", "/funcionarios", get(fixed("/funcionarios")), onlyCompanyList},
		{"GET", "/funcionarios/{funcionarioId}", get(func(m *matrix) string { return "/funcionarios/" + itoa(m.e1.ID) }), personOrCompany},
		{"PATCH", "/funcionarios/{funcionarioId}", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodPatch, Path: "/funcionarios/" + itoa(m.e1.ID), Token: m.token(c), Body: map[string]any{"cargo": "Supervisora"}}
		}, companyOwned},
		{"POST", "/departamentos", jsonPost("/departamentos", func(m *matrix) any {
			return map[string]any{"empresaId": m.a.ID, "nome": "Depto " + randomHex(4), "segmentos": []string{"Única"}}
		}), companyCreates},
		{"GET", "/departamentos", get(fixed("/departamentos")), onlyCompanyList},
		{"GET", "/departamentos/{departamentoId}", get(func(m *matrix) string { return "/departamentos/" + itoa(m.a.DeptID) }), companyOwned},
		{"GET", "/departamentos/{departamentoId}/{segmento}/funcionarios", get(func(m *matrix) string {
			return "/departamentos/" + itoa(m.a.DeptID) + "/0/funcionarios"
		}), companyOwned},
		{"POST", "/escalatrabalhos", jsonPost("/escalatrabalhos", func(m *matrix) any { return weekSchedule(m.a.ID, "Escala "+randomHex(3)) }), companyCreates},
		{"GET", "/escalatrabalhos", get(fixed("/escalatrabalhos")), onlyCompanyList},
		{"GET", "/escalatrabalhos/{escalaId}", get(func(m *matrix) string { return "/escalatrabalhos/" + itoa(m.a.EscalaID) }), companyOwned},

		// media
		{"POST", "/funcionarios/{funcionarioId}/foto", func(t testing.TB, m *matrix, c caller) request {
			raw, ctype := multipartFile("foto", "foto.png", "image/png", pngImage(t, 64, 48))
			return request{Method: http.MethodPost, Path: "/funcionarios/" + itoa(m.e1.ID) + "/foto", Token: m.token(c), Raw: raw, Type: ctype}
		}, personOrCompany},
		{"GET", "/funcionarios/{funcionarioId}/foto", get(func(m *matrix) string { return "/funcionarios/" + itoa(m.e1.ID) + "/foto" }), personOrCompany},

		// timekeeping
		{"POST", "/registropontos", jsonPost("/registropontos", func(m *matrix) any {
			return map[string]any{"endereco": "-22.9068, -43.1729", "funcionarioId": m.e1.ID}
		}), employeeSelf},
		{"GET", "/registropontos/me", get(fixed("/registropontos/me")), want{unath, unath, ok, ok, forb, forb, forb}},
		{"PUT", "/registropontos/solicitar/{registroId}", put(func(m *matrix) string { return "/registropontos/solicitar/" + itoa(m.r1.int("id")) }, func(m *matrix) any {
			return map[string]any{"dataSolicitar": m.r1.str("horarioRegistro"), "funcionarioId": m.e1.ID, "motivo": "Marcação fora do lugar"}
		}), employeeSelf},
		{"GET", "/registropontos/ajustes", get(fixed("/registropontos/ajustes")), onlyCompanyList},
		{"PUT", "/registropontos/{registroId}/aprovar", put(func(m *matrix) string { return "/registropontos/" + itoa(m.r2.int("id")) + "/aprovar" }, nil), companyOwned},
		{"PUT", "/registropontos/{registroId}/reprovar", put(func(m *matrix) string { return "/registropontos/" + itoa(m.r3.int("id")) + "/reprovar" }, nil), companyOwned},
		{"POST", "/registropontos/{funcionarioId}/marcar-falta/{data}", func(t testing.TB, m *matrix, c caller) request {
			day := localDate(t, m.r1.str("horarioRegistro")).AddDate(0, 0, -1).Format(time.DateOnly)
			return request{Method: http.MethodPost, Path: "/registropontos/" + itoa(m.e1.ID) + "/marcar-falta/" + day, Token: m.token(c)}
		}, companyOwned},
		{"GET", "/registropontos/departamento/{departamento}", get(func(m *matrix) string {
			return "/registropontos/departamento/" + url.PathEscape(m.a.DeptNome)
		}), companyOwned},
		{"GET", "/registropontos/funcionario/{funcionarioId}/espelho", get(func(m *matrix) string {
			return "/registropontos/funcionario/" + itoa(m.e1.ID) + "/espelho"
		}), personOrCompany},
		{"GET", "/registropontos/{registroId}/comprovante", get(func(m *matrix) string {
			return "/registropontos/" + itoa(m.r1.int("id")) + "/comprovante"
		}), personOrCompany},
		{"GET", "/registropontos/afd", get(fixed("/registropontos/afd")), onlyCompanyList},
		{"GET", "/registropontos/aej", get(fixed("/registropontos/aej")), onlyCompanyList},
		{"GET", "/registropontos/cadeia", get(fixed("/registropontos/cadeia")), onlyCompanyList},
		{"GET", "/registropontos/hoje", get(fixed("/registropontos/hoje")), onlyCompanyList},
		{"GET", "/registropontos/lembretes", get(fixed("/registropontos/lembretes")), onlyCompanyList},
		{"PUT", "/registropontos/lembretes", put(fixed("/registropontos/lembretes"), func(*matrix) any {
			return map[string]any{"ativo": true}
		}), onlyCompanyList},
		// Each employee his own switch: any employee, no company.
		{"GET", "/registropontos/lembretes/me", get(fixed("/registropontos/lembretes/me")), want{unath, unath, ok, ok, forb, forb, forb}},
		{"PUT", "/registropontos/lembretes/me", put(fixed("/registropontos/lembretes/me"), func(*matrix) any {
			return map[string]any{"ativo": true}
		}), want{unath, unath, ok, ok, forb, forb, forb}},
		{"GET", "/registropontos/atestado-tecnico", get(fixed("/registropontos/atestado-tecnico")), onlyCompanyList},
		// The company's first day on ponto; null leaves every day counted,
		// so the other tests' figures do not move.
		{"GET", "/registropontos/inicio-uso", get(fixed("/registropontos/inicio-uso")), onlyCompanyList},
		{"PUT", "/registropontos/inicio-uso", put(fixed("/registropontos/inicio-uso"), func(*matrix) any {
			return map[string]any{"data": nil}
		}), onlyCompanyList},
		// The payroll export, its event codes and its layouts: each company
		// its own ({} keeps the defaults; the layout is a company's own name).
		{"GET", "/registropontos/folha", get(fixed("/registropontos/folha")), onlyCompanyList},
		{"GET", "/registropontos/folha/eventos", get(fixed("/registropontos/folha/eventos")), onlyCompanyList},
		{"PUT", "/registropontos/folha/eventos", put(fixed("/registropontos/folha/eventos"), func(*matrix) any {
			return map[string]any{}
		}), onlyCompanyList},
		{"GET", "/registropontos/folha/layouts", get(fixed("/registropontos/folha/layouts")), onlyCompanyList},
		{"GET", "/registropontos/folha/layouts/{nome}", get(fixed("/registropontos/folha/layouts/calima")), onlyCompanyList},
		{"PUT", "/registropontos/folha/layouts/{nome}", put(fixed("/registropontos/folha/layouts/matriz"), func(*matrix) any {
			return map[string]any{"descricao": "matriz", "campos": []map[string]any{
				{"campo": "codigo", "inicio": 1, "tamanho": 4, "alinhamento": "direita", "preenchimento": "0"}}}
		}), onlyCompanyList},
		// Kiosks: the company's; each employee his own PIN (set before
		// the company resets E1's); a user's token is no kiosk credential.
		{"POST", "/registropontos/quiosques", jsonPost("/registropontos/quiosques", func(*matrix) any {
			return map[string]string{"nome": "Portaria " + randomHex(3), "dispositivo": "navegador"}
		}), want{unath, unath, forb, forb, http.StatusCreated, http.StatusCreated, forb}},
		{"GET", "/registropontos/quiosques", get(fixed("/registropontos/quiosques")), onlyCompanyList},
		{"DELETE", "/registropontos/quiosques/{quiosqueId}", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodDelete, Path: "/registropontos/quiosques/" + itoa(m.quiosqueID), Token: m.token(c)}
		}, want{unath, unath, forb, forb, http.StatusNoContent, nf, forb}},
		{"PUT", "/registropontos/quiosques/pin", put(fixed("/registropontos/quiosques/pin"), func(*matrix) any {
			return map[string]string{"pin": "4821"}
		}), want{unath, unath, http.StatusNoContent, http.StatusNoContent, forb, forb, forb}},
		{"DELETE", "/registropontos/quiosques/pin/{funcionarioId}", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodDelete, Path: "/registropontos/quiosques/pin/" + itoa(m.e1.ID), Token: m.token(c)}
		}, want{unath, unath, forb, forb, http.StatusNoContent, nf, forb}},
		{"POST", "/registropontos/quiosques/cracha/{funcionarioId}", jsonPostPath(func(m *matrix) string {
			return "/registropontos/quiosques/cracha/" + itoa(m.e1.ID)
		}, nil), want{unath, unath, forb, forb, ok, nf, forb}},
		{"GET", "/registropontos/quiosque", get(fixed("/registropontos/quiosque")), everyone(unath)},
		{"POST", "/registropontos/quiosque/identificar", jsonPost("/registropontos/quiosque/identificar", func(*matrix) any {
			return map[string]string{"cracha": "PONTO-CRACHA-X"}
		}), everyone(unath)},
		{"POST", "/registropontos/quiosque/marcar", jsonPost("/registropontos/quiosque/marcar", func(*matrix) any {
			return map[string]string{"cracha": "PONTO-CRACHA-X"}
		}), everyone(unath)},
		{"PUT", "/registropontos/quiosque/chave", put(fixed("/registropontos/quiosque/chave"), func(*matrix) any {
			return map[string]string{"chavePublica": "bm90IGEga2V5"}
		}), everyone(unath)},
		{"POST", "/registropontos/quiosque/offline", jsonPost("/registropontos/quiosque/offline", func(*matrix) any {
			return map[string]any{"marcacoes": []map[string]string{{"id": "q-1", "cracha": "PONTO-CRACHA-X"}}}
		}), everyone(unath)},
		// Public: a receipt's check needs no token, and any token is ignored.
		{"GET", "/verificacao/{hash}", get(func(m *matrix) string { return "/verificacao/" + m.r1.str("hash") }),
			everyone(http.StatusOK)},
		{"POST", "/registropontos/feriados", jsonPost("/registropontos/feriados", func(*matrix) any {
			return map[string]string{"data": randomDate(2099), "nome": "Feriado da matriz"}
		}), onlyCompanyList},
		{"GET", "/registropontos/feriados", get(fixed("/registropontos/feriados")), onlyCompanyList},
		{"GET", "/registropontos/feriados/facultativos", get(fixed("/registropontos/feriados/facultativos")), onlyCompanyList},
		{"PUT", "/registropontos/feriados/facultativos", put(fixed("/registropontos/feriados/facultativos"), func(*matrix) any {
			return map[string]bool{"carnaval": false, "corpusChristi": false}
		}), onlyCompanyList},
		{"DELETE", "/registropontos/feriados/{data}", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodDelete, Path: "/registropontos/feriados/" + m.feriado, Token: m.token(c)}
		}, want{unath, unath, forb, forb, http.StatusNoContent, nf, forb}},
		{"POST", "/registropontos/locais-trabalho", jsonPost("/registropontos/locais-trabalho", func(*matrix) any {
			return map[string]any{"nome": "Filial " + randomHex(3), "latitude": -22.9068, "longitude": -43.1729, "raioMetros": 200}
		}), onlyCompanyList},
		{"GET", "/registropontos/locais-trabalho", get(fixed("/registropontos/locais-trabalho")), onlyCompanyList},
		// Off-line punches: each employee registers his own device keys and
		// signs with them; a company lists and revokes its employees'.
		{"POST", "/registropontos/dispositivos", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodPost, Path: "/registropontos/dispositivos", Token: m.token(c), Body: newDeviceBody(t)}
		}, want{unath, unath, http.StatusCreated, http.StatusCreated, forb, forb, forb}},
		{"GET", "/registropontos/dispositivos", get(fixed("/registropontos/dispositivos")), want{unath, unath, ok, ok, ok, ok, forb}},
		{"DELETE", "/registropontos/dispositivos/{dispositivoId}", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodDelete, Path: "/registropontos/dispositivos/" + itoa(m.dispositivos[0].id), Token: m.token(c)}
		}, want{unath, unath, http.StatusNoContent, nf, http.StatusNoContent, nf, forb}},
		{"POST", "/registropontos/offline", func(t testing.TB, m *matrix, c caller) request {
			d := m.dispositivos[1]
			return request{Method: http.MethodPost, Path: "/registropontos/offline", Token: m.token(c),
				Body: d.batch(t, d.sign(t, time.Now().Add(-time.Minute)))}
		}, want{unath, unath, ok, forb, forb, forb, forb}},
		{"GET", "/registropontos/offline/limite", get(fixed("/registropontos/offline/limite")), onlyCompanyList},
		{"PUT", "/registropontos/offline/limite", put(fixed("/registropontos/offline/limite"), func(*matrix) any {
			return map[string]any{"dias": 7}
		}), onlyCompanyList},
		{"DELETE", "/registropontos/locais-trabalho/{localId}", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodDelete, Path: "/registropontos/locais-trabalho/" + itoa(m.localID), Token: m.token(c)}
		}, want{unath, unath, forb, forb, http.StatusNoContent, nf, forb}},

		// timekeeping: the treatment program (after marcar-falta, whose
		// absence the DELETE undoes)
		{"DELETE", "/registropontos/{funcionarioId}/marcar-falta/{data}", func(t testing.TB, m *matrix, c caller) request {
			day := localDate(t, m.r1.str("horarioRegistro")).AddDate(0, 0, -1).Format(time.DateOnly)
			return request{Method: http.MethodDelete, Path: "/registropontos/" + itoa(m.e1.ID) + "/marcar-falta/" + day, Token: m.token(c),
				Body: map[string]string{"motivo": "Falta lançada por engano"}}
		}, want{unath, unath, forb, forb, http.StatusNoContent, nf, forb}},
		{"POST", "/registropontos/funcionario/{funcionarioId}/marcacoes", func(t testing.TB, m *matrix, c caller) request {
			at := parseISO(t, m.r1.str("horarioRegistro")).Add(-26 * time.Hour).Truncate(time.Minute)
			return request{Method: http.MethodPost, Path: "/registropontos/funcionario/" + itoa(m.e1.ID) + "/marcacoes", Token: m.token(c),
				Body: map[string]string{"horario": at.Format(time.RFC3339), "motivo": "Saída esquecida"}}
		}, want{unath, unath, forb, forb, http.StatusCreated, nf, forb}},
		{"PUT", "/registropontos/{registroId}/desconsiderar", put(func(m *matrix) string {
			return "/registropontos/" + itoa(m.r1.int("id")) + "/desconsiderar"
		}, func(*matrix) any { return map[string]string{"motivo": "Marcação em duplicidade"} }), companyOwned},
		{"PUT", "/registropontos/{registroId}/reconsiderar", put(func(m *matrix) string {
			return "/registropontos/" + itoa(m.r1.int("id")) + "/reconsiderar"
		}, func(*matrix) any { return map[string]string{"motivo": "Desconsiderada por engano"} }), companyOwned},
		{"POST", "/registropontos/solicitacoes", func(t testing.TB, m *matrix, c caller) request {
			at := parseISO(t, m.r1.str("horarioRegistro")).Add(-25 * time.Hour).Truncate(time.Minute)
			return request{Method: http.MethodPost, Path: "/registropontos/solicitacoes", Token: m.token(c),
				Body: map[string]string{"horario": at.Format(time.RFC3339), "motivo": "Esqueci de registrar a saída"}}
		}, want{unath, unath, http.StatusCreated, http.StatusCreated, forb, forb, forb}},
		{"GET", "/registropontos/solicitacoes", get(fixed("/registropontos/solicitacoes")), onlyCompanyList},
		{"PUT", "/registropontos/solicitacoes/{solicitacaoId}/aprovar", put(func(m *matrix) string {
			return "/registropontos/solicitacoes/" + itoa(m.solicitacoes[0]) + "/aprovar"
		}, nil), companyOwned},
		{"PUT", "/registropontos/solicitacoes/{solicitacaoId}/reprovar", put(func(m *matrix) string {
			return "/registropontos/solicitacoes/" + itoa(m.solicitacoes[1]) + "/reprovar"
		}, nil), companyOwned},
		{"POST", "/registropontos/funcionario/{funcionarioId}/abonos", func(t testing.TB, m *matrix, c caller) request {
			day := localDate(t, m.r1.str("horarioRegistro")).AddDate(0, 0, -2).Format(time.DateOnly)
			return request{Method: http.MethodPost, Path: "/registropontos/funcionario/" + itoa(m.e1.ID) + "/abonos", Token: m.token(c),
				Body: map[string]string{"data": day, "inicio": "13:00", "fim": "17:00", "motivo": "Consulta médica", "tipo": "atestado_medico"}}
		}, want{unath, unath, forb, forb, http.StatusCreated, nf, forb}},
		{"GET", "/registropontos/funcionario/{funcionarioId}/abonos", get(func(m *matrix) string {
			return "/registropontos/funcionario/" + itoa(m.e1.ID) + "/abonos"
		}), companyOwned},
		{"POST", "/registropontos/abonos/{abonoId}/cancelar", jsonPostPath(func(m *matrix) string {
			return "/registropontos/abonos/" + itoa(m.abonoID) + "/cancelar"
		}, map[string]string{"motivo": "Atestado recusado"}), companyOwned},
		{"POST", "/registropontos/fechamentos", jsonPost("/registropontos/fechamentos", func(*matrix) any {
			return map[string]string{"inicio": "2001-01-01", "fim": "2001-01-31"}
		}), want{unath, unath, forb, forb, http.StatusCreated, http.StatusCreated, forb}},
		{"GET", "/registropontos/fechamentos", get(fixed("/registropontos/fechamentos")), onlyCompanyList},
		{"POST", "/registropontos/fechamentos/{fechamentoId}/reabrir", jsonPostPath(func(m *matrix) string {
			return "/registropontos/fechamentos/" + itoa(m.fechamentoID) + "/reabrir"
		}, map[string]string{"motivo": "Correção de atestado"}), companyOwned},
		{"GET", "/registropontos/fechamentos/ciencias", get(func(m *matrix) string {
			return "/registropontos/fechamentos/ciencias?mes=2003-01&departamento=" + url.QueryEscape(m.a.DeptNome)
		}), companyOwned},
		{"PUT", "/registropontos/funcionario/{funcionarioId}/espelho/ciencia", put(func(m *matrix) string {
			return "/registropontos/funcionario/" + itoa(m.e1.ID) + "/espelho/ciencia?mes=2003-01"
		}, nil), want{unath, unath, ok, nf, forb, forb, forb}},

		// timekeeping: the hour bank (company A's is on: newMatrix).
		{"GET", "/registropontos/banco-horas/politica", get(fixed("/registropontos/banco-horas/politica")), onlyCompanyList},
		{"PUT", "/registropontos/banco-horas/politica", put(fixed("/registropontos/banco-horas/politica"), func(*matrix) any {
			return map[string]any{"ativo": true, "periodoMeses": 6}
		}), onlyCompanyList},
		{"GET", "/registropontos/funcionario/{funcionarioId}/banco-horas", get(func(m *matrix) string {
			return "/registropontos/funcionario/" + itoa(m.e1.ID) + "/banco-horas"
		}), personOrCompany},
		{"POST", "/registropontos/funcionario/{funcionarioId}/banco-horas/movimentos", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodPost, Path: "/registropontos/funcionario/" + itoa(m.e1.ID) + "/banco-horas/movimentos",
				Token: m.token(c), Body: map[string]any{"data": localDate(t, m.r1.str("horarioRegistro")).Format(time.DateOnly),
					"tipo": "ajuste", "minutos": 15, "motivo": "Correção do saldo"}}
		}, want{unath, unath, forb, forb, http.StatusCreated, nf, forb}},

		// timekeeping: leaves (afastamentos), after the day's punches.
		{"POST", "/registropontos/funcionario/{funcionarioId}/afastamentos", func(t testing.TB, m *matrix, c caller) request {
			day := localDate(t, m.r1.str("horarioRegistro")).AddDate(0, 0, 60).Format(time.DateOnly)
			return request{Method: http.MethodPost, Path: "/registropontos/funcionario/" + itoa(m.e1.ID) + "/afastamentos",
				Token: m.token(c), Body: map[string]string{"tipo": "doacao_sangue", "inicio": day, "fim": day, "motivo": "Doação de sangue"}}
		}, want{unath, unath, forb, forb, http.StatusCreated, nf, forb}},
		{"GET", "/registropontos/funcionario/{funcionarioId}/afastamentos", get(func(m *matrix) string {
			return "/registropontos/funcionario/" + itoa(m.e1.ID) + "/afastamentos"
		}), personOrCompany},
		{"GET", "/registropontos/afastamentos", get(fixed("/registropontos/afastamentos")), onlyCompanyList},
		{"PUT", "/registropontos/afastamentos/{afastamentoId}", func(t testing.TB, m *matrix, c caller) request {
			return request{Method: http.MethodPut, Path: "/registropontos/afastamentos/" + itoa(m.afastamentoID), Token: m.token(c),
				Body: leaveBody(t, m, 30, 34, "Férias remarcadas")}
		}, companyOwned},
		{"POST", "/registropontos/afastamentos/{afastamentoId}/cancelar", jsonPostPath(func(m *matrix) string {
			return "/registropontos/afastamentos/" + itoa(m.afastamentoCancelarID) + "/cancelar"
		}, map[string]string{"motivo": "Lançado por engano"}), companyOwned},
		{"POST", "/registropontos/afastamentos/{afastamentoId}/documento", func(t testing.TB, m *matrix, c caller) request {
			raw, ctype := multipartFile("documento", "atestado.pdf", "application/pdf", minimalPDF)
			return request{Method: http.MethodPost, Path: "/registropontos/afastamentos/" + itoa(m.afastamentoID) + "/documento",
				Token: m.token(c), Raw: raw, Type: ctype}
		}, companyOwned},
		{"GET", "/registropontos/afastamentos/{afastamentoId}/documento", get(func(m *matrix) string {
			return "/registropontos/afastamentos/" + itoa(m.afastamentoID) + "/documento"
		}), personOrCompany},
	}
}

// minimalPDF is a PDF by its bytes, for the leaves' documents.
var minimalPDF = []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")

// leaveBody is a vacation of E1 from the day of his punches plus from
// days to plus to days.
func leaveBody(t testing.TB, m *matrix, from, to int, motivo string) map[string]string {
	day := localDate(t, m.r1.str("horarioRegistro"))
	return map[string]string{"tipo": "ferias", "inicio": day.AddDate(0, 0, from).Format(time.DateOnly),
		"fim": day.AddDate(0, 0, to).Format(time.DateOnly), "motivo": motivo}
}

// randomDate is a date of year, for holidays no other call uses.
func randomDate(year int) string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	day := int(b[0])<<8 | int(b[1])
	return time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, day%365).Format(time.DateOnly)
}

// randomCNO is a random CNO with its right check digit, for
// establishment numbers no other call uses.
func randomCNO() string {
	b := make([]byte, 11)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = '0' + b[i]%10
	}
	for d := byte('0'); d <= '9'; d++ {
		if cno := string(b) + string(d); brdocs.ValidCNO(cno) {
			return cno
		}
	}
	return randomCNO() // eleven equal digits; draw again
}

// order is the order the callers call each route in: the ones the route
// is for come last, so that the others meet the resource still intact
// (another company must get 404 for a pending adjustment, a holiday or a
// work place of company A while it still exists, not because the owner
// removed it first).
var order = []caller{semToken, tokenExpirado, outroFuncionario, outraEmpresa, admin, funcionario, empresa}

// TestAuthorizationMatrix calls every documented route as each kind of
// caller and checks the status: 401 without a token or with an expired
// one, 403 for a role the route does not admit (or a body naming another
// tenant), 404 for another tenant's resource, and the success of the
// callers the route is for. The routes come from the OpenAPI document, so
// a route added there without a row here fails the test.
func TestAuthorizationMatrix(t *testing.T) {
	e := sharedEnv(t)
	table := rows()
	checkTableCoversDocument(t, e, table)
	m := newMatrix(t, e)

	for _, r := range table {
		t.Run(r.method+" "+r.path, func(t *testing.T) {
			for _, c := range order {
				req := r.req(t, m, c)
				if req.Method != r.method {
					t.Fatalf("the row %s %s builds a %s request", r.method, r.path, req.Method)
				}
				a := e.api.do(t, req)
				if a.Template != r.path {
					t.Errorf("%s: the document matched the request to %s; the row is for %s", a, a.Template, r.path)
				}
				if a.Status != r.want[c] {
					t.Errorf("%s (%s): %d; want %d — %s", r.method+" "+r.path, callerNames[c], a.Status, r.want[c], a)
				}
				if r.want[c] == http.StatusUnauthorized && (c == semToken || c == tokenExpirado) && !isPublic(r) &&
					(a.code() != "nao_autenticado" || a.Header.Get("WWW-Authenticate") != "Bearer") {
					t.Errorf("%s (%s): a 401 must be nao_autenticado with WWW-Authenticate: Bearer — %s", r.path, callerNames[c], a)
				}
			}
		})
	}
}

func isPublic(r row) bool { return r.want == everyone(r.want[0]) }

// checkTableCoversDocument: one row per documented operation, and no row
// for an operation the document lacks.
func checkTableCoversDocument(t *testing.T, e *env, table []row) {
	t.Helper()
	documented := map[string]bool{}
	for path, item := range e.api.doc.Paths.Map() {
		for method := range item.Operations() {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	inTable := map[string]bool{}
	for _, r := range table {
		key := r.method + " " + r.path
		if inTable[key] {
			t.Errorf("the matrix has two rows for %s", key)
		}
		inTable[key] = true
	}
	var missing, extra []string
	for k := range documented {
		if !inTable[k] {
			missing = append(missing, k)
		}
	}
	for k := range inTable {
		if !documented[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("routes of the OpenAPI document without a row in the authorization matrix: %s", strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		t.Errorf("matrix rows for routes the document lacks: %s", strings.Join(extra, ", "))
	}
	if t.Failed() {
		t.FailNow()
	}
}

func newMatrix(t *testing.T, e *env) *matrix {
	t.Helper()
	m := &matrix{}
	m.a, m.b, m.c = e.registerCompany(t, "Empresa A"), e.registerCompany(t, "Empresa B"), e.registerCompany(t, "Empresa C")
	e.setUp(t, m.a)
	e.setUp(t, m.b)
	m.e1, m.e2 = e.hire(t, m.a, "Ana Lima"), e.hire(t, m.b, "Bruno Reis")
	m.r1, m.r2, m.r3 = e.punch(t, m.e1), e.punch(t, m.e1), e.punch(t, m.e1)
	if localDate(t, m.r1.str("horarioRegistro")) != localDate(t, m.r3.str("horarioRegistro")) {
		t.Skip("the punches straddled midnight in São Paulo: run again")
	}
	for _, r := range []obj{m.r2, m.r3} {
		e.api.do(t, request{Method: http.MethodPut, Path: "/registropontos/solicitar/" + itoa(r.int("id")), Token: m.e1.Token,
			Body: map[string]any{"dataSolicitar": r.str("horarioRegistro"), "funcionarioId": m.e1.ID, "motivo": "Ajuste da matriz"}}).
			expect(t, http.StatusOK)
	}
	raw, ctype := multipartFile("foto", "foto.png", "image/png", pngImage(t, 40, 30))
	e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios/" + itoa(m.e1.ID) + "/foto", Token: m.e1.Token, Raw: raw, Type: ctype}).
		expect(t, http.StatusOK)
	m.feriado = randomDate(2098)
	e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/feriados", Token: m.a.Token,
		Body: map[string]string{"data": m.feriado, "nome": "Feriado a remover"}}).expect(t, http.StatusOK)
	m.localID = e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/locais-trabalho", Token: m.a.Token,
		Body: map[string]any{"nome": "Sede", "latitude": -23.55052, "longitude": -46.633309, "raioMetros": 150}}).
		expect(t, http.StatusOK).object(t).int("id")
	m.abonoID = e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/funcionario/" + itoa(m.e1.ID) + "/abonos",
		Token: m.a.Token, Body: map[string]string{"data": localDate(t, m.r1.str("horarioRegistro")).AddDate(0, 0, -3).Format(time.DateOnly),
			"motivo": "Folga compensatória", "tipo": "folga"}}).expect(t, http.StatusCreated).object(t).int("id")
	m.fechamentoID = e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/fechamentos", Token: m.a.Token,
		Body: map[string]string{"inicio": "2002-01-01", "fim": "2002-01-31"}}).expect(t, http.StatusCreated).object(t).int("id")
	e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/fechamentos", Token: m.a.Token,
		Body: map[string]string{"inicio": "2003-01-01", "fim": "2003-01-31"}}).expect(t, http.StatusCreated)
	for i, h := range []time.Duration{-27, -28} {
		at := parseISO(t, m.r1.str("horarioRegistro")).Add(h * time.Hour).Truncate(time.Minute)
		m.solicitacoes[i] = e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/solicitacoes", Token: m.e1.Token,
			Body: map[string]string{"horario": at.Format(time.RFC3339), "motivo": "Esqueci de registrar"}}).
			expect(t, http.StatusCreated).object(t).int("id")
	}
	// Company A's hour bank is on, from this month, for the manual
	// movement's row.
	e.api.do(t, request{Method: http.MethodPut, Path: "/registropontos/banco-horas/politica", Token: m.a.Token,
		Body: map[string]any{}}).expect(t, http.StatusOK)
	leaves := "/registropontos/funcionario/" + itoa(m.e1.ID) + "/afastamentos"
	m.afastamentoID = e.api.do(t, request{Method: http.MethodPost, Path: leaves, Token: m.a.Token,
		Body: leaveBody(t, m, 30, 34, "Férias")}).expect(t, http.StatusCreated).object(t).int("id")
	m.afastamentoCancelarID = e.api.do(t, request{Method: http.MethodPost, Path: leaves, Token: m.a.Token,
		Body: leaveBody(t, m, 40, 41, "Férias a cancelar")}).expect(t, http.StatusCreated).object(t).int("id")
	raw, ctype = multipartFile("documento", "atestado.pdf", "application/pdf", minimalPDF)
	e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/afastamentos/" + itoa(m.afastamentoID) + "/documento",
		Token: m.a.Token, Raw: raw, Type: ctype}).expect(t, http.StatusOK)
	m.adminTok = e.adminToken(t)
	m.quiosqueID = e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos/quiosques", Token: m.a.Token,
		Body: map[string]string{"nome": "Portaria", "dispositivo": "navegador"}}).expect(t, http.StatusCreated).object(t).int("id")
	for i := range m.dispositivos {
		m.dispositivos[i] = e.registerDevice(t, m.e1)
	}
	m.estabelecimentoID = e.api.do(t, request{Method: http.MethodPost, Path: "/empresas/me/estabelecimentos", Token: m.a.Token,
		Body: map[string]string{"tipo": "cno", "numero": randomCNO(), "nome": "Obra", "endereco": "Rua da Obra, 2"}}).
		expect(t, http.StatusCreated).object(t).int("id")

	// The expired token is company A's own, signed again with auth's key
	// an hour earlier. The same re-signing without the shift must work, so
	// the 401s are the expiry's, not a bad signature's.
	e.api.do(t, request{Method: http.MethodGet, Path: "/empresas/me", Token: e.reissue(t, m.a.Token, 0)}).expect(t, http.StatusOK)
	m.expired = e.reissue(t, m.a.Token, -time.Hour)
	return m
}

// String helps failure messages name a caller.
func (c caller) String() string {
	if c >= 0 && c < numCallers {
		return callerNames[c]
	}
	return fmt.Sprintf("caller(%d)", int(c))
}
