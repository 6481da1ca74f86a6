package apierr_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
)

// Each domain error answers with its kind's status and keeps its code,
// message and fields.
func TestDomainErrorsAnswerWithTheirKindsStatus(t *testing.T) {
	cause := errors.New("cause")
	for _, tc := range []struct {
		err    *domainerr.Error
		status int
		code   string
	}{
		{domainerr.Invalid(map[string]string{"nome": "campo obrigatório"}), http.StatusBadRequest, "validacao"},
		{domainerr.InvalidField("nome", "campo obrigatório"), http.StatusBadRequest, "validacao"},
		{domainerr.Malformed("json_invalido", "JSON malformado"), http.StatusBadRequest, "json_invalido"},
		{domainerr.Unauthenticated("credenciais_invalidas", "e-mail ou senha inválidos"), http.StatusUnauthorized, "credenciais_invalidas"},
		{domainerr.Forbidden("funcionario_inativo", "funcionário inativo"), http.StatusForbidden, "funcionario_inativo"},
		{domainerr.NotFound("funcionário não encontrado"), http.StatusNotFound, "nao_encontrado"},
		{domainerr.Conflict("cpf_duplicado", "CPF já cadastrado"), http.StatusConflict, "cpf_duplicado"},
		{domainerr.TooLarge("a foto deve ter no máximo 5 MiB"), http.StatusRequestEntityTooLarge, "grande_demais"},
		{domainerr.Unsupported("envie JSON"), http.StatusUnsupportedMediaType, "tipo_nao_suportado"},
		{domainerr.Unavailable("postgres", cause), http.StatusServiceUnavailable, "dependencia_indisponivel"},
		{domainerr.BadDependency("stripe", cause), http.StatusBadGateway, "falha_dependencia"},
		{domainerr.New(0, "sem_tipo", "sem tipo"), http.StatusInternalServerError, "erro_interno"},
	} {
		e, ok := apierr.As(fmt.Errorf("op: %w", tc.err))
		if !ok || e.Status != tc.status || e.Code != tc.code {
			t.Errorf("%v: answer %+v (%v), want %d %s", tc.err, e, ok, tc.status, tc.code)
			continue
		}
		if tc.status != http.StatusInternalServerError && (e.Message != tc.err.Message || len(e.Fields) != len(tc.err.Fields)) {
			t.Errorf("%v: answer %+v lost the message or the fields", tc.err, e)
		}
	}
}

// The outermost error decides the answer: a dependency failure that
// wraps a peer's 404 is a 503, and a peer's 404 is passed on as it came.
func TestTheOutermostErrorAnswers(t *testing.T) {
	peer := apierr.NotFound("funcionário não encontrado")
	if e, _ := apierr.As(domainerr.Unavailable("employee", fmt.Errorf("set foto: %w", peer))); e.Status != http.StatusServiceUnavailable {
		t.Errorf("domain error around a peer's answer: %d, want 503", e.Status)
	}
	if e, _ := apierr.As(fmt.Errorf("get: %w", peer)); e != peer {
		t.Errorf("peer's answer: %+v, want it unchanged", e)
	}
	joined := errors.Join(errors.New("first"), domainerr.Conflict("periodo_fechado", "período fechado"))
	if e, ok := apierr.As(joined); !ok || e.Status != http.StatusConflict {
		t.Errorf("joined errors: %+v, %v", e, ok)
	}
	if _, ok := apierr.As(errors.New("plain")); ok {
		t.Error("a plain error is no API error")
	}
	if _, ok := apierr.As(nil); ok {
		t.Error("nil is no API error")
	}
}
