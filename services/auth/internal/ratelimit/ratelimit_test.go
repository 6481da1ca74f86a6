package ratelimit

import "testing"

func TestIPKey(t *testing.T) {
	for ip, want := range map[string]string{
		"203.0.113.7":              "ip:203.0.113.7",
		"::ffff:203.0.113.7":       "ip:203.0.113.7", // IPv4-mapped counts as the IPv4 address
		"2001:db8:1:2:aaaa::1":     "ip:2001:db8:1:2::/64",
		"2001:db8:1:2:bbbb:cc::99": "ip:2001:db8:1:2::/64", // same /64, same budget
		"2001:db8:1:3::1":          "ip:2001:db8:1:3::/64",
	} {
		if got := IPKey(ip); got != want {
			t.Errorf("IPKey(%s) = %s, want %s", ip, got, want)
		}
	}
	if EmailKey("a@b.com") == EmailKey("c@b.com") || len(EmailKey("a@b.com")) != len("email:")+32 {
		t.Error("EmailKey")
	}
}
