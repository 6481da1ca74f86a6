package svcclient

import (
	"fmt"
	"net/url"
)

// URL is the base URL of a peer's internal API as configured (e.g.
// EMPLOYEE_INTERNAL_URL). config.Validate checks it at start-up, so that a
// bad value stops the service instead of failing every call to the peer.
type URL string

// Validate wants an absolute http(s) URL with a host.
func (u URL) Validate() error {
	p, err := url.Parse(string(u))
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return fmt.Errorf("%q: want an http(s) URL", string(u))
	}
	return nil
}
