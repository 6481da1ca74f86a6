package main

import (
	"strings"
	"testing"

	"github.com/ponto/ponto/pkg/config"
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
	if p, ok := catalog.Lookup("basic"); !ok || p.PriceID != "price_1basic" || p.TrialDays != 30 {
		t.Errorf("default plan basic = %+v, %v", p, ok)
	}
	if cfg.AuthInternalURL == "" || cfg.JWT.JWKSURL == "" || cfg.Empresas.FusoHorarioPadrao != "America/Sao_Paulo" {
		t.Errorf("defaults missing: %+v", cfg)
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
