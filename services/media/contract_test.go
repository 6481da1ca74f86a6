package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/ponto/ponto/pkg/contracttest"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/svcclient"
	mediaapi "github.com/ponto/ponto/services/media/internalapi"
)

// TestInternalAPIContract: media's real document route answers a body
// that decodes strictly into internalapi.Documento and fills every field
// it declares, so timekeeping's client cannot drift from it.
func TestInternalAPIContract(t *testing.T) {
	h := start(t, false)
	client := mediaapi.New(h.internal, svcclient.WithTokens(h.iss.Tokens(t, "timekeeping")))
	const chave = "afastamentos/3/9/abcdef0123456789"
	if err := client.PutDocumento(context.Background(), chave, "application/pdf", []byte("%PDF-1.4\n%%EOF\n")); err != nil {
		t.Fatal(err)
	}
	a := h.doInternal(http.MethodGet, mediaapi.DocumentoPath(chave), h.iss.Service(t, "timekeeping"))
	if a.status != http.StatusOK {
		t.Fatalf("GET: %d %s", a.status, a.body)
	}
	contracttest.Filled(t, []mediaapi.Documento{contracttest.Decode[mediaapi.Documento](t, a.body)})
}

// doInternal calls media's internal listener.
func (h *harness) doInternal(method, path, token string) answer {
	h.t.Helper()
	a := servertest.Call(h.t, method, h.internal+path, nil, servertest.Bearer(token))
	return answer{status: a.Status, header: a.Header, body: a.Body}
}
