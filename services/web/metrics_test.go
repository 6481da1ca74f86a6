package main

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
)

// TestMetricsScrapeAfterBurst: after every page and form is asked (the
// API unreachable, so pages answer their error), /metrics answers and
// parses (pkg/httpserver/servertest).
func TestMetricsScrapeAfterBurst(t *testing.T) {
	cfg := newConfig()
	cfg.HTTP = httpserver.Config{
		ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 5 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
		BodyLimit: 6 << 20,
	}
	cfg.Web = WebConfig{
		APIURL: "http://127.0.0.1:1", APITimeout: time.Second, SessionTTL: time.Hour,
		TimeZone: "America/Sao_Paulo", Plans: "basic",
	}
	srv, err := newServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), make([]byte, 32), nil, nil, clock.New(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	servertest.Start(t, srv).CheckMetricsAfterBurst(t, nil)
}
