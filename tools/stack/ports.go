package stack

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
)

// Free ports are drawn below Linux's ephemeral range (32768-60999): the
// kernel hands ephemeral ports to outgoing connections too, and one of
// those could take a port between our probe and the child's bind.
const (
	freePortMin = 20000
	freePortMax = 32000
)

// freePorts returns n distinct ports that could be bound just now. The
// probes stay open until all are chosen so none is returned twice.
func freePorts(n int) ([]int, error) {
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for tries := 0; len(ports) < n; tries++ {
		if tries > 50*n+100 {
			return nil, errors.New("nenhuma porta livre encontrada")
		}
		port := freePortMin + rand.IntN(freePortMax-freePortMin)
		l, err := net.Listen("tcp", fmt.Sprintf("%s:%d", host, port))
		if err != nil {
			continue
		}
		held = append(held, l)
		ports = append(ports, port)
	}
	return ports, nil
}
