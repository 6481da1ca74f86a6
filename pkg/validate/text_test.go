package validate_test

import (
	"testing"

	"github.com/ponto/ponto/pkg/validate"
)

func TestText(t *testing.T) {
	for _, s := range []string{"", "Maria José", "Conceição São João", "日本語", "emoji 🙂", "tab\tok"} {
		want := s != "tab\tok"
		if got := validate.Text(s, false); got != want {
			t.Errorf("Text(%q, false) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"linha 1\nlinha 2", "a\r\nb", "col\tcol"} {
		if !validate.Text(s, true) {
			t.Errorf("multiline Text(%q) refused", s)
		}
		if validate.Text(s, false) {
			t.Errorf("single-line Text(%q) accepted", s)
		}
	}
	bad := map[string]string{
		"NUL":               "a\x00b",
		"ESC":               "a\x1b[31mb",
		"DEL":               "a\x7fb",
		"C1 NEL":            "a\u0085b",
		"invalid UTF-8":     "a\xffb",
		"truncated UTF-8":   "a\xc3",
		"encoded surrogate": "a\xed\xa0\x80b",
		"replacement char":  "a\ufffdb",
		"RLO":               "abc\u202egpj.exe",
		"LRE":               "a\u202ab",
		"RLI":               "a\u2067b",
		"PDI":               "a\u2069b",
	}
	for name, s := range bad {
		for _, multiline := range []bool{false, true} {
			if validate.Text(s, multiline) {
				t.Errorf("%s: Text(%q, %v) accepted", name, s, multiline)
			}
		}
	}
}

func TestCheckText(t *testing.T) {
	e := validate.Errors{}
	if !e.CheckText("ok", "nome", false) || len(e) != 0 {
		t.Fatalf("good text recorded: %v", e)
	}
	if e.CheckText("a\x00", "nome", false) || e["nome"] != validate.MsgBadText {
		t.Fatalf("NUL not recorded: %v", e)
	}
}
