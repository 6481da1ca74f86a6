package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Route sends the API paths it matches to URL instead of the client's
// Base: in a cluster, the chart lists routes.yaml's routes with each
// service's in-cluster Service, so the web pods call the services directly
// and depend on no Gateway's name or Service. Exactly one of Prefix,
// Exact and Regex is set, with routes.yaml's meaning.
type Route struct {
	Prefix string `json:"prefix,omitempty"`
	Exact  string `json:"exact,omitempty"`
	Regex  string `json:"regex,omitempty"`
	URL    string `json:"url"`

	re *regexp.Regexp
}

// ParseRoutes reads WEB_API_ROUTES: a JSON list of routes, first match
// wins; "" is none.
func ParseRoutes(raw string) ([]Route, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, nil
	}
	var routes []Route
	if err := json.Unmarshal([]byte(raw), &routes); err != nil {
		return nil, fmt.Errorf("WEB_API_ROUTES: %w", err)
	}
	for i := range routes {
		if err := routes[i].compile(); err != nil {
			return nil, fmt.Errorf("WEB_API_ROUTES route %d: %w", i+1, err)
		}
	}
	return routes, nil
}

func (r *Route) compile() error {
	set := 0
	for _, m := range []string{r.Prefix, r.Exact, r.Regex} {
		if m != "" {
			set++
		}
	}
	if set != 1 {
		return errors.New("want exactly one of prefix, exact and regex")
	}
	if u, err := url.Parse(r.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url %q: an http(s) URL is required", r.URL)
	}
	r.URL = strings.TrimRight(r.URL, "/")
	if r.Regex == "" {
		return nil
	}
	// Anchored whatever was written: a route matches whole paths.
	re, err := regexp.Compile(`^(?:` + strings.TrimSuffix(strings.TrimPrefix(r.Regex, "^"), "$") + `)$`)
	if err != nil {
		return fmt.Errorf("regex: %w", err)
	}
	r.re = re
	return nil
}

// matches tells whether the route takes path (without its query string).
// A prefix matches whole elements: /x takes /x and /x/y, not /xy.
func (r *Route) matches(path string) bool {
	switch {
	case r.Prefix != "":
		p := strings.TrimRight(r.Prefix, "/")
		return path == p || strings.HasPrefix(path, p+"/") || p == ""
	case r.Exact != "":
		return path == r.Exact
	default:
		return r.re.MatchString(path)
	}
}

// base is the URL a call to pathAndQuery goes to: the first route
// matching its path, else the client's Base ("" when there is none: the
// call then fails as the API being unreachable).
func (c *Client) base(pathAndQuery string) string {
	path, _, _ := strings.Cut(pathAndQuery, "?")
	for i := range c.Routes {
		if c.Routes[i].matches(path) {
			return c.Routes[i].URL
		}
	}
	return c.Base
}
