package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestUnknownMethodIsJSON405: PROPFIND through the gateway gets the JSON
// 405 of the one error handler, with the security headers, from every
// service (it was Fiber's text/plain 400).
func TestUnknownMethodIsJSON405(t *testing.T) {
	e := sharedEnv(t)
	for _, path := range []string{"/auth/login", "/empresas", "/funcionarios", "/registropontos", "/funcionarios/1/foto"} {
		req, err := http.NewRequest("PROPFIND", e.stack.GatewayURL()+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var a struct{ Code, Message string }
		if resp.StatusCode != http.StatusMethodNotAllowed || json.Unmarshal(body, &a) != nil || a.Code != "metodo_nao_permitido" ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("PROPFIND %s: %d %v %s", path, resp.StatusCode, resp.Header, body)
		}
	}
}
