package page_test

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/page"
)

func TestFromQuery(t *testing.T) {
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		e, _ := apierr.As(err)
		return c.Status(e.Status).JSON(e)
	}})
	app.Get("/", func(c *fiber.Ctx) error {
		p, err := page.FromQuery(c)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"offset": p.Offset(), "limit": p.Limit()})
	})
	for query, want := range map[string]string{
		"":                             `{"limit":20,"offset":0}`,
		"?pagina=3&tamanho=10":         `{"limit":10,"offset":20}`,
		"?tamanho=100":                 `{"limit":100,"offset":0}`,
		"?tamanho=101":                 "400",
		"?tamanho=0":                   "400",
		"?pagina=0":                    "400",
		"?pagina=-1":                   "400",
		"?pagina=abc":                  "400",
		"?pagina=10001":                "400",
		"?pagina=99999999999999999999": "400",
	} {
		res, err := app.Test(httptest.NewRequest("GET", "/"+query, nil))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		if want == "400" {
			if res.StatusCode != 400 || !json.Valid(body) {
				t.Errorf("%q: want 400 JSON, got %d %s", query, res.StatusCode, body)
			}
			continue
		}
		if res.StatusCode != 200 || string(body) != want {
			t.Errorf("%q: got %d %s, want %s", query, res.StatusCode, body, want)
		}
	}
}

func TestNewResultNeverNull(t *testing.T) {
	b, _ := json.Marshal(page.NewResult[int](nil, page.Page{Number: 2, Size: 5}, 7))
	if string(b) != `{"itens":[],"pagina":2,"tamanho":5,"total":7}` {
		t.Fatalf("got %s", b)
	}
}
