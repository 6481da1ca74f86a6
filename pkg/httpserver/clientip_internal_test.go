package httpserver

import (
	"net/netip"
	"strings"
	"testing"
)

func mustTrust(t *testing.T, list string) trustedProxies {
	t.Helper()
	p, err := parseTrustedProxies(list)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lines turns header lines into what PeekAll gives.
func lines(ls ...string) [][]byte {
	out := make([][]byte, len(ls))
	for i, l := range ls {
		out[i] = []byte(l)
	}
	return out
}

func TestClientIPRule(t *testing.T) {
	ingress := mustTrust(t, "10.0.0.0/8, 192.168.1.1 fd00::/8")
	cases := []struct {
		name    string
		proxies trustedProxies
		peer    string
		xff     []string
		want    string
	}{
		{"no trusted proxies: the peer, header ignored", nil, "10.1.1.1", []string{"1.2.3.4"}, "10.1.1.1"},
		{"untrusted peer: its header is ignored", ingress, "203.0.113.9", []string{"1.2.3.4"}, "203.0.113.9"},
		{"trusted peer without header: the peer", ingress, "10.1.1.1", nil, "10.1.1.1"},
		{"trusted peer, empty header: the peer", ingress, "10.1.1.1", []string{" "}, "10.1.1.1"},
		{"one proxy", ingress, "10.1.1.1", []string{"1.2.3.4"}, "1.2.3.4"},
		{"spoofed leftmost entries are ignored", ingress, "10.1.1.1",
			[]string{"6.6.6.6, 7.7.7.7, 1.2.3.4"}, "1.2.3.4"},
		{"a spoofed trusted-looking entry is still left of the client", ingress, "10.1.1.1",
			[]string{"10.9.9.9, 1.2.3.4"}, "1.2.3.4"},
		{"several trusted hops", ingress, "10.1.1.1",
			[]string{"6.6.6.6, 1.2.3.4, 192.168.1.1, 10.2.2.2"}, "1.2.3.4"},
		{"several header lines read as one list", ingress, "10.1.1.1",
			[]string{"6.6.6.6, 1.2.3.4", "10.2.2.2"}, "1.2.3.4"},
		{"every entry trusted: the leftmost", ingress, "10.1.1.1",
			[]string{"10.3.3.3, 10.2.2.2"}, "10.3.3.3"},
		{"IPv6 client through an IPv6 proxy", ingress, "fd00::1",
			[]string{"2001:db8::1, fd00::2"}, "2001:db8::1"},
		{"IPv6 client with a zone", ingress, "10.1.1.1", []string{"fe80::1%eth0"}, "fe80::1"},
		{"IPv4-mapped peer and entries are IPv4", ingress, "::ffff:10.1.1.1",
			[]string{"::ffff:1.2.3.4"}, "1.2.3.4"},
		{"malformed entry after trusted hops: the peer", ingress, "10.1.1.1",
			[]string{"1.2.3.4, bogus, 10.2.2.2"}, "10.1.1.1"},
		{"address with a port is malformed", ingress, "10.1.1.1", []string{"1.2.3.4:5678"}, "10.1.1.1"},
		{"empty entry is malformed", ingress, "10.1.1.1", []string{"1.2.3.4,"}, "10.1.1.1"},
		{"malformed entries left of the client do not matter", ingress, "10.1.1.1",
			[]string{"<script>, unknown, 1.2.3.4"}, "1.2.3.4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.proxies.clientIP(netip.MustParseAddr(c.peer), lines(c.xff...))
			if got.String() != c.want {
				t.Errorf("peer %s, X-Forwarded-For %q: got %s; want %s", c.peer, c.xff, got, c.want)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := parseTrustedProxies(" 10.0.0.0/8,127.0.0.1;::1\t10.1.2.3/16 ::ffff:172.16.0.0/108 ")
	if err != nil {
		t.Fatal(err)
	}
	want := "[10.0.0.0/8 127.0.0.1/32 ::1/128 10.1.0.0/16 172.16.0.0/12]"
	if s := fmtPrefixes(got); s != want {
		t.Errorf("got %s; want %s", s, want)
	}
	if p, err := parseTrustedProxies(""); err != nil || len(p) != 0 {
		t.Errorf("empty list: %v %v; want nothing trusted", p, err)
	}
	p, err := parseTrustedProxies("10.0.0.0/8, 10.0.0.0/33, nope")
	if err == nil || !strings.Contains(err.Error(), `"10.0.0.0/33"`) || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("want both bad entries named, got %v", err)
	}
	if len(p) != 1 {
		t.Errorf("want the good entry kept, got %v", p)
	}
}

func fmtPrefixes(p trustedProxies) string {
	s := make([]string, len(p))
	for i, n := range p {
		s[i] = n.String()
	}
	return "[" + strings.Join(s, " ") + "]"
}
