package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/contracttest"
	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/services/timekeeping/internalapi"
)

// TestInternalAPIContract sends REP events through
// services/timekeeping/internalapi's client, as the outbox relays of
// company-billing and employee do, and checks that the handler applies
// them (its body is the client's type), that its answers decode strictly
// (the 200 into Resultado, the 409 into the API error with esperada) and
// fill every field, and that the client reports each outcome as the relay
// expects.
func TestInternalAPIContract(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(9)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Ana Souza"})
	e.clock.Set(local(2026, 3, 9, 8, 0))
	// Each source's relay sends with its own service token.
	billing := internalapi.New(e.internal, svcclient.WithTokens(e.iss.Tokens(t, "company-billing")))
	api := internalapi.New(e.internal, svcclient.WithTokens(e.iss.Tokens(t, "employee")))
	at := time.Date(2026, 3, 9, 11, 0, 0, 0, time.UTC)
	event := func(origem string, seq int64, tipo string, p internalapi.Payload) outbox.Event {
		dados, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return outbox.Event{ID: fmt.Sprintf("%s:%d", origem, seq), Origem: origem, EmpresaID: c.id,
			Sequencia: seq, OcorridoEm: at, Tipo: tipo, Dados: dados}
	}
	empresa := internalapi.Payload{Empresa: &internalapi.Empresa{CNPJ: companyCNPJ(9), RazaoSocial: "Panificação São João 9 Ltda",
		Local: "Rua das Flores, 10", Responsavel: &internalapi.Responsavel{Nome: "Rita Lima", CPF: w.cpf}}}
	ana := func(nome string) internalapi.Payload {
		return internalapi.Payload{Funcionario: &internalapi.Funcionario{ID: w.id, Nome: nome, CPF: w.cpf}}
	}

	// The relay's path: both kinds of event applied.
	if err := billing.Send(t.Context(), event("company-billing", 1, internalapi.EmpresaIncluida, empresa)); err != nil {
		t.Fatal(err)
	}
	if err := api.Send(t.Context(), event("employee", 1, internalapi.FuncionarioIncluido, ana("Ana Souza"))); err != nil {
		t.Fatal(err)
	}
	if n, m := e.count("empresas_rep"), e.count("empregados_rep"); n != 1 || m != 1 {
		t.Fatalf("type 2 records %d, type 5 %d; want 1 and 1", n, m)
	}

	// The answers, as the route writes them.
	alterado := event("employee", 2, internalapi.FuncionarioAlterado, ana("Ana Souza Lima"))
	body := internalapi.Evento{ID: alterado.ID, Origem: alterado.Origem, EmpresaID: c.id, Sequencia: 2,
		OcorridoEm: "2026-03-09T11:00:00.000Z", Tipo: alterado.Tipo, Payload: ana("Ana Souza Lima")}
	r := call(t, e.internal, "POST", internalapi.Path, e.iss.Service(t, "employee"), body)
	want(t, r, http.StatusOK)
	applied := contracttest.Decode[internalapi.Resultado](t, r.body)
	contracttest.Filled(t, []internalapi.Resultado{applied})
	if !*applied.Aplicado {
		t.Fatalf("a new event: %s", r.body)
	}
	if aplicado, err := api.PostEvento(t.Context(), body); err != nil || aplicado {
		t.Fatalf("a retry: aplicado %v, %v; want false", aplicado, err)
	}
	body.ID, body.Sequencia = "employee:fora", 4
	r = call(t, e.internal, "POST", internalapi.Path, e.iss.Service(t, "employee"), body)
	want(t, r, http.StatusConflict)
	refused := contracttest.Decode[apierr.Error](t, r.body)
	if refused.Code != internalapi.CodeForaDeOrdem || refused.Message == "" || refused.Esperada != 3 {
		t.Fatalf("out of order: %s", r.body)
	}
	var fora *outbox.OutOfOrder
	if err := api.Send(t.Context(), event("employee", 4, internalapi.FuncionarioExcluido, ana("Ana Souza Lima"))); !errors.As(err, &fora) || fora.Esperada != 3 {
		t.Fatalf("out of order through the client: %v, want esperada 3", err)
	}
	if _, err := api.PostEvento(t.Context(), internalapi.Evento{}); !isStatus(err, http.StatusBadRequest) {
		t.Fatalf("a malformed event: %v, want 400", err)
	}
}

func isStatus(err error, status int) bool {
	ae, ok := apierr.As(err)
	return ok && ae.Status == status
}
