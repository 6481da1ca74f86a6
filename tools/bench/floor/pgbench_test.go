package floor

import "testing"

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
