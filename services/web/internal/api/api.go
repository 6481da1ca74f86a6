// Package api calls ponto's public API, the same one every client uses,
// through the gateway or Ingress URL, with the logged-in user's token. It
// renews an expired access token with the session's refresh token once per
// call, and turns the API's {message, code, fields} answers into *Error.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/ponto/ponto/services/web/internal/session"
)

// maxJSON bounds a JSON answer read into memory (a report page is far
// smaller); downloads are streamed instead.
const maxJSON = 8 << 20

// Client calls the public API at Base, or at the URL of the first of
// Routes that matches a call's path.
type Client struct {
	Base   string
	Routes []Route
	HTTP   *http.Client
	// renew shares refresh-token renewals between the calls of a session.
	renew renewals
}

// New is a client with the given per-call timeout.
func New(base string, timeout time.Duration) *Client {
	return &Client{Base: strings.TrimRight(base, "/"), HTTP: &http.Client{
		Timeout: timeout,
		// A redirect from the API is never expected; following one could
		// carry the token elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Error is an API error answer, or a failure to reach the API (Status 0
// is never used: unreachable is 503 with code "api_indisponivel").
type Error struct {
	Status  int               `json:"-"`
	Message string            `json:"message"`
	Code    string            `json:"code"`
	Fields  map[string]string `json:"fields,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Field is the message for one field, "" when none.
func (e *Error) Field(name string) string {
	if e == nil {
		return ""
	}
	return e.Fields[name]
}

// AsError returns err as *Error when it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// ErrSessionEnded: the API refused the token and the refresh token too;
// the user must log in again.
var ErrSessionEnded = errors.New("api: session ended")

// Unavailable is what the user hears when the API cannot be reached.
func Unavailable() *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: "api_indisponivel",
		Message: "o serviço está indisponível no momento; tente novamente em instantes"}
}

// Call is one request.
type Call struct {
	Method string
	Path   string // with the query string
	// Body is sent as JSON unless it is a *Raw.
	Body any
	// Header adds headers (Idempotency-Key).
	Header http.Header
	// ClientIP is forwarded as X-Forwarded-For so that the API's per-IP
	// limits see the person, not the web service.
	ClientIP  string
	RequestID string
}

// Raw is a body sent as is.
type Raw struct {
	ContentType string
	Data        []byte
}

// Do calls the API as sess's user and decodes a 2xx JSON answer into out
// (nil ignores it). A 401 with a refresh token renews the access token
// (stored in sess, which the caller must save) and retries once.
func (c *Client) Do(ctx context.Context, sess *session.Session, call Call, out any) error {
	resp, err := c.Open(ctx, sess, call)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxJSON))
		return nil
	}
	dec := json.NewDecoder(io.LimitReader(resp.Body, maxJSON))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		return &Error{Status: http.StatusBadGateway, Code: "resposta_invalida", Message: "resposta inesperada do serviço"}
	}
	return nil
}

// Open is Do without decoding: a 2xx answer is returned open (the caller
// closes it), for streaming a PDF, CSV or AFD through.
func (c *Client) Open(ctx context.Context, sess *session.Session, call Call) (*http.Response, error) {
	resp, err := c.send(ctx, sess, call)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized && sess != nil && sess.Refresh != "" {
		resp.Body.Close()
		if err := c.refresh(ctx, sess, call); err != nil {
			return nil, err
		}
		if resp, err = c.send(ctx, sess, call); err != nil {
			return nil, err
		}
	}
	if resp.StatusCode == http.StatusUnauthorized && sess != nil && sess.LoggedIn() {
		resp.Body.Close()
		return nil, ErrSessionEnded
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		return nil, readError(resp)
	}
	return resp, nil
}

// refresh trades the refresh token for a new access token and the
// refresh token's successor, which replaces it in sess. Auth rotates
// refresh tokens and revokes the session when a rotated one comes back,
// so each token is renewed once (see renewals).
func (c *Client) refresh(ctx context.Context, sess *session.Session, call Call) error {
	pair, err := c.renew.do(sess.Refresh, func() (renewed, error) { return c.renewOnce(ctx, sess.Refresh, call) })
	if err != nil {
		return err
	}
	sess.Token, sess.Refresh = pair.access, pair.refresh
	return nil
}

func (c *Client) renewOnce(ctx context.Context, refresh string, call Call) (renewed, error) {
	var out struct {
		AccessToken  string `json:"accessToken"`
		RefreshToken string `json:"refreshToken"`
	}
	resp, err := c.send(ctx, nil, Call{Method: http.MethodPost, Path: "/auth/refresh-token",
		Body: map[string]string{"refreshToken": refresh}, ClientIP: call.ClientIP, RequestID: call.RequestID})
	if err != nil {
		return renewed{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnauthorized {
		return renewed{}, ErrSessionEnded
	}
	if resp.StatusCode != http.StatusOK {
		return renewed{}, readError(resp)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxJSON)).Decode(&out); err != nil || out.AccessToken == "" {
		return renewed{}, ErrSessionEnded
	}
	if out.RefreshToken == "" {
		out.RefreshToken = refresh // an API that does not rotate
	}
	return renewed{access: out.AccessToken, refresh: out.RefreshToken}, nil
}

func (c *Client) send(ctx context.Context, sess *session.Session, call Call) (*http.Response, error) {
	var body io.Reader
	contentType := ""
	switch b := call.Body.(type) {
	case nil:
	case *Raw:
		body, contentType = bytes.NewReader(b.Data), b.ContentType
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		body, contentType = bytes.NewReader(data), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, call.Method, c.base(call.Path)+call.Path, body)
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range call.Header {
		req.Header[k] = v
	}
	if sess != nil && sess.Token != "" {
		req.Header.Set("Authorization", "Bearer "+sess.Token)
	}
	if call.ClientIP != "" {
		req.Header.Set("X-Forwarded-For", call.ClientIP)
	}
	if call.RequestID != "" {
		req.Header.Set("X-Request-Id", call.RequestID)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, Unavailable()
	}
	return resp, nil
}

// readError decodes the API's error answer; one that is not JSON (a proxy's
// page) becomes a generic message with the status kept.
func readError(resp *http.Response) error {
	e := &Error{Status: resp.StatusCode}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if json.Unmarshal(data, e) != nil || e.Message == "" {
		e.Message, e.Code = "o serviço respondeu com um erro inesperado", "erro_inesperado"
	}
	if resp.StatusCode >= 500 {
		e.Status = resp.StatusCode
	}
	return e
}

// Ping is the readiness check: the gateway or Ingress answers. Any HTTP
// answer counts (the services behind it have their own readiness), and it
// asks for the public keys, not /healthz, because the gateway's /healthz
// includes this service's own readiness.
func (c *Client) Ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base("/.well-known/jwks.json")+"/.well-known/jwks.json", nil)
	if err != nil {
		return err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}
