package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/services/auth/internal/keys"
)

// kidOf reads the kid header of a token without verifying it.
func kidOf(t *testing.T, token string) string {
	t.Helper()
	tok, _, err := jwt.NewParser().ParseUnverified(token, &jwtauth.Claims{})
	if err != nil {
		t.Fatal(err)
	}
	kid, _ := tok.Header["kid"].(string)
	return kid
}

// jwksKids lists the kids the running service publishes.
func (h *harness) jwksKids() []string {
	h.t.Helper()
	a := h.do(http.MethodGet, h.public+keys.JWKSPath, nil).expect(h.t, http.StatusOK)
	var kids []string
	for _, k := range a.body["keys"].([]any) {
		kids = append(kids, k.(map[string]any)["kid"].(string))
	}
	return kids
}

// waitKids waits for the key watcher to publish exactly n keys.
func (h *harness) waitKids(n int) []string {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		kids := h.jwksKids()
		if len(kids) == n {
			return kids
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("JWKS publishes %v, want %d keys", kids, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Key rotation: a newer key file signs as soon as it is picked up, tokens
// of the older key verify while its file stays, and stop when it goes.
func TestKeyRotation(t *testing.T) {
	t.Parallel()
	h := start(t)
	v := h.verifier()
	oldKey := h.deps.keyring.Signing()
	oldToken := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("token")
	if kidOf(t, oldToken) != oldKey.ID {
		t.Fatalf("token kid %s, want the signing key %s", kidOf(t, oldToken), oldKey.ID)
	}

	// A key named after a later time is the newest.
	_, newKey, err := keys.Generate(h.cfg.Auth.KeysDir, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	kids := h.waitKids(2)
	if kids[0] != newKey.ID || kids[1] != oldKey.ID {
		t.Errorf("JWKS kids %v, want the new key then the old one", kids)
	}
	newToken := h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("token")
	if kidOf(t, newToken) != newKey.ID {
		t.Fatalf("after rotation the token is signed by %s, want the new key %s", kidOf(t, newToken), newKey.ID)
	}
	// The verifier that only knew the old key fetches the new one on its
	// unknown kid; the old token still verifies.
	h.verify(v, newToken)
	h.verify(v, oldToken)
	h.verify(h.verifier(), oldToken)

	// Retire the old key: its tokens stop verifying for a verifier that
	// loads the key set now, the new key's tokens do not.
	if err := os.Remove(filepath.Join(h.cfg.Auth.KeysDir, oldKey.Name)); err != nil {
		t.Fatal(err)
	}
	h.waitKids(1)
	fresh := h.verifier()
	if _, err := fresh.Verify(context.Background(), oldToken); err == nil {
		t.Error("a token of a retired key still verifies")
	}
	h.verify(fresh, newToken)
}

// A broken key file during a reload keeps the keys in use.
func TestKeyReloadKeepsKeysOnError(t *testing.T) {
	t.Parallel()
	h := start(t)
	kid := h.deps.keyring.Signing().ID
	bad := filepath.Join(h.cfg.Auth.KeysDir, "9999-bad.pem")
	if err := os.WriteFile(bad, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.waitLog("keys: reload failed; keeping the current keys")
	if kids := h.jwksKids(); len(kids) != 1 || kids[0] != kid {
		t.Errorf("JWKS %v after a failed reload, want %s", kids, kid)
	}
	h.verify(h.verifier(), h.loginEmpresa(empresaEmail, empresaPassword).expect(t, http.StatusOK).str("token"))
}

// runCommand runs main's run with args and env, as the binary would.
func runCommand(t *testing.T, env map[string]string, args ...string) error {
	t.Helper()
	saved := os.Args
	t.Cleanup(func() { os.Args = saved })
	os.Args = append([]string{"auth"}, args...)
	for k, v := range env {
		t.Setenv(k, v)
	}
	level := new(slog.LevelVar)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return run(ctx, logging.New(name, io.Discard, level), level)
}

func TestKeygenCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "auth-keys")
	if err := runCommand(t, map[string]string{"AUTH_KEYS_DIR": dir}, "keygen"); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.pem"))
	if err != nil || len(files) != 1 {
		t.Fatalf("keygen wrote %v (%v)", files, err)
	}
	info, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", info.Mode().Perm())
	}
	if _, err := time.Parse(keys.FileNameLayout+".pem", filepath.Base(files[0])); err != nil {
		t.Errorf("key file name %s is not a UTC timestamp: %v", filepath.Base(files[0]), err)
	}
	ks, err := keys.LoadDir(dir)
	if err != nil || len(ks) != 1 {
		t.Fatalf("the generated key does not load: %v", err)
	}

	if err := runCommand(t, map[string]string{"AUTH_KEYS_DIR": dir}, "keygen-typo"); err == nil {
		t.Error("an unknown command ran")
	}
}

// Without a key the service refuses to start, saying how to make one.
func TestStartWithoutKeysFails(t *testing.T) {
	dir := t.TempDir()
	err := runCommand(t, map[string]string{
		"AUTH_KEYS_DIR": dir, "HTTP_PUBLIC_ADDR": "127.0.0.1:0", "HTTP_INTERNAL_ADDR": "127.0.0.1:1",
	})
	if err == nil || !strings.Contains(err.Error(), "auth keygen") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("start-up without keys: %v", err)
	}
}

// Production settings are checked at start-up.
func TestConfigValidation(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"SMTP without code secret": {"AUTH_SMTP_ADDR": "smtp.example.com:587"},
		"short code secret":        {"AUTH_CODE_SECRET": "short"},
		"bad admin entry":          {"AUTH_ADMINS": "ops@ponto.dev"},
		"admin hash not bcrypt":    {"AUTH_ADMINS": "ops@ponto.dev:plaintext"},
		"bad TLS mode":             {"AUTH_SMTP_ADDR": "smtp.example.com:587", "AUTH_CODE_SECRET": strings.Repeat("s", 32), "AUTH_SMTP_TLS": "maybe"},
		"employee URL":             {"EMPLOYEE_INTERNAL_URL": "employee:9083"},
		"company-billing URL":      {"COMPANY_BILLING_INTERNAL_URL": "ftp://billing"},
	} {
		t.Run(name, func(t *testing.T) {
			env["AUTH_KEYS_DIR"] = t.TempDir()
			err := runCommand(t, env)
			if err == nil || !strings.Contains(err.Error(), "invalid configuration") {
				t.Fatalf("want a configuration error, got %v", err)
			}
		})
	}
}
