package httpserver

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"
	"github.com/valyala/fasthttp"
)

// Security headers of every answer. The API answers JSON to programs, so
// nothing it sends should ever be sniffed into HTML, framed, or run as a
// page; a handler that serves a page of its own sets its own policy.
const (
	// contentPolicy forbids every load, script and form, and framing, for
	// an answer that is not JSON (an error page, a CSV, a PDF, a photo).
	contentPolicy  = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox"
	referrerPolicy = "no-referrer"
)

// secureHeaders sets the security headers once the answer is final (after
// the error handler ran), so that errors carry them too.
func secureHeaders(c *fiber.Ctx) error {
	err := c.Next()
	setSecureHeaders(c)
	return err
}

// setSecureHeaders: nosniff and no referrer on every answer; no-store on
// an authenticated answer (it may carry a CPF or an e-mail) unless the
// handler chose its own caching; a restrictive content and frame policy
// on anything that is not JSON, unless the handler set one.
func setSecureHeaders(c *fiber.Ctx) {
	h := &c.Response().Header
	h.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	h.Set(fiber.HeaderReferrerPolicy, referrerPolicy)
	if len(c.Request().Header.Peek(fiber.HeaderAuthorization)) > 0 && len(h.Peek(fiber.HeaderCacheControl)) == 0 {
		h.Set(fiber.HeaderCacheControl, "no-store")
	}
	if !isJSON(h.ContentType()) && len(h.Peek(fiber.HeaderContentSecurityPolicy)) == 0 {
		h.Set(fiber.HeaderContentSecurityPolicy, contentPolicy)
		h.Set(fiber.HeaderXFrameOptions, "DENY")
	}
}

func isJSON(contentType []byte) bool {
	mt, _, _ := bytes.Cut(contentType, []byte(";"))
	mt = bytes.TrimSpace(mt)
	return bytes.EqualFold(mt, []byte(fiber.MIMEApplicationJSON)) || bytes.HasSuffix(bytes.ToLower(mt), []byte("+json"))
}

// knownMethods are the methods the routers know. Fiber answers any other
// (PROPFIND, BREW...) itself with a text/plain 400 before any middleware;
// rejectUnknownMethods answers them first, through the JSON error handler.
var knownMethods = map[string]bool{
	fiber.MethodGet: true, fiber.MethodHead: true, fiber.MethodPost: true, fiber.MethodPut: true,
	fiber.MethodPatch: true, fiber.MethodDelete: true, fiber.MethodOptions: true,
	fiber.MethodConnect: true, fiber.MethodTrace: true,
}

// allowedMethods is the Allow header of a 405 for an unknown method.
const allowedMethods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"

// rejectUnknownMethods wraps the app's fasthttp handler so that an unknown
// method gets the JSON 405 (with the security headers) instead of Fiber's
// plain-text 400.
func (s *Server) rejectUnknownMethods(app *fiber.App) {
	next := app.Server().Handler
	app.Server().Handler = func(ctx *fasthttp.RequestCtx) {
		if knownMethods[string(ctx.Method())] {
			next(ctx)
			return
		}
		c := app.AcquireCtx(ctx)
		defer app.ReleaseCtx(c)
		c.Set(fiber.HeaderAllow, allowedMethods)
		if err := s.handleError(c, fiber.ErrMethodNotAllowed); err != nil {
			c.Status(fiber.StatusMethodNotAllowed)
		}
	}
}

// corsPolicy is the CORS middleware for the configured origins, nil when
// none is configured (then no cross-origin browser call is allowed: no
// Access-Control-* header is ever sent). Tokens travel in the
// Authorization header, never in cookies, so credentials stay off.
func corsPolicy(origins string) (fiber.Handler, error) {
	list, err := parseOrigins(origins)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return cors.New(cors.Config{
		AllowOrigins:  strings.Join(list, ","),
		AllowMethods:  "GET,POST,PUT,PATCH,DELETE",
		AllowHeaders:  "Authorization,Content-Type,Idempotency-Key,X-Request-Id",
		ExposeHeaders: "Retry-After,X-Request-Id,ETag,Content-Disposition",
		MaxAge:        600,
	}), nil
}

// parseOrigins reads the CORS origins setting: scheme://host[:port]
// entries separated by commas or spaces. "*" is refused: the origins that
// may call an API holding CPFs are named, not guessed.
func parseOrigins(s string) ([]string, error) {
	var list []string
	for _, o := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		u, err := url.Parse(o)
		if o == "*" || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
			return nil, fmt.Errorf("CORSOrigins: %q is not an origin such as https://app.example.com", o)
		}
		list = append(list, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	return list, nil
}
