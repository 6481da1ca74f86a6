package httpserver_test

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

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
	// A compressed body is read decoded, as fiber's c.Body gives it.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write([]byte(`{"endereco":"-23.5, -46.6","funcionarioId":8}`)); err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	z := call(t, "POST", url, &gz, map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"})
	if z.status != 200 || z.body["funcionarioId"] != float64(8) {
		t.Fatalf("gzip body: %d %s", z.status, z.raw)
	}

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
