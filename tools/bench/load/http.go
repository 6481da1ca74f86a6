package load

import (
	"fmt"
	"strings"

	"github.com/valyala/fasthttp"
)

// Request resets req to method and path (with its query) and sets the
// Bearer token when there is one.
func Request(req *fasthttp.Request, method, path, token string) {
	req.Reset()
	req.Header.SetMethod(method)
	req.SetRequestURI(path)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
}

// JSON sets a JSON body.
func JSON(req *fasthttp.Request, body []byte) {
	req.Header.SetContentType("application/json")
	req.SetBody(body)
}

// Expect fails unless resp has status want; the error names the status
// and the start of the body, which is what one needs to see why.
func Expect(resp *fasthttp.Response, want int) error {
	if got := resp.StatusCode(); got != want {
		body := strings.TrimSpace(string(resp.Body()))
		if len(body) > 200 {
			body = body[:200] + "…"
		}
		return fmt.Errorf("status %d (esperado %d): %s", got, want, body)
	}
	return nil
}
