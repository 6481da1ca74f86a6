package plans

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	c, err := Parse("basic:price_1basic:30, pro:price_1pro:0")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Names(); !slices.Equal(got, []string{"basic", "pro"}) {
		t.Fatalf("Names = %v", got)
	}
	p, ok := c.Lookup("basic")
	if !ok || p.PriceID != "price_1basic" || p.TrialDays != 30 || p.Role() != "empresa_plan_basic" {
		t.Fatalf("basic = %+v, %v", p, ok)
	}
	if _, ok := c.Lookup("gold"); ok {
		t.Fatal("unknown plan found")
	}
}

func TestParseRefuses(t *testing.T) {
	for _, s := range []string{
		"",
		" , ",
		"basic",
		"basic:price_1:30:extra",
		"Basic:price_1:30",
		"basic:price 1:30",
		"basic::30",
		"basic:price_1:-1",
		"basic:price_1:731",
		"basic:price_1:trinta",
		"basic:price_1:30,basic:price_2:10",
	} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	if err := (&Config{Plans: "basic:price_1basic:30"}).Validate(); err != nil {
		t.Fatal(err)
	}
	if err := (&Config{Plans: "basic:30"}).Validate(); err == nil {
		t.Fatal("invalid catalogue validated")
	}
}
