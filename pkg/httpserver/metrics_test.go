package httpserver_test

import (
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
)

// TestMetricsScrapeAfterBurst serves routes of every method, with
// parameters, a group middleware that answers and handlers that fail, and
// checks the scrape after a varied burst: Fiber reuses a request's memory
// for the next one, and a label kept from it used to change under
// Prometheus ("GETT", duplicate series, a 500 scrape).
func TestMetricsScrapeAfterBurst(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		ok := func(c *fiber.Ctx) error { return c.SendString(c.Params("id") + c.Method() + c.Path()) }
		s.Public.Get("/itens", ok)
		s.Public.Post("/itens", func(*fiber.Ctx) error { return fiber.ErrBadRequest })
		s.Public.Get("/itens/:id", ok)
		s.Public.Put("/itens/:id/aprovar", ok)
		s.Public.Patch("/itens/:id", func(*fiber.Ctx) error { return fiber.ErrConflict })
		s.Public.Delete("/itens/:id", ok)
		g := s.Public.Group("/privado", func(*fiber.Ctx) error { return fiber.ErrUnauthorized })
		g.Get("/:id/detalhes", ok)
		g.Post("/acoes/:acao", ok)
	})
	r.CheckMetricsAfterBurst(t, nil)
	r.CheckMetricsAfterBurst(t, map[string]string{"X-Request-Id": "uma-requisicao-com-id-longo"})
}
