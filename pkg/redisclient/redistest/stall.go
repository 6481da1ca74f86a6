package redistest

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
)

// Stall is a TCP proxy in front of the test server that can stop passing
// bytes, as a Redis stalled by a long command, a fork or a network fault
// does: connections stay open, nothing answers. It is what CLIENT PAUSE
// would do without pausing the server every test shares.
type Stall struct {
	Addr string

	mu      sync.Mutex
	stalled bool
	resumed *sync.Cond
}

// NewStall starts the proxy, closed when the test ends.
func NewStall(t testing.TB) *Stall {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("redistest: stall listener: %v", err)
	}
	s := &Stall{Addr: ln.Addr().String()}
	s.resumed = sync.NewCond(&s.mu)
	var conns sync.WaitGroup
	t.Cleanup(func() {
		_ = ln.Close()
		s.Resume()
	})
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", Addr())
			if err != nil {
				_ = client.Close()
				continue
			}
			conns.Add(2)
			go s.pipe(&conns, server, client)
			go s.pipe(&conns, client, server)
		}
	}()
	return s
}

// Pause stops every byte until Resume.
func (s *Stall) Pause() {
	s.mu.Lock()
	s.stalled = true
	s.mu.Unlock()
}

// Resume lets the held bytes through.
func (s *Stall) Resume() {
	s.mu.Lock()
	s.stalled = false
	s.mu.Unlock()
	s.resumed.Broadcast()
}

// pipe copies src to dst, holding each chunk while the proxy is paused.
func (s *Stall) pipe(wg *sync.WaitGroup, dst, src net.Conn) {
	defer wg.Done()
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		s.mu.Lock()
		for s.stalled {
			s.resumed.Wait()
		}
		s.mu.Unlock()
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				_ = src.Close()
			}
			return
		}
	}
}
