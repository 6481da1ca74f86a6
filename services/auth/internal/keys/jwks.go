package keys

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
)

// JWKSPath is where the public keys are published (RFC 8414 style).
const JWKSPath = "/.well-known/jwks.json"

// JWKSMaxAge is how long clients and proxies may cache the key set. It is
// short next to the 15-minute token lifetime so that a removed key stops
// verifying soon; verifiers refetch at once on an unknown kid anyway, so a
// new key never waits for it.
const JWKSMaxAge = 5 * time.Minute

// Handler serves GET /.well-known/jwks.json: public, no authentication.
func (r *Keyring) Handler() fiber.Handler {
	cacheControl := "public, max-age=" + strconv.Itoa(int(JWKSMaxAge.Seconds()))
	return func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderCacheControl, cacheControl)
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(r.JWKS())
	}
}
