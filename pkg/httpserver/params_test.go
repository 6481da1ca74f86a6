package httpserver_test

import (
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
)

func TestPathID(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/things/:thingId", func(c *fiber.Ctx) error {
			id, err := httpserver.PathID(c, "thingId")
			if err != nil {
				return err
			}
			return c.JSON(map[string]int64{"id": id})
		})
	})
	if a := call(t, "GET", r.public+"/things/42", nil, nil); a.status != 200 || a.body["id"] != float64(42) {
		t.Fatalf("valid id refused: %d %s", a.status, a.raw)
	}
	for _, bad := range []string{"0", "-1", "abc", "1.5", "99999999999999999999"} {
		a := call(t, "GET", r.public+"/things/"+bad, nil, nil)
		wantError(t, a, 400, "validacao")
		if fields, _ := a.body["fields"].(map[string]any); fields["thingId"] == nil {
			t.Errorf("%s: the field is not named: %s", bad, a.raw)
		}
	}
}
