// Package outboxtest is a stand-in for timekeeping's side of the REP event
// contract (docs/internal-api.md), for the tests of the relay and of the
// services that write events: it applies each company's events strictly
// in sequence, once per id, and can be taken down or made to refuse an
// event.
package outboxtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ponto/ponto/pkg/outbox"
)

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
	r.mu.Lock()
	defer r.mu.Unlock()
	r.posts++
	reply := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	if r.down {
		reply(http.StatusServiceUnavailable, map[string]string{"code": "indisponivel", "message": "fora do ar"})
		return
	}
	if req.Method != http.MethodPost || req.URL.Path != outbox.Path {
		reply(http.StatusNotFound, map[string]string{"code": "nao_encontrado", "message": "rota desconhecida"})
		return
	}
	body, _ := io.ReadAll(req.Body)
	var ev map[string]any
	err := json.Unmarshal(body, &ev)
	id, _ := ev["id"].(string)
	seq, _ := ev["sequencia"].(float64)
	if err != nil || id == "" || seq < 1 || r.reject[id] {
		reply(http.StatusBadRequest, map[string]string{"code": "evento_invalido", "message": "evento inválido"})
		return
	}
	if r.seen[id] {
		reply(http.StatusOK, map[string]bool{"aplicado": false})
		return
	}
	key := fmt.Sprintf("%v/%v", ev["origem"], ev["empresaId"])
	if want := r.next[key] + 1; int64(seq) != want {
		reply(http.StatusConflict, map[string]any{"code": "evento_fora_de_ordem", "message": "evento fora de ordem", "esperada": want})
		return
	}
	r.next[key]++
	r.seen[id] = true
	r.applied = append(r.applied, ev)
	reply(http.StatusOK, map[string]bool{"aplicado": true})
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
