package main

import (
	"cmp"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/contracttest"
	"github.com/ponto/ponto/pkg/svcclient"
	companyapi "github.com/ponto/ponto/services/company-billing/internalapi"
	"github.com/ponto/ponto/services/employee/internalapi"
)

// TestInternalAPIContract runs every internal route on employees whose
// records fill every field (two schedules: a weekly one with rest days
// and a pre-assigned break, a 12x36), and checks that each answer decodes
// strictly into services/employee/internalapi's type, that the answers
// fill every field the type has, and that the package's client reads and
// writes the same.
func TestInternalAPIContract(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.company(1), e.company(2)
	semanal, plantao, dep := e.contractFixtures(a)
	all := map[string]any{"departamentoId": dep, "segmento": 1, "dataAdmissao": "01/03/2024", "endereco": "Rua A, 10",
		"cidade": "São Paulo", "uf": "SP", "nispis": "12345678919", "valorHora": 25.5, "fusoHorario": "America/Manaus"}
	// Ana works in a branch of each company (company-billing's stand-in).
	e.billing.add(companyapi.Estabelecimento{ID: 5, EmpresaID: a.id, Ativo: true})
	e.billing.add(companyapi.Estabelecimento{ID: 6, EmpresaID: b.id, Ativo: true})
	ana := e.funcionario(a, semanal, merge(all, map[string]any{"nome": "Ana", "codeMatricula": "M-001", "clt": true, "sobreaviso": true,
		"estabelecimentoId": 5, "dataDemissao": "31/12/2024"}))
	bia := e.funcionario(a, plantao, merge(all, map[string]any{"nome": "Bia", "codeMatricula": "M-002", "pj": true}))
	anaEmail := strict[internalapi.FuncionarioComEscala](t, e, path("/internal/funcionarios/%d", ana)).Email
	// Ana works for b too, as PJ: her employments fill every field
	// between them.
	semanalB, _, depB := e.contractFixtures(b)
	anaB := e.funcionario(b, semanalB, merge(all, map[string]any{"nome": "Ana", "email": anaEmail, "codeMatricula": "M-001",
		"pj": true, "departamentoId": depB, "estabelecimentoId": 6}))
	if _, err := e.db.Exec(t.Context(), `UPDATE funcionarios SET device_token = 'token-do-aparelho'`); err != nil {
		t.Fatal(err)
	}
	// Each route lets in its own callers: one client per calling service.
	asAuth := internalapi.New(e.internal, svcclient.WithTokens(e.iss.Tokens(t, "auth")))
	asMedia := internalapi.New(e.internal, svcclient.WithTokens(e.iss.Tokens(t, "media")))
	api := internalapi.New(e.internal, svcclient.WithTokens(e.iss.Tokens(t, "timekeeping")))
	foto, hash := "/funcionarios/1/foto?v=abc", "hash-do-codigo"
	for _, id := range []int64{ana, bia, anaB} {
		if err := asMedia.SetFoto(t.Context(), id, &foto); err != nil {
			t.Fatal(err)
		}
		if err := asAuth.SetCodeVerify(t.Context(), id, &hash); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("funcionario", func(t *testing.T) {
		got := answers[internalapi.FuncionarioComEscala](t, e,
			path("/internal/funcionarios/%d", ana), path("/internal/funcionarios/%d", bia))
		viaClient, err := api.GetFuncionario(t.Context(), ana)
		same(t, viaClient, got[0], err)
	})
	t.Run("funcionarios", func(t *testing.T) {
		// The client asks for the schedules apart and gives each employee
		// his: the records of the embedded form, less the login code's hash.
		got := answers[internalapi.Funcionarios](t, e, path("/internal/funcionarios?ids=%d,%d", ana, bia),
			path("/internal/funcionarios?ids=%d,%d&escalas=separadas", ana, bia))
		viaClient, err := api.ListFuncionarios(t.Context(), []int64{ana, bia}, nil)
		embedded := got[0].Funcionarios
		for i := range embedded {
			embedded[i].CodeVerify = nil
		}
		byID := func(a, b internalapi.FuncionarioComEscala) int { return cmp.Compare(a.ID, b.ID) }
		slices.SortFunc(viaClient, byID)
		slices.SortFunc(embedded, byID)
		same(t, viaClient, embedded, err)
		if len(got[1].Escalas) != 2 {
			t.Fatalf("schedules apart: %d, want Ana's and Bia's", len(got[1].Escalas))
		}
		// A schedule the client holds comes with neither employee: Ana's
		// record lacks only it, Bia's is whole.
		partial, err := api.ListFuncionarios(t.Context(), []int64{ana, bia}, []int64{semanal})
		slices.SortFunc(partial, byID)
		if err != nil || len(partial) != 2 || partial[0].Escala != nil || partial[1].Escala == nil {
			t.Fatalf("Ana's schedule known: %+v, %v", partial, err)
		}
		partial[0].Escala = embedded[0].Escala
		same(t, partial, embedded, nil)
		for _, f := range got[1].Funcionarios {
			if f.Escala != nil || f.CodeVerify != nil {
				t.Fatalf("schedules apart: employee %d has escala %v, codeVerify %v", f.ID, f.Escala, f.CodeVerify)
			}
		}
	})
	t.Run("vinculos", func(t *testing.T) {
		got := answers[internalapi.Vinculos](t, e, "/internal/funcionarios/vinculos?email="+url.QueryEscape(anaEmail))
		viaClient, err := asAuth.ListVinculos(t.Context(), anaEmail)
		same(t, viaClient, got[0].Funcionarios, err)
	})
	t.Run("por-email", func(t *testing.T) {
		porEmail := "/internal/funcionarios/por-email?email=" + url.QueryEscape(anaEmail) + "&empresaId="
		got := answers[internalapi.Funcionario](t, e, porEmail+strconv.FormatInt(a.id, 10), porEmail+strconv.FormatInt(b.id, 10))
		viaClient, err := asAuth.GetByEmail(t.Context(), anaEmail, b.id)
		same(t, viaClient, got[1], err)
	})
	t.Run("escala", func(t *testing.T) {
		got := answers[internalapi.Escala](t, e,
			path("/internal/funcionarios/%d/escala", ana), path("/internal/funcionarios/%d/escala", bia))
		viaClient, err := api.GetEscala(t.Context(), bia)
		same(t, viaClient, got[1], err)
	})
	t.Run("departamento", func(t *testing.T) {
		got := answers[internalapi.Quadro](t, e,
			path("/internal/empresas/%d/departamentos/por-nome/vendas/quadro", a.id))
		viaClient, err := api.GetQuadro(t.Context(), a.id, "VENDAS")
		same(t, viaClient, got[0], err)
	})
	t.Run("empresa", func(t *testing.T) {
		got := answers[internalapi.QuadroEmpresa](t, e, path("/internal/empresas/%d/quadro", a.id))
		viaClient, err := api.GetQuadroEmpresa(t.Context(), a.id)
		same(t, viaClient, got[0], err)
		// Each member names his establishment: Ana's branch, Bia the principal (0).
		estab := map[string]int64{}
		for _, m := range got[0].Funcionarios {
			estab[m.Nome] = m.EstabelecimentoID
		}
		if wantEstab := map[string]int64{"Ana": 5, "Bia": 0}; !maps.Equal(wantEstab, estab) {
			t.Errorf("establishments %v, want %v", estab, wantEstab)
		}
	})
	t.Run("writes", func(t *testing.T) {
		// The client's bodies are the ones the handlers take: null clears.
		if err := asMedia.SetFoto(t.Context(), ana, nil); err != nil {
			t.Fatal(err)
		}
		if err := asAuth.SetCodeVerify(t.Context(), ana, nil); err != nil {
			t.Fatal(err)
		}
		f := strict[internalapi.FuncionarioComEscala](t, e, path("/internal/funcionarios/%d", ana))
		if f.FotoProfile != nil || f.CodeVerify != nil {
			t.Fatalf("fotoProfile %v, codeVerify %v after clearing", f.FotoProfile, f.CodeVerify)
		}
		err := asMedia.SetFoto(t.Context(), 1_000_000, &foto)
		if ae, ok := apierr.As(err); !ok || ae.Status != http.StatusNotFound {
			t.Fatalf("an unknown employee's photo: %v, want the 404", err)
		}
	})
}

// contractFixtures creates c's schedules, a weekly one with rest days and
// a pre-assigned break and a 12x36, and a department with a segment.
func (e *env) contractFixtures(c company) (semanal, plantao, dep int64) {
	e.t.Helper()
	day := map[string]any{"entrada": "08:00", "saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 540, "intervaloPreAssinalado": true}
	r := e.pub("POST", "/escalatrabalhos", c.token, map[string]any{"empresaId": c.id, "nome": "Semanal",
		"descansoSemanal": []int{5, 6}, "horarios": []map[string]any{day, day, day, day, day}})
	want(e.t, r, 200)
	semanal = int64(r.obj(e.t)["id"].(float64))
	r = e.pub("POST", "/escalatrabalhos", c.token, map[string]any{"empresaId": c.id, "nome": "Plantão", "tipo": "12x36",
		"dataInicio": "2024-03-01", "horarios": []map[string]any{{"entrada": "07:00", "saidaAlmoco": 300, "retornoAlmoco": 360, "saida": 720}}})
	want(e.t, r, 200)
	plantao = int64(r.obj(e.t)["id"].(float64))
	return semanal, plantao, e.departamento(c, "Vendas", "Equipe A")
}

// strict reads path on the internal listener and decodes the 200 answer
// strictly into a T.
func strict[T any](t *testing.T, e *env, p string) T {
	t.Helper()
	r := e.in("GET", p, nil)
	want(t, r, 200)
	return contracttest.Decode[T](t, r.body)
}

// answers reads each of paths, decodes each answer strictly into a T and
// checks that between them they fill every field of T.
func answers[T any](t *testing.T, e *env, paths ...string) []T {
	t.Helper()
	var got []T
	for _, p := range paths {
		got = append(got, strict[T](t, e, p))
	}
	contracttest.Filled(t, got)
	return got
}

// same fails unless the client's answer (and err) is the one decoded
// strictly.
func same[T any](t *testing.T, viaClient, decoded T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(viaClient, decoded) {
		t.Fatalf("the client read %+v\nthe route answered %+v", viaClient, decoded)
	}
}

// merge is a copy of a with b's keys set.
func merge(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
