package internalapi

import (
	"context"
	"net/http"

	"github.com/ponto/ponto/pkg/svcclient"
)

// Client calls media's internal API. Failures are *apierr.Error values
// from svcclient: media's 4xx passes on as it came, a down or failing
// service is a 503.
type Client struct{ c *svcclient.Client }

// New returns a client for media's internal base URL (MEDIA_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	opts = append([]svcclient.Option{svcclient.WithMaxResponseBytes(2 * MaxDocumentoBytes)}, opts...)
	return &Client{c: svcclient.New(baseURL, opts...)}
}

// PutDocumento stores data of type contentType under chave, replacing
// what was there: PUT /internal/documentos/{chave}.
func (c *Client) PutDocumento(ctx context.Context, chave, contentType string, data []byte) error {
	return c.c.Do(ctx, http.MethodPut, DocumentoPath(chave), Documento{ContentType: contentType, Dados: data}, nil)
}

// GetDocumento reads the document under chave: GET
// /internal/documentos/{chave} (404 when there is none).
func (c *Client) GetDocumento(ctx context.Context, chave string) ([]byte, string, error) {
	var d Documento
	err := c.c.GetJSON(ctx, DocumentoPath(chave), &d)
	return d.Dados, d.ContentType, err
}

// DeleteDocumento removes the document under chave, if any: DELETE
// /internal/documentos/{chave}.
func (c *Client) DeleteDocumento(ctx context.Context, chave string) error {
	return c.c.Do(ctx, http.MethodDelete, DocumentoPath(chave), nil, nil)
}
