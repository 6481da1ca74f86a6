package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// recorder is a stand-in service that notes which paths reached it.
type recorder struct {
	mu    sync.Mutex
	paths []string
	srv   *httptest.Server
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.paths = append(r.paths, req.URL.RequestURI())
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.paths
}

// Each call goes to the service whose route matches its path, as
// routes.yaml says (first match wins, the photo regex whole-path only);
// what no route claims goes to Base.
func TestClientRoutesCallsToTheirService(t *testing.T) {
	base, auth, media, employee := newRecorder(t), newRecorder(t), newRecorder(t), newRecorder(t)
	routes, err := ParseRoutes(`[
		{"prefix": "/auth", "url": "` + auth.srv.URL + `/"},
		{"exact": "/.well-known/jwks.json", "url": "` + auth.srv.URL + `"},
		{"regex": "^/funcionarios/[^/]+/foto$", "url": "` + media.srv.URL + `"},
		{"prefix": "/funcionarios", "url": "` + employee.srv.URL + `"}]`)
	if err != nil {
		t.Fatal(err)
	}
	c := New(base.srv.URL, 5*time.Second)
	c.Routes = routes
	for _, path := range []string{
		"/auth/login", "/authx", "/funcionarios/7/foto", "/funcionarios/7/foto?t=1", "/funcionarios/7/foto/x",
		"/x/funcionarios/7/foto", "/funcionarios", "/funcionarios/7", "/funcionariosx", "/empresas/me",
	} {
		if err := c.Do(context.Background(), nil, Call{Method: http.MethodGet, Path: path}, nil); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	want := map[string][]string{
		"base":     {"/authx", "/x/funcionarios/7/foto", "/funcionariosx", "/empresas/me"},
		"auth":     {"/auth/login", "/.well-known/jwks.json"},
		"media":    {"/funcionarios/7/foto", "/funcionarios/7/foto?t=1"},
		"employee": {"/funcionarios/7/foto/x", "/funcionarios", "/funcionarios/7"},
	}
	got := map[string][]string{"base": base.got(), "auth": auth.got(), "media": media.got(), "employee": employee.got()}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths per service (-want +got):\n%s", diff)
	}
}

func TestParseRoutesRefusesBadRoutes(t *testing.T) {
	tests := []struct {
		name, raw, wantErr string
	}{
		{name: "not JSON", raw: `{`, wantErr: "WEB_API_ROUTES"},
		{name: "two matchers", raw: `[{"prefix":"/a","exact":"/a","url":"http://a"}]`, wantErr: "exactly one"},
		{name: "no matcher", raw: `[{"url":"http://a"}]`, wantErr: "exactly one"},
		{name: "no URL", raw: `[{"prefix":"/a"}]`, wantErr: "http(s) URL"},
		{name: "not http", raw: `[{"prefix":"/a","url":"ftp://a"}]`, wantErr: "http(s) URL"},
		{name: "bad regex", raw: `[{"regex":"^/(a$","url":"http://a"}]`, wantErr: "regex"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRoutes(tt.raw)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("ParseRoutes(%s) = %v, want an error containing %q", tt.raw, err, tt.wantErr)
			}
		})
	}
	if routes, err := ParseRoutes("  "); err != nil || routes != nil {
		t.Fatalf("ParseRoutes(blank) = %v, %v; want none", routes, err)
	}
}
