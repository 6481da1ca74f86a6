package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestRestartUnderLoadHasNoUnauthorized stops timekeeping gracefully
// (SIGTERM, drain, exit) and starts it again, twice, while eight employees
// punch and read their punches through the gateway without pause. A 401
// tells the app "you are logged out": a restarting service must never give
// one for a valid token (issue #47), so every answer is 200 or one of the
// two answers of the document that mean "try again": the gateway's 502
// servico_indisponivel while nothing listens, or the service's 503 while
// it drains or starts. Each punch is retried with its Idempotency-Key until
// answered 200; afterwards each is stored once, nothing unacknowledged is
// stored, the NSRs have no gap and the AFD's hash chain verifies.
func TestRestartUnderLoadHasNoUnauthorized(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Empresa Reinício "+randomHex(3))
	e.setUp(t, c)
	var clients []*restartClient
	for i := range 8 {
		f := e.hire(t, c, fmt.Sprintf("Pessoa Reinício %d", i))
		clients = append(clients, &restartClient{crashPuncher: crashPuncher{e: e, f: f, acked: map[string]int64{}, failed: map[string]int{}},
			statuses: map[int]int{}})
	}
	// Start-up (not a restart) may precede auth's key: waited out first.
	waitTokenAccepted(t, e, clients[0].f.Token)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	loopCtx, stopLoops := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, cl := range clients {
		wg.Go(func() { cl.run(loopCtx, ctx) })
	}
	var once sync.Once
	stop := func() { once.Do(func() { stopLoops(); wg.Wait() }) }
	defer stop()

	for round := range 2 {
		waitForPunches(t, e, punchersOf(clients), 3*(round+1))
		if err := e.stack.StopService("timekeeping"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // the clients meet the gap
		// Started without waiting for readiness: the clients hit it as
		// soon as it listens, as the gateway sends them.
		if err := e.stack.StartService("timekeeping"); err != nil {
			t.Fatal(err)
		}
		waitHealthy(t, e, 2*time.Minute)
	}
	waitForPunches(t, e, punchersOf(clients), 9)
	stop()
	if err := e.stack.Err(); err != nil {
		t.Fatalf("the stack failed: %v\n%s", err, e.tail(60))
	}

	total := map[int]int{}
	for _, cl := range clients {
		cl.checkAnswers(t)
		cl.checkStored(t, c)
		for s, n := range cl.statuses {
			total[s] += n
		}
	}
	if total[http.StatusUnauthorized] > 0 {
		t.Errorf("%d answers 401 to valid tokens across the restarts; want none", total[http.StatusUnauthorized])
	}
	if total[http.StatusBadGateway]+total[http.StatusServiceUnavailable] == 0 {
		t.Error("no answer 502 or 503: the restarts did not hit the traffic")
	}
	checkNSRs(t, e, c)
	if arq := e.afd(t, c); arq == nil {
		t.Error("no AFD after the restarts")
	} else if err := arq.VerifyCadeia(""); err != nil {
		t.Errorf("the AFD's hash chain does not verify after the restarts: %v", err)
	}
	t.Logf("answers by status: %v", total)
	if t.Failed() {
		t.Logf("--- stack output ---\n%s", e.tail(150))
	}
}

// restartClient punches (each punch with its key, retried until 200) and
// reads its punches after each attempt, counting every answer's status.
type restartClient struct {
	crashPuncher
	statuses map[int]int // guarded by crashPuncher.mu
}

func punchersOf(clients []*restartClient) []*crashPuncher {
	out := make([]*crashPuncher, 0, len(clients))
	for _, cl := range clients {
		out = append(out, &cl.crashPuncher)
	}
	return out
}

func (cl *restartClient) run(loopCtx, ctx context.Context) {
	read := request{Method: http.MethodGet, Path: "/registropontos/me", Token: cl.f.Token}
	for n := 0; loopCtx.Err() == nil; n++ {
		key := fmt.Sprintf("restart-%d-%s-%04d", cl.f.ID, randomHex(3), n)
		cl.mu.Lock()
		cl.keys = append(cl.keys, key)
		cl.mu.Unlock()
		punch := request{Method: http.MethodPost, Path: "/registropontos", Token: cl.f.Token,
			Headers: map[string]string{"Idempotency-Key": key},
			Body:    map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": cl.f.ID}}
		for ctx.Err() == nil {
			a, err := sendChecked(ctx, cl.e, punch)
			ok := cl.note(key, punch, a, err)
			ra, rerr := sendChecked(ctx, cl.e, read)
			cl.note("", read, ra, rerr)
			if ok {
				break
			}
			sleep(ctx, 50*time.Millisecond)
		}
	}
}

// note counts one answer; a punch's 200 is recorded under its key. Only
// 200, the gateway's 502 servico_indisponivel and a 503 are allowed.
func (cl *restartClient) note(key string, r request, a answer, err error) (acked bool) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if err != nil {
		cl.bad = append(cl.bad, fmt.Sprintf("%s %s: %v", r.Method, r.Path, err))
		return false
	}
	cl.statuses[a.Status]++
	switch {
	case a.Status == http.StatusOK && key != "":
		var out struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal(a.Body, &out) // id 0 is reported by checkStored
		cl.acked[key] = out.ID
		return true
	case a.Status == http.StatusOK:
	case a.Status == http.StatusBadGateway && a.code() == "servico_indisponivel",
		a.Status == http.StatusServiceUnavailable:
		if key != "" {
			cl.failed[key]++
		}
	default:
		cl.bad = append(cl.bad, fmt.Sprintf("%s %s %s: %s", r.Method, r.Path, key, a))
	}
	return false
}
