package gateway

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

func TestDefaultTransportPool(t *testing.T) {
	tr := DefaultTransport()
	if tr.MaxIdleConnsPerHost != DefaultMaxIdleConnsPerHost || tr.MaxIdleConns != DefaultMaxIdleConns ||
		tr.IdleConnTimeout != DefaultIdleConnTimeout {
		t.Errorf("pool %d/%d/%s; want %d/%d/%s", tr.MaxIdleConnsPerHost, tr.MaxIdleConns, tr.IdleConnTimeout,
			DefaultMaxIdleConnsPerHost, DefaultMaxIdleConns, DefaultIdleConnTimeout)
	}
	if tr.Proxy == nil || tr.DialContext == nil {
		t.Error("DefaultTransport lost http.DefaultTransport's proxy or dialer")
	}
	if tr == http.DefaultTransport {
		t.Error("DefaultTransport must be a copy: the gateway's pool is its own")
	}
}

// Many concurrent clients reuse the upstream connections instead of
// opening one per request, as they would with http.DefaultTransport's two
// idle connections per host.
func TestConcurrentClientsReuseUpstreamConnections(t *testing.T) {
	const clients, rounds = 32, 20
	var dials atomic.Int64
	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{}`)
	}))
	up.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dials.Add(1)
		}
	}
	up.Start()
	t.Cleanup(up.Close)
	g, err := New(Options{Table: realTable(t), Upstreams: allUpstreams(Upstream{Public: up.URL, Internal: up.URL})})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	t.Cleanup(client.CloseIdleConnections)
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for range rounds {
				resp, err := client.Get(srv.URL + "/registropontos")
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	// At most one connection per client in flight; twice that leaves room
	// for a dial that races a connection being handed back to the pool.
	if n := dials.Load(); n > 2*clients {
		t.Errorf("%d upstream connections for %d requests of %d clients; want at most %d",
			n, clients*rounds, clients, 2*clients)
	}
}
