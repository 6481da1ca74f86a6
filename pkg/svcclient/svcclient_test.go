package svcclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/svcclient"
)

type employee struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// server answers every request with handler and counts the attempts.
func server(t *testing.T, handler http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// mustAPIError asserts err is an *apierr.Error with the given status.
func mustAPIError(t *testing.T, err error, status int) *apierr.Error {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("error %v (%T) is not an *apierr.Error", err, err)
	}
	if e.Status != status {
		t.Fatalf("status = %d, want %d (%v)", e.Status, status, err)
	}
	return e
}

func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Accept"); got != "application/json" {
			t.Errorf("Accept = %q", got)
		}
		switch r.Method {
		case http.MethodGet:
			if r.URL.Path != "/employees/42" || r.URL.Query().Get("tenant") != "t1" {
				t.Errorf("GET %s", r.URL)
			}
			writeJSON(w, http.StatusOK, employee{ID: "42", Name: "Ana"})
		case http.MethodPost, http.MethodPut:
			if got := r.Header.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type = %q", got)
			}
			var in employee
			if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
				t.Errorf("decode: %v", err)
			}
			in.ID = r.Method
			writeJSON(w, http.StatusCreated, in)
		case http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	c := svcclient.New(srv.URL + "/") // the trailing slash must not double up
	ctx := context.Background()

	var got employee
	if err := c.GetJSON(ctx, "/employees/42?tenant=t1", &got); err != nil || got.Name != "Ana" {
		t.Fatalf("GetJSON = %+v, %v", got, err)
	}
	for _, send := range []func(context.Context, string, any, any) error{c.PostJSON, c.PutJSON} {
		var out employee
		if err := send(ctx, "employees", employee{Name: "Bia"}, &out); err != nil || out.Name != "Bia" {
			t.Fatalf("send = %+v, %v", out, err)
		}
	}
	var untouched employee
	if err := c.Do(ctx, http.MethodDelete, "/employees/42", nil, &untouched); err != nil {
		t.Fatalf("DELETE with 204: %v", err)
	}
}

func TestReadsAreRetriedOnUnavailable(t *testing.T) {
	t.Parallel()
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		t.Run(method, func(t *testing.T) {
			t.Parallel()
			var first atomic.Bool
			srv, attempts := server(t, func(w http.ResponseWriter, r *http.Request) {
				if !first.Swap(true) {
					// A long Retry-After must not stall the caller.
					w.Header().Set("Retry-After", "30")
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				writeJSON(w, http.StatusOK, employee{ID: "1"})
			})

			start := time.Now()
			if err := svcclient.New(srv.URL).Do(context.Background(), method, "/x", nil, nil); err != nil {
				t.Fatalf("%s after one 503: %v", method, err)
			}
			if n := attempts.Load(); n != 2 {
				t.Errorf("attempts = %d, want 2", n)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v: Retry-After was not capped", d)
			}
		})
	}
}

func TestReadsGiveUpAfterRetries(t *testing.T) {
	t.Parallel()
	for status, retries := range map[int]int{http.StatusBadGateway: 2, http.StatusGatewayTimeout: 1} {
		srv, attempts := server(t, func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, status, map[string]string{"code": "erro_interno", "message": "boom"})
		})
		err := svcclient.New(srv.URL, svcclient.WithRetries(retries)).GetJSON(context.Background(), "/x", nil)
		mustAPIError(t, err, http.StatusServiceUnavailable)
		if n := int(attempts.Load()); n != retries+1 {
			t.Errorf("status %d: attempts = %d, want %d", status, n, retries+1)
		}
	}
}

func TestWritesAreNotRetried(t *testing.T) {
	t.Parallel()
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		srv, attempts := server(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
		})
		err := svcclient.New(srv.URL).Do(context.Background(), method, "/punches", map[string]int{"n": 1}, nil)
		mustAPIError(t, err, http.StatusServiceUnavailable)
		if n := attempts.Load(); n != 1 {
			t.Errorf("%s: attempts = %d, want 1", method, n)
		}
	}
}

func TestOtherFailuresAreNotRetried(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]int{
		http.StatusInternalServerError: http.StatusServiceUnavailable,
		http.StatusNotFound:            http.StatusNotFound,
	} {
		srv, attempts := server(t, func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, status, map[string]string{"code": "c", "message": "m"})
		})
		mustAPIError(t, svcclient.New(srv.URL).GetJSON(context.Background(), "/x", nil), want)
		if n := attempts.Load(); n != 1 {
			t.Errorf("status %d: attempts = %d, want 1", status, n)
		}
	}
}

