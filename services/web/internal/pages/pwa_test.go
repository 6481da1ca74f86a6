package pages

import (
	"bytes"
	"encoding/json"
	"image/png"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// The installable app's files: the manifest (standalone, both icons), the
// PNG icon as drawn, and the service worker, which keeps the hashed
// script, queue and styles the pages link, with no session cookie set.
func TestInstallableAppFiles(t *testing.T) {
	app, p := newApp(t, false)
	get := func(path string) (string, []byte, string) {
		resp := do(t, app, httptest.NewRequest("GET", path, nil))
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("Set-Cookie") != "" {
			t.Fatalf("GET %s: %d, cookie %q", path, resp.StatusCode, resp.Header.Get("Set-Cookie"))
		}
		return resp.Header.Get("Content-Type"), body, resp.Header.Get("Content-Security-Policy")
	}
	ct, body, csp := get("/manifest.webmanifest")
	var m struct {
		Display string `json:"display"`
		Start   string `json:"start_url"`
		Icons   []struct{ Src, Sizes, Type string }
	}
	if err := json.Unmarshal(body, &m); err != nil || ct != "application/manifest+json" || m.Display != "standalone" ||
		m.Start != "/ponto" || len(m.Icons) != 2 || m.Icons[1].Src != "/icone-192.png" {
		t.Fatalf("manifest %s (%s): %+v %v", body, ct, m, err)
	}
	if !strings.Contains(csp, "manifest-src 'self'") || !strings.Contains(csp, "worker-src 'self'") {
		t.Errorf("CSP %q does not let the manifest and the worker load", csp)
	}
	ct, body, _ = get("/icone-192.png")
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil || ct != "image/png" || img.Bounds().Dx() != 192 || len(body) > 20<<10 {
		t.Fatalf("icon: %s, %d bytes, %v", ct, len(body), err)
	}
	if r, _, b, _ := img.At(96, 60).RGBA(); r>>8 != 0xff || b>>8 != 0xff { // the hand, white
		t.Errorf("icon's hand at (96, 60) is not white")
	}
	if _, _, b, a := img.At(2, 2).RGBA(); a != 0 || b != 0 { // outside the disc: transparent
		t.Errorf("icon's corner is not transparent")
	}
	ct, body, _ = get("/sw.js")
	for _, f := range []string{p.assets.Path("app.js"), p.assets.Path("fila.js"), p.assets.Path("app.css"), "/icone-192.png"} {
		if !bytes.Contains(body, []byte(`"`+f+`"`)) {
			t.Errorf("the service worker does not keep %s", f)
		}
	}
	if !strings.HasPrefix(ct, "text/javascript") || !bytes.Contains(body, []byte(`importScripts("`+p.assets.Path("fila.js")+`")`)) {
		t.Errorf("sw.js: %s\n%s", ct, body)
	}
}
