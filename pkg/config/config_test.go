package config_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ponto/ponto/pkg/config"
)

type limits struct {
	Max int `conf:"default:10"`
}

func (l *limits) Validate() error {
	if l.Max <= 0 {
		return errors.New("max must be positive")
	}
	return nil
}

type testConfig struct {
	Name     string `conf:"default:ponto"`
	DBURL    string `conf:"default:postgres://user:s3cret@db:5432/app,mask"`
	APIKey   string `conf:"mask"`
	Required string `conf:"required"`
	Limits   limits
}

func TestParseDefaultsEnvAndValidation(t *testing.T) {
	t.Setenv("REQUIRED", "yes")
	t.Setenv("API_KEY", "sk_live_do_not_print")
	t.Setenv("LIMITS_MAX", "3")

	var cfg testConfig
	if _, err := config.Parse(&cfg); err != nil {
		t.Fatalf("parse: %v", err)
	}
	if cfg.Name != "ponto" || cfg.Limits.Max != 3 || cfg.APIKey != "sk_live_do_not_print" {
		t.Fatalf("unexpected config: %+v", cfg)
	}

	out := config.String(&cfg)
	for _, secret := range []string{"sk_live_do_not_print", "s3cret"} {
		if strings.Contains(out, secret) {
			t.Errorf("secret %q printed in %q", secret, out)
		}
	}
	if !strings.Contains(out, "db:5432") {
		t.Errorf("masked URL should keep its host: %q", out)
	}
}

func TestParseRejectsMissingRequired(t *testing.T) {
	var cfg testConfig
	if _, err := config.Parse(&cfg); err == nil {
		t.Fatal("missing required field accepted")
	}
}

func TestParseRunsFieldValidators(t *testing.T) {
	t.Setenv("REQUIRED", "yes")
	t.Setenv("LIMITS_MAX", "0")
	var cfg testConfig
	_, err := config.Parse(&cfg)
	if err == nil || !strings.Contains(err.Error(), "max must be positive") {
		t.Fatalf("want validation error, got %v", err)
	}
}

type nested struct {
	Inner struct {
		Limits limits
	}
	Required string `conf:"default:x"`
}

func TestValidateReachesNestedStructs(t *testing.T) {
	t.Setenv("INNER_LIMITS_MAX", "-1")
	var cfg nested
	_, err := config.Parse(&cfg)
	if err == nil || !strings.Contains(err.Error(), "Inner.Limits: max must be positive") {
		t.Fatalf("nested validator not run: %v", err)
	}
}

// port is a value type that checks itself.
type port int

func (p port) Validate() error {
	if p < 1 || p > 65535 {
		return errors.New("want a port")
	}
	return nil
}

type withValues struct {
	Port  port `conf:"env:SERVICE_PORT,default:80"`
	Inner struct {
		Port port `conf:"default:81"`
	}
}

func TestValidateChecksValueTypes(t *testing.T) {
	var cfg withValues
	if _, err := config.Parse(&cfg); err != nil {
		t.Fatalf("valid values refused: %v", err)
	}
	t.Setenv("SERVICE_PORT", "0")
	t.Setenv("INNER_PORT", "70000")
	_, err := config.Parse(&cfg)
	if err == nil || !strings.Contains(err.Error(), "SERVICE_PORT want a port") || !strings.Contains(err.Error(), "Inner.Port want a port") {
		t.Fatalf("value validators not run or not named: %v", err)
	}
}

// Shared is embedded, as a service's Config embeds the parts every
// service shares: its fields are the parent's, by their variables and in
// the errors.
type Shared struct {
	Limits limits
}

type embedding struct {
	Shared
	Name string `conf:"default:x"`
}

func TestValidateNamesEmbeddedFieldsAsTheParents(t *testing.T) {
	t.Setenv("LIMITS_MAX", "-1")
	var cfg embedding
	_, err := config.Parse(&cfg)
	if err == nil || !strings.Contains(err.Error(), "invalid configuration: Limits: max must be positive") {
		t.Fatalf("embedded validator: %v", err)
	}
}
