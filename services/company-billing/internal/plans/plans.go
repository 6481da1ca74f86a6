// Package plans holds the catalogue of plans a company may subscribe to:
// each plan name (the request's nomeDoPlano) maps to a Stripe price and a
// number of trial days. The catalogue comes from configuration
// (BILLING_PLANS) and is validated at start-up.
package plans

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// MaxTrialDays is Stripe's own limit for trial_period_days.
const MaxTrialDays = 730

// Plan is one subscribable plan.
type Plan struct {
	Name      string
	PriceID   string
	TrialDays int64
}

// Role is the company role the plan gives, e.g. empresa_plan_basic.
func (p Plan) Role() string { return "empresa_plan_" + p.Name }

// Catalog is the set of plans, looked up by name.
type Catalog struct {
	byName map[string]Plan
}

// Lookup returns the plan called name.
func (c Catalog) Lookup(name string) (Plan, bool) {
	p, ok := c.byName[name]
	return p, ok
}

// Names lists the plan names, sorted, for error messages.
func (c Catalog) Names() []string {
	names := make([]string, 0, len(c.byName))
	for n := range c.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Plan names end up in the role claim, so they are kept to a small,
// predictable alphabet.
var (
	validName  = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)
	validPrice = regexp.MustCompile(`^[A-Za-z0-9_]{1,255}$`)
)

// Parse reads "name:priceId:trialDays" entries separated by commas, e.g.
// "basic:price_1basic:30,pro:price_1pro:14".
func Parse(s string) (Catalog, error) {
	c := Catalog{byName: map[string]Plan{}}
	var errs []error
	for entry := range strings.SplitSeq(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		p, err := parseEntry(entry)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, dup := c.byName[p.Name]; dup {
			errs = append(errs, fmt.Errorf("plan %q defined twice", p.Name))
			continue
		}
		c.byName[p.Name] = p
	}
	if len(errs) == 0 && len(c.byName) == 0 {
		errs = append(errs, errors.New("no plan defined"))
	}
	return c, errors.Join(errs...)
}

func parseEntry(entry string) (Plan, error) {
	parts := strings.Split(entry, ":")
	if len(parts) != 3 {
		return Plan{}, fmt.Errorf("plan %q: want name:priceId:trialDays", entry)
	}
	name, price, days := parts[0], parts[1], parts[2]
	if !validName.MatchString(name) {
		return Plan{}, fmt.Errorf("plan %q: name must be 1 to 32 of a-z, 0-9, _", entry)
	}
	if !validPrice.MatchString(price) {
		return Plan{}, fmt.Errorf("plan %q: invalid Stripe price id", entry)
	}
	n, err := strconv.ParseInt(days, 10, 64)
	if err != nil || n < 0 || n > MaxTrialDays {
		return Plan{}, fmt.Errorf("plan %q: trial days must be an integer from 0 to %d", entry, MaxTrialDays)
	}
	return Plan{Name: name, PriceID: price, TrialDays: n}, nil
}

// Config is the configuration field (BILLING_PLANS) that carries the
// catalogue; Validate runs at start-up through pkg/config.
type Config struct {
	Plans string `conf:"default:basic:price_1basic:30,help:plans as name:stripePriceId:trialDays separated by commas"`
}

// Validate refuses a catalogue that does not parse.
func (c *Config) Validate() error {
	_, err := Parse(c.Plans)
	return err
}

// Catalog parses the validated configuration.
func (c *Config) Catalog() (Catalog, error) { return Parse(c.Plans) }
