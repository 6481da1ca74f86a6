// Package brdocstest makes valid registry numbers for tests, where every
// employee needs a CPF of his own that the services' validation accepts.
// It is imported only from _test.go files.
package brdocstest

import (
	"fmt"

	"github.com/ponto/ponto/pkg/brdocs"
)

// CPF returns a valid, masked CPF made from n (0 <= n < 900,000,000):
// distinct n give distinct CPFs. The first nine digits are 100000000+n,
// the check digits the only ones brdocs.ValidCPF accepts.
func CPF(n int) string {
	d := fmt.Sprintf("%09d", 100000000+n)
	for check := range 100 {
		s := fmt.Sprintf("%s.%s.%s-%02d", d[0:3], d[3:6], d[6:9], check)
		if brdocs.ValidCPF(s) {
			return s
		}
	}
	// Only a repeated-digit base (n = 11,111,111 and the like) has none.
	panic(fmt.Sprintf("brdocstest: no valid CPF starts with %s", d))
}
