package e2e

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/ponto/ponto/pkg/httpserver/servertest"
)

// TestOversizedBodiesGet413: 50 JSON bodies of 2 MiB (the services take
// 1 MiB) and 3 photos of 6 MiB (media takes 5 MiB) posted through the
// gateway all get 413, never 502 (a service refusing a body answers early
// and closes while it is still being sent; the gateway refuses first).
func TestOversizedBodiesGet413(t *testing.T) {
	e := sharedEnv(t)
	base := e.stack.GatewayURL()
	big := []byte(`{"nome":"` + strings.Repeat("a", 2<<20) + `"}`)
	counts := map[int]int{}
	for range 50 {
		counts[servertest.PostOversized(t, base+"/empresas", "application/json", big)]++
	}
	photo := append([]byte("--x\r\nContent-Disposition: form-data; name=\"foto\"; filename=\"f.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"),
		bytes.Repeat([]byte{0xff}, 6<<20)...)
	for range 3 {
		counts[servertest.PostOversized(t, base+"/funcionarios/1/foto", "multipart/form-data; boundary=x", photo)]++
	}
	if counts[http.StatusRequestEntityTooLarge] != 53 {
		t.Errorf("statuses of 53 oversized bodies: %v; want 53 × 413", counts)
	}
}
