package e2e

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// openAPIFile is the public API's document, api/openapi.yaml.
func openAPIFile(t testing.TB) string {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("runtime.Caller")
	}
	return filepath.Join(filepath.Dir(here), "..", "..", "api", "openapi.yaml")
}

// loadDoc loads and validates the document (examples included).
func loadDoc(t testing.TB) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(openAPIFile(t))
	if err != nil {
		t.Fatalf("load %s: %v", openAPIFile(t), err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("%s is not a valid OpenAPI document: %v", openAPIFile(t), err)
	}
	return doc
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := loadDoc(t)
	if doc.OpenAPI != "3.0.3" || doc.Info.Version != "1.0.0" {
		t.Fatalf("openapi %q, info.version %q; want 3.0.3 and the contract's 1.0.0", doc.OpenAPI, doc.Info.Version)
	}
}

// TestOpenAPIEveryOperationIsDocumented: every operation has a summary, a
// tag of the contract's labels (or ours), a JSON request body with an
// example, and every answer with a body has an example of it (binary
// files aside); every protected operation lists 401 and 403, every
// operation the 5xx a dependency can cause.
func TestOpenAPIEveryOperationIsDocumented(t *testing.T) {
	doc := loadDoc(t)
	tags := map[string]bool{}
	for _, tag := range doc.Tags {
		tags[tag.Name] = true
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			name := method + " " + path
			if op.Summary == "" || op.OperationID == "" || len(op.Tags) == 0 {
				t.Errorf("%s: no summary, operationId or tag", name)
			}
			for _, tag := range op.Tags {
				if !tags[tag] {
					t.Errorf("%s: tag %q not declared", name, tag)
				}
			}
			if rb := op.RequestBody; rb != nil {
				if mt := rb.Value.Content.Get("application/json"); mt != nil && mt.Example == nil && len(mt.Examples) == 0 {
					t.Errorf("%s: JSON body without an example", name)
				}
			}
			for status, resp := range op.Responses.Map() {
				for ctype, mt := range resp.Value.Content {
					binary := mt.Schema != nil && mt.Schema.Value != nil && mt.Schema.Value.Format == "binary"
					if !binary && mt.Example == nil && len(mt.Examples) == 0 {
						t.Errorf("%s: answer %s (%s) without an example", name, status, ctype)
					}
				}
			}
			protected := op.Security == nil || len(*op.Security) > 0
			want := []string{"500", "502", "503"}
			if protected {
				want = append(want, "401", "403")
			}
			for _, status := range want {
				if op.Responses.Value(status) == nil {
					t.Errorf("%s: does not document answer %s", name, status)
				}
			}
		}
	}
}
