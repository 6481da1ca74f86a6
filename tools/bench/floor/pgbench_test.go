package floor

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/tools/bench/load"
)

// pgbench 15's summary, as the benchmark reads it.
const pgbenchOutput = `pgbench (15.20 (Debian 15.20-0+deb12u1))
transaction type: /tmp/clockin-insert.sql
scaling factor: 1
query mode: prepared
number of clients: 16
number of threads: 2
maximum number of tries: 1
duration: 5 s
number of transactions actually processed: 81451
number of failed transactions: 0 (0.000%)
latency average = 0.965 ms
initial connection time = 104.151 ms
tps = 16576.043932 (without initial connection time)
`

func TestParsePGBench(t *testing.T) {
	r, err := parsePGBench(pgbenchOutput)
	if err != nil || r.TPS != 16576.043932 || r.LatencyAvgMs != 0.965 || r.Transactions != 81451 || r.Failed != 0 {
		t.Fatalf("%+v, %v", r, err)
	}
	if _, err := parsePGBench("pgbench: error: connection refused"); err == nil {
		t.Fatal("output without tps accepted")
	}
}

// A pgbench -l log (pgbench 15: client, transaction, latency in µs,
// script, epoch seconds and microseconds), as the floor reads it.
func TestRecordLatencies(t *testing.T) {
	lat := load.NewLatencies()
	var log strings.Builder
	for i := range 100 {
		fmt.Fprintf(&log, "%d %d %d 0 1795642972 300819\n", i%4, i/4+1, (i+1)*1000)
	}
	if err := recordLatencies(lat, []byte(log.String())); err != nil {
		t.Fatal(err)
	}
	r := lat.Result(time.Second)
	if r.Ops != 100 || math.Abs(r.P50Ms-50) > 0.1 || math.Abs(r.P99Ms-99) > 0.1 || math.Abs(r.MaxMs-100) > 0.1 {
		t.Fatalf("%+v", r)
	}
	for _, bad := range []string{"0 1\n", "0 1 failed 0 1795642972 300819\n"} {
		if err := recordLatencies(load.NewLatencies(), []byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// pgbench itself, on a fresh database, logging every transaction of a
// script that sleeps 5 ms: every latency counted, none under the sleep,
// and the log files gone afterwards.
func TestPGBenchLatencyLog(t *testing.T) {
	if _, err := exec.LookPath("pgbench"); err != nil {
		t.Fatal("pgbench not installed (postgresql-client)")
	}
	url := dbtest.CreateDatabase(t)
	dir := t.TempDir()
	res, err := PGBench(t.Context(), PGBenchConfig{PGBench: "pgbench", DatabaseURL: url, Clients: 4, Threads: 2,
		Duration: time.Second, WorkDir: dir, Script: "SELECT pg_sleep(0.005);\n", LatencyLog: true})
	if err != nil {
		t.Fatal(err)
	}
	l := res.Latencies
	if l == nil || l.Ops != res.Transactions || l.Ops < 10 || l.P50Ms < 5 || l.P99Ms < l.P50Ms {
		t.Fatalf("%d transactions, latencies %+v", res.Transactions, l)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "pgbench-c4-log*")); len(left) > 0 {
		t.Errorf("logs left behind: %v", left)
	}
	if !strings.Contains(res.Command, " -l --log-prefix=") {
		t.Errorf("command: %s", res.Command)
	}
}
