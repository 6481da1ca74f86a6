// Package contracttest checks a provider's internal API against the
// types its internalapi package exports, in the provider's own tests
// (docs/internal-api.md): an answer must decode strictly into the exported
// type (Decode: a field the type lacks fails), and the answers must fill
// every field the type declares (Filled: a field the handler never writes
// fails). A field added or renamed on one side only then fails the
// provider's tests rather than a caller in production.
package contracttest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Decode decodes body into a T, failing t on a member T has no field for,
// a value of the wrong type, or anything after the JSON value.
func Decode[T any](t testing.TB, body []byte) T {
	t.Helper()
	var v T
	if err := strict(body, &v); err != nil {
		t.Fatalf("answer does not decode strictly into %T: %v\n%s", v, err, body)
	}
	return v
}

func strict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value")
	}
	// encoding/json matches names ignoring case: a member renamed only in
	// case would pass the decoder.
	var generic any
	if err := json.Unmarshal(body, &generic); err != nil {
		return err
	}
	return exactNames(generic, reflect.TypeOf(v), "")
}

// exactNames checks that every member name of the decoded JSON value v is
// spelled exactly as a field of t names it.
func exactNames(v any, t reflect.Type, at string) error {
	t = indirect(t)
	switch v := v.(type) {
	case map[string]any:
		if t.Kind() != reflect.Struct {
			return nil
		}
		for name, member := range v {
			ft, ok := fieldType(t, name)
			if !ok {
				return fmt.Errorf("member %q: no field of %v is named so (case matters)", join(at, name), t)
			}
			if err := exactNames(member, ft, join(at, name)); err != nil {
				return err
			}
		}
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return nil
		}
		for _, e := range v {
			if err := exactNames(e, t.Elem(), at); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldType is the type of struct t's member name, looking into embedded
// structs.
func fieldType(t reflect.Type, name string) (reflect.Type, bool) {
	for _, f := range fields(t) {
		ft := t.Field(f.index).Type
		if f.name == name {
			return ft, true
		}
		if f.name == "" {
			if inner, ok := fieldType(indirect(ft), name); ok {
				return inner, true
			}
		}
	}
	return nil, false
}

// Filled fails t for every field of T that is empty (zero, null, an empty
// list) in all of samples, looking into structs, pointers and the elements
// of lists: a field the exported type declares but the handler never
// fills. Fields are named by their JSON path ("escala.horarios.entrada");
// except names those the samples leave empty by design.
func Filled[T any](t testing.TB, samples []T, except ...string) {
	t.Helper()
	if len(samples) == 0 {
		t.Fatalf("Filled: no sample of %v", reflect.TypeFor[T]())
	}
	empty, unknown := unfilled(samples, except)
	for _, p := range empty {
		t.Errorf("%v: field %q is empty in every answer: the handler does not fill it (or the test's data does not reach it)", reflect.TypeFor[T](), p)
	}
	for _, p := range unknown {
		t.Errorf("%v: no field %q to leave out", reflect.TypeFor[T](), p)
	}
}

// unfilled returns the paths of T empty in every sample, and those of
// except T does not have.
func unfilled[T any](samples []T, except []string) (empty, unknown []string) {
	all := map[string]bool{}
	paths(reflect.TypeFor[T](), "", all)
	filled := map[string]bool{}
	for _, s := range samples {
		mark(reflect.ValueOf(s), "", filled)
	}
	for p := range all {
		if !filled[p] && !slices.Contains(except, p) {
			empty = append(empty, p)
		}
	}
	for _, p := range except {
		if !all[p] {
			unknown = append(unknown, p)
		}
	}
	slices.Sort(empty)
	return empty, unknown
}

// field is one JSON member of a struct: its name, or "" for an embedded
// struct whose members are the parent's.
type field struct {
	name  string
	index int
}

func fields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
			continue
		case name == "" && f.Anonymous && indirect(f.Type).Kind() == reflect.Struct:
			// encoding/json promotes an embedded struct's members, even
			// when its type is unexported.
			out = append(out, field{"", i})
		case !f.IsExported():
			continue
		case name == "":
			out = append(out, field{f.Name, i})
		default:
			out = append(out, field{name, i})
		}
	}
	return out
}

func indirect(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func join(prefix, name string) string {
	if prefix == "" || name == "" {
		return prefix + name
	}
	return prefix + "." + name
}

// composite is a type whose members are checked one by one: a struct, or
// a list of them. A []byte (json.RawMessage) or a list of scalars is one
// value.
func composite(t reflect.Type) (reflect.Type, bool) {
	t = indirect(t)
	if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = indirect(t.Elem())
	}
	return t, t.Kind() == reflect.Struct
}

// paths lists the JSON paths of t's members into out.
func paths(t reflect.Type, prefix string, out map[string]bool) {
	st, ok := composite(t)
	if !ok {
		return
	}
	for _, f := range fields(st) {
		p := join(prefix, f.name)
		if f.name != "" {
			out[p] = true
		}
		paths(st.Field(f.index).Type, p, out)
	}
}

// mark records in filled the paths of v's members that hold a value.
func mark(v reflect.Value, prefix string, filled map[string]bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Slice || v.Kind() == reflect.Array {
		if _, ok := composite(v.Type()); ok {
			for i := range v.Len() {
				mark(v.Index(i), prefix, filled)
			}
		}
		return
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for _, f := range fields(v.Type()) {
		fv := v.Field(f.index)
		p := join(prefix, f.name)
		if f.name != "" && !isEmpty(fv) {
			filled[p] = true
		}
		mark(fv, p, filled)
	}
}

// isEmpty is what encoding/json writes as a zero, false, "", null or [].
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	return v.IsZero()
}
