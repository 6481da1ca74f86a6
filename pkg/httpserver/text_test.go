package httpserver_test

import (
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/httpserver"
)

type textBody struct {
	Nome   string   `json:"nome"`
	Motivo *string  `json:"motivo" text:"multiline"`
	Tags   []string `json:"tags"`
	Nested struct {
		Cidade string `json:"cidade"`
	} `json:"endereco"`
}

func TestTextRule(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Post("/things", func(c *fiber.Ctx) error {
			var b textBody
			if err := httpserver.DecodeJSON(c, &b); err != nil {
				return err
			}
			return c.JSON(b)
		})
		s.Public.Get("/things/:name", func(c *fiber.Ctx) error { return c.SendString(c.Params("name")) })
	})
	jsonCT := map[string]string{"Content-Type": "application/json"}
	post := func(body string) answer {
		return call(t, "POST", r.public+"/things", strings.NewReader(body), jsonCT)
	}
	if a := post(`{"nome":"Conceição","motivo":"linha 1\nlinha 2","tags":["a"],"endereco":{"cidade":"São Paulo"}}`); a.status != 200 {
		t.Fatalf("good text refused: %d %s", a.status, a.raw)
	}
	fieldCases := map[string]struct{ body, field string }{
		"NUL escape":         {`{"nome":"a\u0000b"}`, "nome"},
		"ESC":                {`{"nome":"a\u001b[31m"}`, "nome"},
		"RLO":                {`{"nome":"abc\u202egpj"}`, "nome"},
		"lone surrogate":     {`{"nome":"a\ud800b"}`, "nome"},
		"newline one-line":   {`{"nome":"a\nb"}`, "nome"},
		"C1 in multiline":    {`{"motivo":"a\u0085b"}`, "motivo"},
		"NUL in a list":      {`{"tags":["ok","a\u0000"]}`, "tags"},
		"RLO in a sub-field": {`{"endereco":{"cidade":"\u202e"}}`, "endereco.cidade"},
	}
	for name, tc := range fieldCases {
		a := post(tc.body)
		wantError(t, a, 400, "validacao")
		if fields, _ := a.body["fields"].(map[string]any); fields[tc.field] == nil {
			t.Errorf("%s: field %q not named: %s", name, tc.field, a.raw)
		}
	}
	wantError(t, post("{\"nome\":\"a\xffb\"}"), 400, "codificacao_invalida")
	wantError(t, post("{\"nome\":\"a\xed\xa0\x80b\"}"), 400, "codificacao_invalida")

	if a := call(t, "GET", r.public+"/things/Jo%C3%A3o?q=S%C3%A3o", nil, nil); a.status != 200 {
		t.Fatalf("good path refused: %d %s", a.status, a.raw)
	}
	for _, bad := range []string{"/things/a%00b", "/things/a%E2%80%AEb", "/things/a%FFb", "/things/ok?q=a%00", "/things/ok?q=%E2%80%AE"} {
		wantError(t, call(t, "GET", r.public+bad, nil, nil), 400, "validacao")
	}
}

// A PostgreSQL data error (class 22) that reaches the error handler is the
// client's bad input: 400, not 500.
func TestPostgresDataErrorIs400(t *testing.T) {
	db := dbtest.New(t, nil)
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/nul", func(c *fiber.Ctx) error {
			var out string
			return db.QueryRow(c.UserContext(), "SELECT $1::text", "a\x00b").Scan(&out)
		})
		s.Public.Get("/range", func(c *fiber.Ctx) error {
			var out int16
			return db.QueryRow(c.UserContext(), "SELECT 100000::int4::int2").Scan(&out)
		})
	})
	for _, path := range []string{"/nul", "/range"} {
		wantError(t, call(t, "GET", r.public+path, nil, nil), 400, "dado_invalido")
	}
}
