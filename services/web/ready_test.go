package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
)

// The web pods are ready without the API (nothing listens at WEB_API_URL,
// no Service of that name exists): readiness is their own, and the API's
// absence shows as a warning.
func TestReadyWithoutTheAPI(t *testing.T) {
	for _, apiURL := range []string{"http://127.0.0.1:1", "http://ponto-gateway.invalid"} {
		t.Run(apiURL, func(t *testing.T) {
			cfg := newConfig()
			cfg.HTTP = httpserver.Config{
				ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
				RequestTimeout: 5 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
				BodyLimit: 6 << 20,
			}
			cfg.Web = WebConfig{APIURL: apiURL, APITimeout: time.Second, SessionTTL: time.Hour,
				TimeZone: "America/Sao_Paulo", Plans: "basic"}
			srv, err := newServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), make([]byte, 32), nil, nil, clock.New(time.Now))
			if err != nil {
				t.Fatal(err)
			}
			run := servertest.Start(t, srv)

			a := servertest.Call(t, http.MethodGet, run.Internal+"/readyz", nil, nil)
			var body struct {
				Status string            `json:"status"`
				Checks map[string]string `json:"checks"`
			}
			if err := json.Unmarshal(a.Body, &body); err != nil {
				t.Fatalf("readyz body %q: %v", a.Body, err)
			}
			if a.Status != http.StatusOK || body.Status != "ok" || !strings.HasPrefix(body.Checks["api"], "aviso: ") {
				t.Fatalf("readyz = %d %s, want 200 ok with the API as a warning", a.Status, a.Body)
			}
		})
	}
}

// Where the API is must be said: WEB_API_URL, WEB_API_ROUTES or both.
func TestValidateWantsWhereTheAPIIs(t *testing.T) {
	routes := `[{"prefix": "/auth", "url": "http://ponto-auth:8080"}]`
	tests := []struct {
		name, url, routes string
		wantErr           string
	}{
		{name: "neither", wantErr: "WEB_API_URL or WEB_API_ROUTES is required"},
		{name: "routes only", routes: routes},
		{name: "url only", url: "http://127.0.0.1:8080"},
		{name: "both", url: "https://api.example.com", routes: routes},
		{name: "bad url", url: "ponto-gateway", routes: routes, wantErr: "an http(s) URL is required"},
		{name: "bad routes", url: "http://127.0.0.1:8080", routes: `[{"url": "http://x"}]`, wantErr: "exactly one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := newConfig()
			cfg.Web = WebConfig{APIURL: tt.url, APIRoutes: tt.routes, APITimeout: time.Second, SessionTTL: time.Hour,
				TimeZone: "America/Sao_Paulo", Plans: "basic"}
			err := cfg.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Validate = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Validate = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}
