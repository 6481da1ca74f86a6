package httpserver

import (
	"context"
	"errors"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/middleware/pprof"
)

// routeProbes serves, on the internal listener: /healthz (liveness: the
// process answers; it never looks at dependencies, so a database outage
// does not get every pod restarted), /readyz (readiness: every dependency
// answers its ping) and /metrics; with Config.Pprof also /debug/pprof/.
func (s *Server) routeProbes() {
	if s.cfg.Pprof {
		s.Internal.Use(pprof.New())
	}
	s.Internal.Get("/healthz", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"status": "ok"})
	})
	s.Internal.Get("/readyz", s.readyz)
	s.Internal.Get("/metrics", adaptor.HTTPHandler(s.Metrics.Handler()))
}

type readiness struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

func (s *Server) readyz(c *fiber.Ctx) error {
	if s.draining.Load() {
		return c.Status(fiber.StatusServiceUnavailable).JSON(readiness{Status: "encerrando", Checks: map[string]string{}})
	}
	ctx, cancel := context.WithTimeout(c.UserContext(), s.cfg.ReadyTimeout)
	defer cancel()

	res := readiness{Status: "ok", Checks: make(map[string]string, len(s.checks))}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, chk := range s.checks {
		wg.Go(func() {
			state, ready := "ok", true
			var warning Warning
			if err := chk.Ping(ctx); errors.As(err, &warning) {
				state = "aviso: " + warning.Error()
				s.log.WarnContext(ctx, "readiness check warns", "check", chk.Name, "warning", warning)
			} else if err != nil {
				state, ready = err.Error(), false
				s.log.WarnContext(ctx, "readiness check failed", "check", chk.Name, "err", err)
			}
			mu.Lock()
			defer mu.Unlock()
			res.Checks[chk.Name] = state
			if !ready {
				res.Status = "indisponivel"
			}
		})
	}
	wg.Wait()
	if res.Status != "ok" {
		return c.Status(fiber.StatusServiceUnavailable).JSON(res)
	}
	return c.JSON(res)
}
