package apidoc

import (
	"bytes"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"
)

const source = "../../../../api/openapi.yaml"

// TestCopyMatchesTheDocument: the embedded document is api/openapi.yaml,
// byte for byte.
func TestCopyMatchesTheDocument(t *testing.T) {
	want, err := os.ReadFile(source)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(document, want) {
		t.Error("services/auth/internal/apidoc/openapi.yaml differs from api/openapi.yaml: run `make openapi-docs`")
	}
}

// TestPageShowsEveryOperation: the page names every path and operation of
// the document, with each answer's description, and loads nothing: no
// script, nothing from another origin, one style admitted by its hash.
func TestPageShowsEveryOperation(t *testing.T) {
	page, policy, err := Page(document)
	if err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(string(page))
	paths := regexp.MustCompile(`(?m)^  (/\S*):$`).FindAllStringSubmatch(string(document), -1)
	ids := regexp.MustCompile(`(?m)^      operationId: (\S+)$`).FindAllStringSubmatch(string(document), -1)
	if len(paths) < 20 || len(ids) < len(paths) {
		t.Fatalf("found %d paths and %d operations in the document", len(paths), len(ids))
	}
	for _, p := range append(paths, ids...) {
		if !strings.Contains(text, p[1]) {
			t.Errorf("the page lacks %s", p[1])
		}
	}
	if n := strings.Count(text, `class="op"`); n != len(ids) {
		t.Errorf("the page shows %d operations, the document has %d", n, len(ids))
	}
	for _, bad := range []string{"<script", "src=", "<link", "https://"} {
		if strings.Contains(string(page), bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if strings.Count(policy, "'sha256-") != 1 || strings.Contains(policy, "unsafe") || !strings.HasPrefix(policy, "default-src 'none'") {
		t.Errorf("policy %q", policy)
	}
}
