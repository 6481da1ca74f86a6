package internalapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/svcclient"
)

// Client calls timekeeping's internal API. Failures are *apierr.Error
// values from svcclient (a 503 when timekeeping is unreachable), or a
// domain error for an answer outside the contract (a 502).
type Client struct{ c *svcclient.Client }

// New returns a client for timekeeping's internal base URL
// (TIMEKEEPING_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{c: svcclient.New(baseURL, opts...)}
}

// NewSender is the client a source service's outbox relay delivers with
// (its Sender): timekeeping at cfg.URL, each post bounded by cfg.Timeout.
func NewSender(cfg outbox.Config, opts ...svcclient.Option) *Client {
	return New(cfg.URL, append([]svcclient.Option{svcclient.WithTimeout(cfg.Timeout)}, opts...)...)
}

// PostEvento sends one event: POST /internal/eventos. aplicado is false
// for an id applied before. An event out of sequence is a 409
// CodeForaDeOrdem whose Esperada names the sequence expected.
func (c *Client) PostEvento(ctx context.Context, e Evento) (aplicado bool, err error) {
	var r Resultado
	if err := c.c.PostJSON(ctx, Path, e, &r); err != nil {
		return false, err
	}
	if r.Aplicado == nil {
		return false, domainerr.BadDependency("timekeeping", errors.New("POST "+Path+": 200 without aplicado"))
	}
	return *r.Aplicado, nil
}

// Send is outbox.Sender: it sends a relay's pending event, its stored
// dados as the Payload, and reports a 409 CodeForaDeOrdem as an
// *outbox.OutOfOrder.
func (c *Client) Send(ctx context.Context, e outbox.Event) error {
	ev := Evento{ID: e.ID, Origem: e.Origem, EmpresaID: e.EmpresaID, Sequencia: e.Sequencia,
		OcorridoEm: clock.FormatISO(e.OcorridoEm), Tipo: e.Tipo}
	if err := json.Unmarshal(e.Dados, &ev.Payload); err != nil {
		return fmt.Errorf("timekeeping: stored dados of %s: %w", e.ID, err)
	}
	_, err := c.PostEvento(ctx, ev)
	if ae, ok := apierr.As(err); ok && ae.Status == http.StatusConflict && ae.Code == CodeForaDeOrdem {
		return &outbox.OutOfOrder{Esperada: ae.Esperada, Err: err}
	}
	return err
}
