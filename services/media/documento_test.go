package main

import (
	"bytes"
	"context"
	"image"
	"net/http"
	"testing"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/svcclient"
	mediaapi "github.com/ponto/ponto/services/media/internalapi"
)

// A leave's document through the internal API, as timekeeping calls it:
// stored in MinIO under its key, read back byte for byte, removed; a
// type media does not keep (by its bytes, whatever is declared), an
// oversized one, a bad key and another service's token are refused with
// nothing stored.
func TestDocumentoInternalAPI(t *testing.T) {
	h := start(t, false)
	ctx := context.Background()
	client := mediaapi.New(h.internal, svcclient.WithTokens(h.iss.Tokens(t, "timekeeping")))
	pdf := []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")
	const chave = "afastamentos/7/42/0123456789abcdef01234567"

	if err := client.PutDocumento(ctx, chave, "application/pdf", pdf); err != nil {
		t.Fatal(err)
	}
	if got := h.object(chave); !bytes.Equal(got, pdf) {
		t.Fatalf("stored %q", got)
	}
	data, tipo, err := client.GetDocumento(ctx, chave)
	if err != nil || tipo != "application/pdf" || !bytes.Equal(data, pdf) {
		t.Fatalf("get: %q %q %v", data, tipo, err)
	}

	status := func(err error) int {
		if e, ok := apierr.As(err); ok {
			return e.Status
		}
		t.Fatalf("not an API error: %v", err)
		return 0
	}
	png := pngBytes(t, image.NewRGBA(image.Rect(0, 0, 4, 4)))
	for name, c := range map[string]struct {
		chave, tipo string
		data        []byte
		want        int
	}{
		"html as pdf":     {"afastamentos/7/43/aaaaaaaa", "application/pdf", []byte("<html><body>x</body></html>"), 415},
		"png as pdf":      {"afastamentos/7/43/aaaaaaaa", "application/pdf", png, 415},
		"too large":       {"afastamentos/7/43/aaaaaaaa", "application/pdf", append(pdf, make([]byte, mediaapi.MaxDocumentoBytes)...), 413},
		"empty":           {"afastamentos/7/43/aaaaaaaa", "application/pdf", nil, 400},
		"bad version":     {"afastamentos/7/43/XYZ", "image/png", png, 400},
		"bad company":     {"afastamentos/0/43/aaaaaaaa", "image/png", png, 400},
		"outside its key": {"empresas/7/funcionarios/1/x.jpg", "image/png", png, 404},
	} {
		if got := status(client.PutDocumento(ctx, c.chave, c.tipo, c.data)); got != c.want {
			t.Errorf("%s: status %d, want %d", name, got, c.want)
		}
	}
	if n := len(h.objects()); n != 1 {
		t.Fatalf("%d objects after the refusals", n)
	}

	other := mediaapi.New(h.internal, svcclient.WithTokens(h.iss.Tokens(t, "employee")))
	if got := status(other.PutDocumento(ctx, chave, "image/png", png)); got != http.StatusForbidden {
		t.Fatalf("employee's token: %d", got)
	}
	if err := client.DeleteDocumento(ctx, chave); err != nil {
		t.Fatal(err)
	}
	if _, _, err := client.GetDocumento(ctx, chave); status(err) != http.StatusNotFound {
		t.Fatalf("after delete: %v", err)
	}
	if err := client.DeleteDocumento(ctx, chave); err != nil {
		t.Fatalf("deleting again: %v", err)
	}
}
