package svcclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/ponto/ponto/pkg/apierr"
)

var errTooLarge = errors.New("response body too large")

// handle turns the peer's answer into out or into an *apierr.Error.
func (c *Client) handle(method, path string, resp *http.Response, out any) error {
	body, err := readLimited(resp.Body, c.maxBody)
	switch {
	case errors.Is(err, errTooLarge):
		return apierr.BadGateway(c.peer, fmt.Errorf("%s %s: %w (limit %d bytes)", method, path, err, c.maxBody))
	case err != nil:
		// The connection broke or timed out mid-body.
		return apierr.Unavailable(c.peer, fmt.Errorf("%s %s: read body: %w", method, path, err))
	}

	status := resp.StatusCode
	switch {
	case status >= 200 && status < 300:
		if out == nil || len(body) == 0 {
			return nil
		}
		if err := json.Unmarshal(body, out); err != nil {
			return apierr.BadGateway(c.peer, fmt.Errorf("%s %s: decode answer: %w", method, path, err))
		}
		return nil
	case status >= 400 && status < 500:
		return c.peerError(method, path, resp, body)
	case status >= 500:
		return apierr.Unavailable(c.peer, fmt.Errorf("%s %s: status %d%s", method, path, status, remoteMessage(body)))
	default:
		// 1xx or an unfollowed 3xx: nothing a caller can act on.
		return apierr.BadGateway(c.peer, fmt.Errorf("%s %s: unexpected status %d", method, path, status))
	}
}

// peerError passes a peer's typed 4xx through unchanged, so the end client
// sees the same status, code and message. A 4xx without the
// {"message","code"} body (say a proxy's plain-text 404) says nothing
// reliable about the resource and becomes a 502.
func (c *Client) peerError(method, path string, resp *http.Response, body []byte) error {
	var e apierr.Error
	if err := json.Unmarshal(body, &e); err != nil || e.Code == "" {
		return apierr.BadGateway(c.peer, fmt.Errorf("%s %s: status %d without an API error body", method, path, resp.StatusCode))
	}
	e.Status = resp.StatusCode
	e.Err = fmt.Errorf("%s: %s %s: status %d", c.peer, method, path, resp.StatusCode)
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		e.RetryAfter = s
	}
	return &e
}

// remoteMessage extracts the peer's message from a 5xx body for the logs.
func remoteMessage(body []byte) string {
	var e struct{ Code, Message string }
	if json.Unmarshal(body, &e) != nil || e.Code == "" {
		return ""
	}
	return fmt.Sprintf(": %s: %s", e.Code, e.Message)
}

// readLimited reads at most limit bytes, failing rather than truncating.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, errTooLarge
	}
	return b, nil
}
