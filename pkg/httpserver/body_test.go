package httpserver_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
)

type punch struct {
	Endereco      string `json:"endereco"`
	FuncionarioID int64  `json:"funcionarioId"`
}

func TestDecodeJSON(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Post("/registropontos", func(c *fiber.Ctx) error {
			var p punch
			if err := httpserver.DecodeJSON(c, &p); err != nil {
				return err
			}
			return c.JSON(p)
		})
	})
	url := r.public + "/registropontos"
	jsonCT := map[string]string{"Content-Type": "application/json; charset=utf-8"}

	a := call(t, "POST", url, strings.NewReader(`{"endereco":"-23.5, -46.6","funcionarioId":7}`), jsonCT)
	if a.status != 200 || a.body["funcionarioId"] != float64(7) {
		t.Fatalf("valid body refused: %d %s", a.status, a.raw)
	}
	// A compressed body is refused, however small and well-formed.
	gz := gzipped(t, strings.NewReader(`{"endereco":"-23.5, -46.6","funcionarioId":8}`))
	z := call(t, "POST", url, bytes.NewReader(gz), map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"})
	wantError(t, z, 415, "codificacao_nao_suportada")

	cases := []struct {
		name, body string
		header     map[string]string
		status     int
		code       string
		field      string
	}{
		{"wrong content type", `{"funcionarioId":7}`, map[string]string{"Content-Type": "text/plain"}, 415, "tipo_nao_suportado", ""},
		{"empty", ``, jsonCT, 400, "json_invalido", ""},
		{"malformed", `{"funcionarioId":`, jsonCT, 400, "json_invalido", ""},
		{"two values", `{"funcionarioId":7}{"funcionarioId":8}`, jsonCT, 400, "json_invalido", ""},
		{"unknown field", `{"funcionarioId":7,"horarioRegistro":"2020-01-01T00:00:00Z"}`, jsonCT, 400, "validacao", "horarioRegistro"},
		{"wrong type", `{"funcionarioId":"7"}`, jsonCT, 400, "validacao", "funcionarioId"},
		{"array body", `[]`, jsonCT, 400, "validacao", "corpo"},
		{"null body", ` null `, jsonCT, 400, "json_invalido", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := call(t, "POST", url, strings.NewReader(tc.body), tc.header)
			wantError(t, a, tc.status, tc.code)
			if tc.field != "" {
				fields, _ := a.body["fields"].(map[string]any)
				if fields[tc.field] == nil {
					t.Fatalf("field %q not named: %s", tc.field, a.raw)
				}
			}
		})
	}
}

// gzipped is r compressed at gzip's best level.
func gzipped(t *testing.T, r io.Reader) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(zw, r); err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zeros reads n zero bytes.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), z.n))
	clear(p[:n])
	z.n -= int64(n)
	return n, nil
}

// A body gzipped twice (a few hundred bytes that inflate to 128 MiB) is
// refused before anything inflates it: at once, with flat memory, whether
// the route reads JSON, a form or a multipart upload.
func TestCompressedBombRefused(t *testing.T) {
	bomb := gzipped(t, bytes.NewReader(gzipped(t, &zeros{n: 128 << 20})))
	if len(bomb) > 1024 {
		t.Fatalf("bomb is %d bytes, want a few hundred", len(bomb))
	}
	t.Logf("bomb: %d bytes inflating to 128 MiB", len(bomb))
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Post("/json", func(c *fiber.Ctx) error { return c.SendString(string(c.Body())) })
		s.Public.Post("/form", func(c *fiber.Ctx) error { return c.SendString(c.FormValue("_csrf")) })
		s.Public.Post("/upload", func(c *fiber.Ctx) error {
			_, err := c.MultipartForm()
			return err
		})
	})
	for _, tc := range []struct{ path, contentType string }{
		{"/json", "application/json"},
		{"/form", "application/x-www-form-urlencoded"},
		{"/upload", "multipart/form-data; boundary=x"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			a := call(t, "POST", r.public+tc.path, bytes.NewReader(bomb),
				map[string]string{"Content-Type": tc.contentType, "Content-Encoding": "gzip, gzip"})
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			wantError(t, a, 415, "codificacao_nao_suportada")
			if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 4<<20 {
				t.Errorf("refusing the bomb allocated %d bytes, want < 4 MiB", allocated)
			}
			if took > time.Second {
				t.Errorf("refusing the bomb took %s", took)
			}
		})
	}
}
