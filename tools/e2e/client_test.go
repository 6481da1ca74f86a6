package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

func init() {
	// Photos, PDFs and CSV reports are checked by their media type here
	// and by the tests themselves; kin-openapi's CSV decoder would read ";"
	// separated rows as one column, so all are kept as plain bytes.
	openapi3filter.RegisterBodyDecoder("image/jpeg", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/csv", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/pdf", openapi3filter.FileBodyDecoder)
}

// requestTimeout bounds one request of the tests: the services' own
// deadline (HTTP_REQUEST_TIMEOUT, 10 s) plus the proxying.
const requestTimeout = 20 * time.Second

// client talks to the gateway as an app would, and checks every answer
// against the OpenAPI document: a route the document lacks, a status it
// does not list for the route, or a body or header that does not match
// its schema fails the test.
type client struct {
	base   string
	http   *http.Client
	doc    *openapi3.T
	router routers.Router
}

func newClient(t testing.TB, base string) (*client, error) {
	doc := loadDoc(t)
	// Requests go to this stack's gateway, wherever it listens.
	doc.Servers = openapi3.Servers{{URL: base}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("OpenAPI router: %w", err)
	}
	return &client{base: base, http: &http.Client{Timeout: requestTimeout}, doc: doc, router: router}, nil
}

// request is one call. Body is marshalled as JSON unless Raw is set.
type request struct {
	Method  string
	Path    string // with the query, e.g. /funcionarios?pagina=2
	Token   string
	Body    any
	Raw     []byte
	Type    string // Content-Type of Raw
	Headers map[string]string
	// CheckRequest also validates the request against the document (the
	// happy paths do; the authorization matrix sends some on purpose
	// without the token the document requires).
	CheckRequest bool
}

// answer is a response, read whole.
type answer struct {
	Status   int
	Header   http.Header
	Body     []byte
	Elapsed  time.Duration
	Method   string
	Path     string
	Template string // the document's path, e.g. /funcionarios/{funcionarioId}
}

func (a answer) String() string {
	body := string(a.Body)
	if len(body) > 2000 {
		body = body[:2000] + "…"
	}
	return fmt.Sprintf("%s %s → %d %s", a.Method, a.Path, a.Status, body)
}

// json decodes the body into v.
func (a answer) json(t testing.TB, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(a.Body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: body is not the JSON expected: %v", a, err)
	}
}

// object decodes a JSON object body.
func (a answer) object(t testing.TB) obj {
	t.Helper()
	var m obj
	a.json(t, &m)
	return m
}

// code is the error code of a JSON error answer ("" otherwise).
func (a answer) code() string {
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(a.Body, &e)
	return e.Code
}

// expect fails the test unless the status is want.
func (a answer) expect(t testing.TB, want int) answer {
	t.Helper()
	if a.Status != want {
		t.Fatalf("%s; want %d", a, want)
	}
	return a
}

// expectError fails unless the answer is the error status and code.
func (a answer) expectError(t testing.TB, status int, code string) answer {
	t.Helper()
	if a.Status != status || a.code() != code {
		t.Fatalf("%s; want %d %s", a, status, code)
	}
	return a
}

// do sends r through the gateway and validates the answer against the
// document. Transport errors fail the test.
func (c *client) do(t testing.TB, r request) answer {
	t.Helper()
	a, err := c.send(context.Background(), r)
	if err != nil {
		t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	if err := c.check(r, &a); err != nil {
		t.Errorf("answer not as the OpenAPI document says: %v", err)
	}
	return a
}

// send performs r without judging the answer.
func (c *client) send(ctx context.Context, r request) (answer, error) {
	req, err := c.build(ctx, r)
	if err != nil {
		return answer{}, err
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return answer{Method: r.Method, Path: r.Path, Elapsed: time.Since(start)}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	a := answer{Status: resp.StatusCode, Header: resp.Header, Body: body, Elapsed: time.Since(start),
		Method: r.Method, Path: r.Path}
	return a, err
}

func (c *client) build(ctx context.Context, r request) (*http.Request, error) {
	body, ctype := r.Raw, r.Type
	if r.Body != nil {
		b, err := json.Marshal(r.Body)
		if err != nil {
			return nil, err
		}
		body, ctype = b, "application/json"
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, c.base+r.Path, rd)
	if err != nil {
		return nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	return req, nil
}

// check validates the request (when asked) and the answer against the
// document, and fills a.Template.
func (c *client) check(r request, a *answer) error {
	req, err := c.build(context.Background(), r)
	if err != nil {
		return err
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%s %s is not in the document: %w", r.Method, r.Path, err)
	}
	a.Template = route.Path
	opts := &openapi3filter.Options{
		IncludeResponseStatus: true,
		MultiError:            true,
		AuthenticationFunc:    bearerPresent,
		// Where and why, without the schema and the value dumped.
		SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()},
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if r.CheckRequest {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			return fmt.Errorf("request %s %s not as the document says: %w", r.Method, r.Path, err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 a.Status,
		Header:                 a.Header,
		Options:                opts,
	}
	out.SetBodyBytes(a.Body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	return checkNoUndocumentedBody(route, a)
}

// checkNoUndocumentedBody: an answer the document gives no content (204,
// 304) must have none; ValidateResponse lets any body through there.
func checkNoUndocumentedBody(route *routers.Route, a *answer) error {
	resp := route.Operation.Responses.Status(a.Status)
	if resp == nil || resp.Value == nil || len(resp.Value.Content) > 0 || len(a.Body) == 0 {
		return nil
	}
	return fmt.Errorf("%s: the document gives %d no body", a, a.Status)
}

// bearerPresent stands in for the security check of request validation:
// the document's bearerAuth needs an Authorization: Bearer header.
func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := in.RequestValidationInput.Request.Header.Get("Authorization")
	if !strings.HasPrefix(h, "Bearer ") {
		return fmt.Errorf("no Authorization: Bearer")
	}
	return nil
}

// multipartFile builds a multipart/form-data body with one file part.
func multipartFile(field, filename, contentType string, data []byte) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, field, filename))
	h.Set("Content-Type", contentType)
	part, _ := w.CreatePart(h)
	_, _ = part.Write(data)
	_ = w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// obj is a decoded JSON object, numbers as json.Number.
type obj map[string]any

// str is the string field k ("" when absent or not a string).
func (o obj) str(k string) string {
	s, _ := o[k].(string)
	return s
}

// int is the integer field k (0 when absent or not a number).
func (o obj) int(k string) int64 {
	n, _ := o[k].(json.Number)
	v, _ := n.Int64()
	return v
}

// obj is the object field k (nil when absent).
func (o obj) obj(k string) obj {
	m, _ := o[k].(map[string]any)
	return m
}

// list is the array field k, its objects as obj.
func (o obj) list(k string) []obj {
	items, _ := o[k].([]any)
	out := make([]obj, 0, len(items))
	for _, it := range items {
		m, _ := it.(map[string]any)
		out = append(out, m)
	}
	return out
}

// isNull reports whether field k is present and null.
func (o obj) isNull(k string) bool {
	v, ok := o[k]
	return ok && v == nil
}
