// Package config reads a service's configuration from environment variables
// (and flags) into a typed struct, applies defaults, validates it once at
// start-up and renders it with secrets masked for the start-up log.
//
// Fields are described with github.com/ardanlabs/conf/v3 tags:
// `conf:"default:...,mask,required,help:..."`. With no prefix, a field
// HTTP.PublicAddr is read from HTTP_PUBLIC_ADDR. conf splits tags on
// commas, so a help text must not contain one (it would be cut there), and
// `required` accepts a variable that is set but empty: check such values in
// Validate.
package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/ardanlabs/conf/v3"
)

// ErrHelpWanted is returned by Parse when --help or --version was asked for;
// the returned text is then the usage to print.
var ErrHelpWanted = conf.ErrHelpWanted

// Validator is implemented by configuration structs that check themselves.
type Validator interface {
	Validate() error
}

// Parse fills cfg (a pointer to a struct) from its defaults, the environment
// and the command line, then validates it (see Validate).
func Parse(cfg any) (string, error) {
	help, err := conf.Parse("", cfg)
	if err != nil {
		if errors.Is(err, conf.ErrHelpWanted) {
			return help, ErrHelpWanted
		}
		return "", err
	}
	if err := Validate(cfg); err != nil {
		return "", fmt.Errorf("invalid configuration: %w", err)
	}
	return "", nil
}

// Validate runs Validate on cfg and on every field, at any depth, that
// implements Validator (structs and value types such as svcclient.URL),
// joining what they report.
func Validate(cfg any) error {
	rv := reflect.ValueOf(cfg)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("config: want a pointer to a struct, got %T", cfg)
	}
	return validateStruct("", rv.Elem())
}

func validateStruct(path string, rv reflect.Value) error {
	var errs []error
	if v, ok := rv.Addr().Interface().(Validator); ok {
		if err := v.Validate(); err != nil {
			if path != "" {
				err = fmt.Errorf("%s: %w", path, err)
			}
			errs = append(errs, err)
		}
	}
	for i := range rv.NumField() {
		f, sf := rv.Field(i), rv.Type().Field(i)
		if !sf.IsExported() {
			continue
		}
		name := sf.Name
		switch {
		case sf.Anonymous && f.Kind() == reflect.Struct:
			name = path // an embedded struct's fields are the parent's, as their variables are
		case path != "":
			name = path + "." + name
		}
		if f.Kind() == reflect.Struct {
			errs = append(errs, validateStruct(name, f))
			continue
		}
		// A value type that checks itself (e.g. svcclient.URL), named in
		// the error by its environment variable when the tag gives one.
		if v, ok := f.Addr().Interface().(Validator); ok {
			if err := v.Validate(); err != nil {
				errs = append(errs, fmt.Errorf("%s %w", envName(sf, name), err))
			}
		}
	}
	return errors.Join(errs...)
}

// envName is the variable the tag names with env:, else the field's path.
func envName(sf reflect.StructField, path string) string {
	for part := range strings.SplitSeq(sf.Tag.Get("conf"), ",") {
		if v, ok := strings.CutPrefix(part, "env:"); ok {
			return v
		}
	}
	return path
}

// String renders cfg for the start-up log with every `mask` field hidden
// (URLs keep their host, only user and password are masked).
func String(cfg any) string {
	s, err := conf.String(cfg)
	if err != nil {
		return "unprintable configuration: " + err.Error()
	}
	return s
}
