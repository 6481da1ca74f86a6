// Package outboxtest is a stand-in for timekeeping's side of the REP event
// contract (docs/internal-api.md), for the tests of the relay and of the
// services that write events: it applies each company's events strictly
// in sequence, once per id, and can be taken down or made to refuse an
// event. The services' tests reach it over HTTP, through timekeeping's
// client; the relay's own tests call it in process (Send).
package outboxtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/outbox"
)

// path is timekeeping's route for the events.
const path = "/internal/eventos"

// Receiver answers POST /internal/eventos as the contract says: 200
// aplicado true/false, 409 evento_fora_de_ordem with esperada, 400 for a
// malformed (or refused) event, 503 while down.
type Receiver struct {
	srv *httptest.Server

	mu      sync.Mutex
	down    bool
	reject  map[string]bool  // ids answered 400
	next    map[string]int64 // "origem/empresaId" → last sequence applied
	seen    map[string]bool
	applied []map[string]any
	posts   int
}

// NewReceiver starts a receiver, closed when the test ends.
func NewReceiver(t testing.TB) *Receiver {
	r := &Receiver{}
	r.Reset()
	r.srv = httptest.NewServer(r)
	t.Cleanup(r.srv.Close)
	return r
}

// URL is the receiver's base URL (TIMEKEEPING_INTERNAL_URL).
func (r *Receiver) URL() string { return r.srv.URL }

// SetDown makes every answer a 503 (true) or brings the receiver back.
func (r *Receiver) SetDown(down bool) { r.with(func() { r.down = down }) }

// Reject makes the receiver answer 400 to event id (nil clears).
func (r *Receiver) Reject(ids ...string) {
	r.with(func() {
		r.reject = map[string]bool{}
		for _, id := range ids {
			r.reject[id] = true
		}
	})
}

// Reset forgets everything applied, as a receiver restored from an
// empty backup would.
func (r *Receiver) Reset() {
	r.with(func() {
		r.reject, r.next, r.seen, r.applied = map[string]bool{}, map[string]int64{}, map[string]bool{}, nil
	})
}

// Applied returns the events applied, in the order they were.
func (r *Receiver) Applied() []map[string]any {
	var out []map[string]any
	r.with(func() { out = append(out, r.applied...) })
	return out
}

// Posts is how many requests arrived.
func (r *Receiver) Posts() int {
	var n int
	r.with(func() { n = r.posts })
	return n
}

func (r *Receiver) with(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f()
}

// ServeHTTP applies one event.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var status int
	var answer any
	if req.Method != http.MethodPost || req.URL.Path != path {
		status, answer = http.StatusNotFound, apierr.NotFound("rota desconhecida")
	} else {
		body, _ := io.ReadAll(req.Body)
		var ev map[string]any
		if err := json.Unmarshal(body, &ev); err != nil {
			ev = nil
		}
		status, answer = r.apply(ev)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(answer)
}

// Send applies e in process, as outbox.Sender: what timekeeping's client
// would make of the answer over HTTP.
func (r *Receiver) Send(_ context.Context, e outbox.Event) error {
	ev := map[string]any{}
	if err := json.Unmarshal(e.Dados, &ev); err != nil {
		return apierr.Internal(err)
	}
	// Numbers as encoding/json decodes them from the wire.
	ev["id"], ev["origem"], ev["empresaId"], ev["sequencia"] = e.ID, e.Origem, float64(e.EmpresaID), float64(e.Sequencia)
	ev["ocorridoEm"], ev["tipo"] = clock.FormatISO(e.OcorridoEm), e.Tipo
	status, answer := r.apply(ev)
	if status == http.StatusOK {
		return nil
	}
	ae := answer.(*apierr.Error)
	if ae.Esperada > 0 {
		return &outbox.OutOfOrder{Esperada: ae.Esperada, Err: ae}
	}
	return ae
}

// apply applies one event (nil: a body that is not a JSON object) and
// returns the status and body of the answer.
func (r *Receiver) apply(ev map[string]any) (int, any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.posts++
	if r.down {
		return http.StatusServiceUnavailable, apierr.Unavailable("timekeeping", errors.New("fora do ar"))
	}
	id, _ := ev["id"].(string)
	seq, _ := ev["sequencia"].(float64)
	if ev == nil || id == "" || seq < 1 || r.reject[id] {
		return http.StatusBadRequest, apierr.BadRequest("evento_invalido", "evento inválido")
	}
	if r.seen[id] {
		return http.StatusOK, map[string]bool{"aplicado": false}
	}
	key := fmt.Sprintf("%v/%v", ev["origem"], ev["empresaId"])
	if want := r.next[key] + 1; int64(seq) != want {
		e := apierr.Conflict("evento_fora_de_ordem", "evento fora de ordem")
		e.Esperada = want
		return http.StatusConflict, e
	}
	r.next[key]++
	r.seen[id] = true
	r.applied = append(r.applied, ev)
	return http.StatusOK, map[string]bool{"aplicado": true}
}

// Of returns the events of company empresaID among evs, as
// "sequencia:tipo" strings, in order.
func Of(evs []map[string]any, empresaID int64) []string {
	var out []string
	for _, e := range evs {
		if id, _ := e["empresaId"].(float64); int64(id) == empresaID {
			out = append(out, fmt.Sprintf("%v:%v", e["sequencia"], e["tipo"]))
		}
	}
	return out
}
