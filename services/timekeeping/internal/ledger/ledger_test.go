package ledger

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// branch is company 1's second establishment's chain in these tests.
var branch = Chain{EmpresaID: 1, EstabelecimentoID: 77}

// evento is an entry appending one type-6 record.
func evento(at time.Time) Entry {
	return func(core.Head) ([]Record, error) {
		return []Record{Evento{Codigo: core.EventoDisponibilidade, GravadoEm: at, Fuso: -180}}, nil
	}
}

// Two ledgers (two replicas) writing one company's two chains at once,
// punches and REP events mixed: each chain numbered 1, 2, 3... on its own,
// gapless, hashes chained, its head on its last record.
func TestTwoLedgersWriteTwoChainsAtOnce(t *testing.T) {
	a := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	b := New(a.db, a.clock)
	ctx := t.Context()
	const workers, each = 6, 8
	var wg sync.WaitGroup
	errs := make(chan error, 4*workers*each)
	for w := range int64(workers) {
		l := []*Ledger{a, b}[w%2]
		wg.Go(func() {
			for i := range each {
				p := punch(1, 10+w)
				if i%2 == 1 {
					p.EstabelecimentoID = branch.EstabelecimentoID
					p.FuncionarioID = 100 + w
				}
				if _, _, _, err := l.ClockIn(ctx, p); err != nil {
					errs <- err
				}
				chain := []Chain{Principal(1), branch}[i%2]
				if _, err := l.Append(ctx, chain, evento(l.clock.Now())); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Each chain: half the punches, one type-5 inclusion per employee
	// that punched in it, and half the events.
	perChain := int64(workers*each/2 + workers + workers*each/2)
	verifyChains(t, a, map[Chain]int64{Principal(1): perChain, branch: perChain})
}

// An entry that fails writes nothing and leaves its chain as it was; the
// next append goes on from the same head.
func TestFailingEntryWritesNothing(t *testing.T) {
	l := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	ctx := t.Context()
	at := l.clock.Now()
	if _, err := l.Append(ctx, branch, evento(at)); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	if _, err := l.Append(ctx, branch, func(h core.Head) ([]Record, error) {
		if h.NSR != 1 {
			t.Errorf("entry saw head %d, want 1", h.NSR)
		}
		return nil, refused
	}); !errors.Is(err, refused) {
		t.Fatalf("err = %v, want the entry's", err)
	}
	// A record PostgreSQL refuses (an unknown code) fails its append whole.
	if _, err := l.Append(ctx, branch, func(core.Head) ([]Record, error) {
		return []Record{Evento{Codigo: "07", GravadoEm: at, Fuso: -180}, Evento{Codigo: "99", GravadoEm: at}}, nil
	}); err == nil {
		t.Fatal("an invalid record was appended")
	}
	if n, err := l.Append(ctx, branch, evento(at)); err != nil || n != 1 {
		t.Fatalf("append after the failures: %d, %v", n, err)
	}
	verifyChains(t, l, map[Chain]int64{branch: 2})
}

// An append waits for a chain held by another transaction and gives up
// with its context; another chain of the same company is not held.
func TestHeldChainHoldsOnlyItself(t *testing.T) {
	l := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	ctx := t.Context()
	other, err := l.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Rollback(ctx) }()
	if _, err := Lock(ctx, other, Principal(1)); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := l.Append(short, Principal(1), evento(l.clock.Now())); err == nil {
		t.Fatal("appended to a chain another transaction holds")
	}
	if _, err := l.Append(ctx, branch, evento(l.clock.Now())); err != nil {
		t.Fatalf("the branch's chain waited for the principal one: %v", err)
	}
	if _, _, _, err := l.ClockIn(ctx, Marcacao{EmpresaID: 1, EstabelecimentoID: branch.EstabelecimentoID,
		FuncionarioID: 5, CPF: "12345678909", Nome: "Ana", Localizacao: "x", Coletor: core.ColetorMobile,
		Zone: testZone}); err != nil {
		t.Fatalf("a punch in the branch waited for the principal chain: %v", err)
	}
	verifyChains(t, l, map[Chain]int64{branch: 3})
}

// crashEnv carries the database a crash child writes to.
const crashEnv = "LEDGER_CRASH_DB"

// The process writing two chains at once is killed (SIGKILL) in the
// middle: every record it acknowledged is stored once, and each chain is
// gapless up to its head, whatever the crash cut short.
func TestSIGKILLInTheMiddleLosesNothingAcknowledged(t *testing.T) {
	if os.Getenv(crashEnv) != "" {
		t.Skip("the child runs TestCrashChild")
	}
	db, url := dbtest.NewWithURL(t, os.DirFS("../../migrations"))
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[punchKey]bool{}
	lines := bufio.NewScanner(out)
	for lines.Scan() && len(acked) < 150 {
		if k, ok := parseAck(lines.Text()); ok {
			acked[k] = true
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if len(acked) < 150 {
		t.Fatalf("the child acknowledged %d records before it ended", len(acked))
	}
	s := &Ledger{db: db}
	for k := range acked {
		var n int
		if err := db.QueryRow(t.Context(), `SELECT count(*) FROM registros_ponto
			WHERE empresa_id = $1 AND estabelecimento_id = $2 AND nsr = $3`,
			k.chain.EmpresaID, k.chain.EstabelecimentoID, k.nsr).Scan(&n); err != nil || n != 1 {
			t.Fatalf("acknowledged punch %v stored %d times (%v)", k, n, err)
		}
	}
	heads, err := Heads(t.Context(), db, Principal(1), branch)
	if err != nil {
		t.Fatal(err)
	}
	verifyChains(t, s, map[Chain]int64{Principal(1): heads[Principal(1)].NSR, branch: heads[branch].NSR})
}

// parseAck reads a child's "ack <empresa> <estabelecimento> <nsr>" line.
func parseAck(line string) (punchKey, bool) {
	f := strings.Fields(line)
	if len(f) != 4 || f[0] != "ack" {
		return punchKey{}, false
	}
	var n [3]int64
	for i := range n {
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return punchKey{}, false
		}
		n[i] = v
	}
	return punchKey{Chain{n[0], n[1]}, n[2]}, true
}

// TestCrashChild is the process TestSIGKILLInTheMiddleLosesNothingAcknowledged
// kills: it punches into both chains of company 1 from many goroutines
// until killed, printing each punch acknowledged.
func TestCrashChild(t *testing.T) {
	url := os.Getenv(crashEnv)
	if url == "" {
		t.Skip("run by TestSIGKILLInTheMiddleLosesNothingAcknowledged")
	}
	db, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	zone, _ := time.LoadLocation("America/Sao_Paulo")
	testZone = zone
	l := New(db, clock.New(time.Now))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range int64(8) {
		wg.Go(func() {
			for i := 0; ; i++ {
				p := punch(1, 10+w)
				if w%2 == 1 {
					p.EstabelecimentoID = branch.EstabelecimentoID
				}
				r, _, _, err := l.ClockIn(context.Background(), p)
				if err != nil {
					continue
				}
				mu.Lock()
				fmt.Printf("ack %d %d %d\n", p.EmpresaID, p.EstabelecimentoID, *r.NSR)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
