// Package apidoc serves the public API's OpenAPI document and a reference
// page rendered from it through the cluster's route (auth's public
// listener): GET /openapi.yaml and GET /openapi.html.
//
// openapi.yaml is a copy of api/openapi.yaml made by `make openapi-docs`
// (go:embed reads only files inside the module); the test fails when it
// no longer matches. The page is rendered from it here, at start: static
// HTML (no script, nothing from another origin) whose one inline style
// the Content-Security-Policy admits by its hash.
package apidoc

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"strings"

	"github.com/gofiber/fiber/v2"
	"go.yaml.in/yaml/v3"
)

// Paths of the two routes (charts/ponto/routes.yaml sends them to auth).
const (
	DocumentPath = "/openapi.yaml"
	PagePath     = "/openapi.html"
)

//go:embed openapi.yaml
var document []byte

// Routes registers both routes on r, behind mw (a rate limit). It fails
// when the embedded document cannot be rendered.
func Routes(r fiber.Router, mw ...fiber.Handler) error {
	page, policy, err := Page(document)
	if err != nil {
		return err
	}
	r.Get(DocumentPath, append(mw, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "application/yaml; charset=utf-8")
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		return c.Send(document)
	})...)
	r.Get(PagePath, append(mw, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		c.Set("Content-Security-Policy", policy)
		return c.Send(page)
	})...)
	return nil
}

// style is the page's only style, admitted by its hash.
const style = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}code{background:#f6f6f6}
.op{border-top:1px solid #ddd;padding:.5rem 0}.m{font-weight:700;text-transform:uppercase;margin-right:.5rem}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}`

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Info.Title}} {{.Info.Version}}</title><style>{{.Style}}</style></head><body>
<h1>{{.Info.Title}} <small>{{.Info.Version}}</small></h1>
<p>OpenAPI: <a href="/openapi.yaml">/openapi.yaml</a></p>
<pre>{{.Info.Description}}</pre>
{{range .Ops}}<section class="op" id="{{.OperationID}}">
<h2><span class="m">{{.Method}}</span><code>{{.Path}}</code></h2>
<p><strong>{{.Summary}}</strong>{{if .Tags}} — {{range $i, $t := .Tags}}{{if $i}}, {{end}}{{$t}}{{end}}{{end}}{{if .OperationID}} — <code>{{.OperationID}}</code>{{end}}</p>
{{if .Description}}<pre>{{.Description}}</pre>{{end}}
{{if .Parameters}}<table><tr><th>parameter</th><th>in</th><th>required</th><th>description</th></tr>
{{range .Parameters}}<tr><td><code>{{.Name}}</code></td><td>{{.In}}</td><td>{{if .Required}}yes{{end}}</td><td>{{.Description}}</td></tr>
{{end}}</table>{{end}}
<table><tr><th>status</th><th>answer</th></tr>
{{range .Responses}}<tr><td>{{.Code}}</td><td>{{.Description}}</td></tr>
{{end}}</table></section>
{{end}}</body></html>
`))

type (
	document3 struct {
		Info struct {
			Title, Version, Description string
		}
		Paths      yaml.Node
		Components struct {
			Parameters map[string]parameter
			Responses  map[string]response
		}
	}
	operation struct {
		Tags        []string
		OperationID string `yaml:"operationId"`
		Summary     string
		Description string
		Parameters  []parameter
		Responses   yaml.Node
	}
	parameter struct {
		Ref         string `yaml:"$ref"`
		Name, In    string
		Required    bool
		Description string
	}
	response struct {
		Ref         string `yaml:"$ref"`
		Description string
	}
	pageOp struct {
		operation
		Method, Path string
		Responses    []struct{ Code, Description string }
	}
)

// Page renders doc (OpenAPI 3.0 YAML) into the reference page and the
// Content-Security-Policy it is served with.
func Page(doc []byte) (html []byte, policy string, err error) {
	var d document3
	if err := yaml.Unmarshal(doc, &d); err != nil {
		return nil, "", fmt.Errorf("apidoc: %w", err)
	}
	var ops []pageOp
	for i := 0; i+1 < len(d.Paths.Content); i += 2 {
		path, item := d.Paths.Content[i].Value, d.Paths.Content[i+1]
		for j := 0; j+1 < len(item.Content); j += 2 {
			method := item.Content[j].Value
			if !strings.Contains("get put post delete patch head options", method) || method == "" {
				continue
			}
			op := pageOp{Method: method, Path: path}
			if err := item.Content[j+1].Decode(&op.operation); err != nil {
				return nil, "", fmt.Errorf("apidoc: %s %s: %w", method, path, err)
			}
			for k, p := range op.Parameters {
				if ref, ok := d.Components.Parameters[refName(p.Ref)]; ok {
					op.Parameters[k] = ref
				}
			}
			for k := 0; k+1 < len(op.operation.Responses.Content); k += 2 {
				var r response
				if err := op.operation.Responses.Content[k+1].Decode(&r); err != nil {
					return nil, "", fmt.Errorf("apidoc: %s %s: %w", method, path, err)
				}
				if ref, ok := d.Components.Responses[refName(r.Ref)]; ok {
					r = ref
				}
				op.Responses = append(op.Responses, struct{ Code, Description string }{op.operation.Responses.Content[k].Value, r.Description})
			}
			ops = append(ops, op)
		}
	}
	var b bytes.Buffer
	err = page.Execute(&b, map[string]any{"Info": d.Info, "Ops": ops, "Style": template.CSS(style)})
	sum := sha256.Sum256([]byte(style))
	policy = "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
		"'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
	return b.Bytes(), policy, err
}

func refName(ref string) string { return ref[strings.LastIndex(ref, "/")+1:] }
