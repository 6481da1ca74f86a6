package httpserver

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"
)

// Behind the Ingress (or tools/gateway locally) the TCP peer of every
// request is the proxy, so the peer address alone would put all clients
// under one per-IP rate limit. The proxies append the address they received
// the request from to X-Forwarded-For, so the header reads
// "client, proxy1, proxy2" with the peer as an implicit last hop. Only the
// entries our own proxies wrote can be believed: everything to the left of
// them arrived from the client and may be forged. So the client is found
// by walking the header from the right past the trusted proxies.
//
// Fiber's own TrustedProxies/ProxyHeader options do not do this: they take
// the leftmost valid entry, which any client can set.

// trustedProxiesKey is the Locals key under which the middleware leaves the
// server's trusted proxies for ClientIP.
const trustedProxiesKey = "httpserver.trustedproxies"

// trustedProxies are the networks whose X-Forwarded-For entries are
// believed; empty trusts nobody.
type trustedProxies []netip.Prefix

// parseTrustedProxies reads a list of IPs and CIDRs separated by commas,
// semicolons or white space. It returns the entries it understood along
// with an error naming the others.
func parseTrustedProxies(list string) (trustedProxies, error) {
	fields := strings.FieldsFunc(list, func(r rune) bool {
		return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	var (
		nets trustedProxies
		errs []error
	)
	for _, f := range fields {
		p, err := parseProxyNet(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		nets = append(nets, p)
	}
	return nets, errors.Join(errs...)
}

// parseProxyNet reads "10.0.0.0/8" or a single address "10.1.2.3".
// IPv4-mapped IPv6 forms are turned into IPv4 ones, as the addresses they
// are compared with are.
func parseProxyNet(s string) (netip.Prefix, error) {
	if !strings.Contains(s, "/") {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("TrustedProxies: %q is neither an IP nor a CIDR", s)
		}
		a = a.Unmap().WithZone("")
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("TrustedProxies: %q is neither an IP nor a CIDR", s)
	}
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p.Masked(), nil
}

// trusts reports whether addr (unmapped, without zone) is one of ours.
func (t trustedProxies) trusts(addr netip.Addr) bool {
	for _, p := range t {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// clientIP is the rule: an untrusted peer is the client. Otherwise the
// X-Forwarded-For entries (xff holds the header's lines in order) are
// walked from the right, skipping trusted addresses, and the first
// untrusted one is the client. When every entry is trusted, the leftmost
// is the client (a machine inside the trusted networks called through the
// proxy). A malformed entry stops the walk and the peer is answered: the
// chain is broken, so nothing in the header can be relied on any more.
func (t trustedProxies) clientIP(peer netip.Addr, xff [][]byte) netip.Addr {
	peer = peer.Unmap().WithZone("")
	if !t.trusts(peer) {
		return peer
	}
	hop := peer
	for i := len(xff) - 1; i >= 0; i-- {
		line := xff[i]
		if len(bytes.TrimSpace(line)) == 0 {
			continue // an empty header line says nothing
		}
		for {
			entry, rest := line, []byte(nil)
			if j := bytes.LastIndexByte(line, ','); j >= 0 {
				entry, rest = line[j+1:], line[:j]
			}
			// The unsafe view of the header avoids a copy per request;
			// ParseAddr keeps nothing of it that outlives this call.
			addr, err := netip.ParseAddr(utils.UnsafeString(bytes.TrimSpace(entry)))
			if err != nil {
				return peer
			}
			addr = addr.Unmap().WithZone("")
			if !t.trusts(addr) {
				return addr
			}
			hop = addr
			if rest == nil {
				break
			}
			line = rest
		}
	}
	return hop
}

// trustProxies is the first middleware: it hands the server's trusted
// proxies to ClientIP through the request's Locals. A pointer is stored, so
// this costs no allocation, and the walk only happens when someone asks.
func (s *Server) trustProxies(c *fiber.Ctx) error {
	c.Locals(trustedProxiesKey, &s.proxies)
	return c.Next()
}

// ClientIP is the address of the client that made the request, seen
// through the proxies listed in HTTP_TRUSTED_PROXIES (see clientIP for the
// rule). Handlers must use it instead of c.IP(), which is the proxy's
// address behind the Ingress. Outside a Server's apps (bare Fiber apps in
// tests) it is c.IP().
func ClientIP(c *fiber.Ctx) string {
	t, ok := c.Locals(trustedProxiesKey).(*trustedProxies)
	if !ok || len(*t) == 0 {
		return c.IP()
	}
	peer, _ := netip.AddrFromSlice(c.Context().RemoteIP())
	return t.clientIP(peer, c.Request().Header.PeekAll(fiber.HeaderXForwardedFor)).String()
}
