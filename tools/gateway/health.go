package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
)

// health is the /healthz answer: the gateway is healthy only when every
// service is ready, so "make run" can say when the stack is usable.
type health struct {
	Status   string            `json:"status"`
	Services map[string]string `json:"services"`
	// NotReady lists the services that failed, sorted, when any did.
	NotReady []string `json:"naoProntos,omitempty"`
}

func (g *Gateway) healthz(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, http.StatusMethodNotAllowed, "metodo_nao_permitido", "método não permitido")
		return
	}
	h := g.checkAll(r.Context())
	status := http.StatusOK
	if len(h.NotReady) > 0 {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, h)
}

// checkAll asks every service's /readyz at once, each bounded by the ready
// timeout, so one hung service costs the timeout once, not per service.
func (g *Gateway) checkAll(ctx context.Context) health {
	h := health{Status: "ok", Services: make(map[string]string, len(g.internal))}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, base := range g.internal {
		wg.Go(func() {
			state := g.checkOne(ctx, base.JoinPath("/readyz").String())
			mu.Lock()
			defer mu.Unlock()
			h.Services[name] = state
			if state != "ok" {
				h.NotReady = append(h.NotReady, name)
			}
		})
	}
	wg.Wait()
	if len(h.NotReady) > 0 {
		h.Status = "indisponivel"
		slices.Sort(h.NotReady)
	}
	return h
}

func (g *Gateway) checkOne(ctx context.Context, readyURL string) string {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, readyURL, nil)
	if err != nil {
		return "não pronto: " + err.Error()
	}
	resp, err := g.client.Do(req)
	if err != nil {
		return "sem resposta: " + err.Error()
	}
	defer resp.Body.Close()
	// Drained so the connection can be reused by the next poll.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Sprintf("não pronto: /readyz respondeu %d", resp.StatusCode)
	}
	return "ok"
}

// apiError is the project's error shape, {"message","code"}.
type apiError struct {
	Message string `json:"message"`
	Code    string `json:"code"`
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, apiError{Message: message, Code: code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
