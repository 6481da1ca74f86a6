package request

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestOptTellsAbsentFromNull(t *testing.T) {
	var in struct {
		A Opt[string] `json:"a"`
		B Opt[string] `json:"b"`
		C Opt[int]    `json:"c"`
	}
	if err := json.Unmarshal([]byte(`{"b":null,"c":7}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.A.Set || !in.B.Set || !in.B.Null || in.B.Ptr() != nil || !in.C.Set || in.C.Null || *in.C.Ptr() != 7 {
		t.Fatalf("decoded %+v", in)
	}
	var bad struct {
		C Opt[int] `json:"c"`
	}
	err := json.Unmarshal([]byte(`{"c":"x"}`), &bad)
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) || typ.Field != "c" {
		t.Fatalf("type error %v does not name the field", err)
	}
}
