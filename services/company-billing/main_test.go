package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ponto/ponto/pkg/config"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
)

// stackEnv is what the local stack (tools/stack) gives this service.
func stackEnv(t *testing.T) {
	t.Setenv("STRIPE_API_URL", "http://127.0.0.1:12111")
	t.Setenv("STRIPE_SECRET_KEY", "sk_test_123")
}

func TestConfigDefaultsAndMasking(t *testing.T) {
	stackEnv(t)
	t.Setenv("STRIPE_WEBHOOK_SECRET", "whsec_nao_imprimir")
	var cfg Config
	if _, err := config.Parse(&cfg); err != nil {
		t.Fatal(err)
	}
	catalog, err := cfg.Billing.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	basic, _ := catalog.Lookup("basic")
	type defaults struct {
		Plan                plans.Plan
		AuthURL, JWKS, Zone string
	}
	want := defaults{
		Plan:    plans.Plan{Name: "basic", PriceID: "price_1basic", TrialDays: 30},
		AuthURL: "http://127.0.0.1:9081", JWKS: "http://127.0.0.1:8081/.well-known/jwks.json", Zone: "America/Sao_Paulo",
	}
	got := defaults{Plan: basic, AuthURL: string(cfg.AuthInternalURL), JWKS: cfg.JWT.JWKSURL, Zone: cfg.Empresas.FusoHorarioPadrao}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	out := config.String(&cfg)
	for _, secret := range []string{"sk_test_123", "whsec_nao_imprimir"} {
		if strings.Contains(out, secret) {
			t.Errorf("secret %q printed", secret)
		}
	}
}

func TestConfigRefusesBadSettings(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"plans":      {"BILLING_PLANS": "basic:price_1basic"},
		"stripe url": {"STRIPE_API_URL": "stripe-mock:12111"},
		"no key":     {"STRIPE_SECRET_KEY": ""},
		"retries":    {"STRIPE_MAX_NETWORK_RETRIES": "50"},
		"auth url":   {"AUTH_INTERNAL_URL": "auth:9081"},
		"zone":       {"COMPANY_TIME_ZONE": "Marte/Olimpo"},
		"zone local": {"COMPANY_TIME_ZONE": "Local"},
	} {
		t.Run(name, func(t *testing.T) {
			stackEnv(t)
			for k, v := range env {
				t.Setenv(k, v)
			}
			var cfg Config
			if _, err := config.Parse(&cfg); err == nil {
				t.Errorf("%v accepted", env)
			}
		})
	}
}