func TestTimeoutIsUnavailable(t *testing.T) {
	t.Parallel()
	srv, attempts := server(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := svcclient.New(srv.URL, svcclient.WithTimeout(100*time.Millisecond))

	start := time.Now()
	err := c.GetJSON(context.Background(), "/slow", nil)
	e := mustAPIError(t, err, http.StatusServiceUnavailable)
	if !strings.Contains(e.Error(), srv.Listener.Addr().String()) {
		t.Errorf("error %q does not name the peer", e)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timeout took %v", d)
	}
	// A slow peer is not hammered with retries.
	if n := attempts.Load(); n != 1 {
		t.Errorf("attempts = %d, want 1", n)
	}
}

func TestCallerDeadlineIsUnavailable(t *testing.T) {
	t.Parallel()
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()

	err := svcclient.New(srv.URL).GetJSON(ctx, "/slow", nil)
	mustAPIError(t, err, http.StatusServiceUnavailable)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cause lost: %v", err)
	}
}

func TestConnectionRefusedIsUnavailable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()

	c := svcclient.New(url)
	mustAPIError(t, c.GetJSON(context.Background(), "/x", nil), http.StatusServiceUnavailable)
	mustAPIError(t, c.PostJSON(context.Background(), "/x", struct{}{}, nil), http.StatusServiceUnavailable)
}

func TestPeerAPIErrorPassesThrough(t *testing.T) {
	t.Parallel()
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			writeJSON(w, http.StatusNotFound, apierr.NotFound("funcionário não encontrado"))
		case "/invalid":
			writeJSON(w, http.StatusBadRequest, apierr.Invalid(map[string]string{"cpf": "inválido"}))
		case "/limited":
			w.Header().Set("Retry-After", "7")
			writeJSON(w, http.StatusTooManyRequests, apierr.TooManyRequests(7))
		}
	})
	c := svcclient.New(srv.URL)
	ctx := context.Background()

	e := mustAPIError(t, c.GetJSON(ctx, "/missing", nil), http.StatusNotFound)
	if e.Code != "nao_encontrado" || e.Message != "funcionário não encontrado" {
		t.Errorf("404 became %+v", e)
	}
	e = mustAPIError(t, c.PostJSON(ctx, "/invalid", struct{}{}, nil), http.StatusBadRequest)
	if e.Code != "validacao" || e.Fields["cpf"] != "inválido" {
		t.Errorf("400 became %+v", e)
	}
	e = mustAPIError(t, c.GetJSON(ctx, "/limited", nil), http.StatusTooManyRequests)
	if e.RetryAfter != 7 {
		t.Errorf("RetryAfter = %d, want 7", e.RetryAfter)
	}
}

func TestMalformedAnswersAreBadGateway(t *testing.T) {
	t.Parallel()
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/plain404":
			http.NotFound(w, r)
		case "/badjson":
			w.Write([]byte(`{"id":`))
		case "/huge":
			w.Write([]byte(`"` + strings.Repeat("a", 2<<20) + `"`))
		}
	})
	c := svcclient.New(srv.URL)
	ctx := context.Background()
	var out any

	for _, path := range []string{"/plain404", "/badjson", "/huge"} {
		mustAPIError(t, c.GetJSON(ctx, path, &out), http.StatusBadGateway)
	}
	// The limit is configurable for the few endpoints that need more.
	big := svcclient.New(srv.URL, svcclient.WithMaxResponseBytes(4<<20))
	if err := big.GetJSON(ctx, "/huge", &out); err != nil {
		t.Errorf("with a 4 MiB limit: %v", err)
	}
}

func TestUnencodableBodyIsInternal(t *testing.T) {
	t.Parallel()
	srv, attempts := server(t, func(w http.ResponseWriter, r *http.Request) {})
	err := svcclient.New(srv.URL).PostJSON(context.Background(), "/x", map[string]any{"f": func() {}}, nil)
	mustAPIError(t, err, http.StatusInternalServerError)
	if n := attempts.Load(); n != 0 {
		t.Errorf("attempts = %d, want 0", n)
	}
}

func TestWithHTTPClient(t *testing.T) {
	t.Parallel()
	var used atomic.Bool
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		used.Store(true)
		return http.DefaultTransport.RoundTrip(r)
	})
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, employee{ID: "1"}) })

	var out employee
	err := svcclient.New(srv.URL, svcclient.WithHTTPClient(&http.Client{Transport: rt})).GetJSON(context.Background(), "/", &out)
	if err != nil || out.ID != "1" {
		t.Fatalf("GetJSON = %+v, %v", out, err)
	}
	if !used.Load() {
		t.Error("the supplied transport was not used")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestErrorsKeepQueryStringsOutOfLogs(t *testing.T) {
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer peer.Close()
	for _, base := range []string{peer.URL, "http://127.0.0.1:1"} {
		c := svcclient.New(base, svcclient.WithRetries(0))
		err := c.GetJSON(context.Background(), "/internal/funcionarios/por-email?email=fulano@empresa.com", nil)
		if err == nil {
			t.Fatalf("%s: want an error", base)
		}
		if strings.Contains(err.Error(), "fulano") {
			t.Fatalf("query string in the error: %v", err)
		}
	}
}
