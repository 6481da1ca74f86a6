package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ponto/ponto/services/web/internal/session"
)

// rotatingAPI answers like auth: a refresh token works once, and a
// replayed one ends the session; /recurso wants the latest access token.
type rotatingAPI struct {
	mu       sync.Mutex
	current  string // the live refresh token
	access   string // the live access token
	revoked  bool
	renewals atomic.Int32
}

func (a *rotatingAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch r.URL.Path {
	case "/auth/refresh-token":
		var in struct{ RefreshToken string }
		_ = json.NewDecoder(r.Body).Decode(&in)
		if a.revoked || in.RefreshToken != a.current {
			a.revoked = true
			http.Error(w, `{"message":"refresh token inválido","code":"refresh_token_invalido"}`, http.StatusUnauthorized)
			return
		}
		time.Sleep(20 * time.Millisecond) // let the concurrent calls pile up
		n := a.renewals.Add(1)
		a.current, a.access = "rt"+strconv.Itoa(int(n)), "at"+strconv.Itoa(int(n))
		_ = json.NewEncoder(w).Encode(map[string]string{"accessToken": a.access, "refreshToken": a.current})
	case "/recurso":
		if a.revoked || r.Header.Get("Authorization") != "Bearer "+a.access {
			http.Error(w, `{"message":"token inválido","code":"token_invalido"}`, http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}
}

// Concurrent calls of one session whose access token expired renew the
// refresh token once and all succeed, and so does a call that comes a
// little later with the old cookie; a rotating API would revoke the
// session on a second renewal with the same token.
func TestRenewalSharedBySession(t *testing.T) {
	t.Parallel()
	api := &rotatingAPI{current: "rt0", access: "at0"}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	c := New(srv.URL, 5*time.Second)
	api.access = "expirado"

	call := func() (*session.Session, error) {
		sess := &session.Session{Role: session.RoleEmpresa, Token: "at0", Refresh: "rt0"}
		return sess, c.Do(context.Background(), sess, Call{Method: http.MethodGet, Path: "/recurso"}, nil)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for range 10 {
		wg.Go(func() {
			sess, err := call()
			if err == nil && (sess.Token != "at1" || sess.Refresh != "rt1") {
				t.Errorf("session after renewal: %+v", sess)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("call: %v", err)
		}
	}
	if _, err := call(); err != nil {
		t.Errorf("a later call with the old cookie: %v", err)
	}
	if n := api.renewals.Load(); n != 1 {
		t.Errorf("%d renewals, want 1", n)
	}
}

// A failed renewal is not remembered: the session ends, and the next
// call asks the API again.
func TestRenewalFailureNotRemembered(t *testing.T) {
	t.Parallel()
	api := &rotatingAPI{current: "outro", access: "outro"}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	c := New(srv.URL, 5*time.Second)
	sess := &session.Session{Role: session.RoleEmpresa, Token: "at0", Refresh: "rt0"}
	if err := c.Do(context.Background(), sess, Call{Method: http.MethodGet, Path: "/recurso"}, nil); err != ErrSessionEnded {
		t.Fatalf("err %v, want ErrSessionEnded", err)
	}
	api.mu.Lock()
	api.revoked, api.current = false, "rt0"
	api.mu.Unlock()
	if err := c.Do(context.Background(), sess, Call{Method: http.MethodGet, Path: "/recurso"}, nil); err != nil {
		t.Fatalf("second call: %v", err)
	}
}
