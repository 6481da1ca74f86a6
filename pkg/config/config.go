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
// and the command line, then validates it: the struct itself and each of its
// direct fields that implement Validator.
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

// Validate runs Validate on cfg and on every struct field, at any depth,
// that implements Validator, joining what they report.
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
		if f.Kind() != reflect.Struct || !sf.IsExported() {
			continue
		}
		name := sf.Name
		if path != "" {
			name = path + "." + name
		}
		errs = append(errs, validateStruct(name, f))
	}
	return errors.Join(errs...)
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
