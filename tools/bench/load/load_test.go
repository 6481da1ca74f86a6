package load

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

func TestRunCountsOpsAndErrors(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer x" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		if n%10 == 0 {
			http.Error(w, `{"code":"falhou"}`, http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()

	res, err := Run(context.Background(), Config{Addr: addr, Conns: 4, Warmup: 50 * time.Millisecond,
		Duration: 300 * time.Millisecond, Op: func(w *Worker) error {
			Request(w.Req, fasthttp.MethodGet, "/x", "x")
			if err := w.Do(w.Req, w.Resp); err != nil {
				return err
			}
			return Expect(w.Resp, http.StatusOK)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ops < 10 || res.RPS <= 0 || res.P50Ms <= 0 || res.P99Ms < res.P50Ms || res.MaxMs < res.P99Ms {
		t.Fatalf("implausible result: %+v", res)
	}
	// 300 ms measured: six to eight windows (the last operations end
	// after it), the slowest 1% in some of them (tailOf's own test places
	// them).
	if tl := res.Tail; tl == nil || tl.Windows < 6 || tl.Windows > 8 || tl.WithSlow < 1 || tl.WithSlow > tl.Windows ||
		tl.Top3Share <= 0 || tl.Top3Share > 1 {
		t.Fatalf("tail not placed: %+v", res.Tail)
	}
	// One call in ten fails; the warm-up's failures count too.
	if res.TotalErrors() == 0 || res.Errors > res.Ops/5 || len(res.ErrorSamples) == 0 {
		t.Fatalf("errors not counted: %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if int64(calls) != res.Ops+res.WarmupOps {
		t.Fatalf("server saw %d calls, result counts %d", calls, res.Ops+res.WarmupOps)
	}
}

func TestRunStopsWithContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = Run(ctx, Config{Addr: l.Addr().String(), Conns: 1, Duration: time.Hour,
		Op: func(*Worker) error { time.Sleep(time.Millisecond); return nil }})
	if err == nil {
		t.Fatal("a cancelled run reported success")
	}
}

func TestOwnNeverShares(t *testing.T) {
	const conns, items = 16, 40
	owner := map[int]int{}
	for id := range conns {
		w := &Worker{ID: id, Conns: conns}
		for n := range 50 {
			w.N = n
			i := w.Own(items)
			if i < 0 || i >= items {
				t.Fatalf("worker %d picked %d of %d", id, i, items)
			}
			if o, ok := owner[i]; ok && o != id {
				t.Fatalf("item %d used by workers %d and %d", i, o, id)
			}
			owner[i] = id
		}
	}
	if len(owner) != items {
		t.Fatalf("%d of %d items used", len(owner), items)
	}
}

func TestRunStopsAfterOps(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	const ops = 500
	var mu sync.Mutex
	seen := map[int64]int{}
	warm := 0
	start := time.Now()
	res, err := Run(context.Background(), Config{Addr: srv.Listener.Addr().String(), Conns: 8,
		Warmup: 50 * time.Millisecond, Duration: time.Hour, Ops: ops, Op: func(w *Worker) error {
			mu.Lock()
			if w.Seq < 0 {
				warm++
			} else {
				seen[w.Seq]++
			}
			mu.Unlock()
			Request(w.Req, fasthttp.MethodGet, "/x", "")
			return w.Do(w.Req, w.Resp)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > time.Minute {
		t.Fatal("the run did not stop when its operations ran out")
	}
	if res.Ops != ops || len(seen) != ops || warm == 0 || int64(warm) != res.WarmupOps {
		t.Fatalf("ops %d, distinct seqs %d, warm-up %d (result %d)", res.Ops, len(seen), warm, res.WarmupOps)
	}
	for seq, n := range seen {
		if seq < 0 || seq >= ops || n != 1 {
			t.Fatalf("seq %d used %d times", seq, n)
		}
	}
}
