package bench

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/tools/bench/floor"
	"github.com/ponto/ponto/tools/bench/load"
)

// The ratios, the targets and the table, on made-up figures.
func TestReportJudgesTargetsOnTheServicePort(t *testing.T) {
	rep := &Report{Commit: "0123456789abcdef", StartedAt: time.Now(), Chains: ChainCheck{OK: true}}
	rep.Floors.PGBench = []PGBenchFloor{
		{Workload: "clockin-spread", PGBenchResult: floor.PGBenchResult{TPS: 10000, Clients: 16, Threads: 2, Seconds: 15}},
		{Workload: "clockin-single", PGBenchResult: floor.PGBenchResult{TPS: 8000}},
	}
	rep.Floors.PGBench = append(rep.Floors.PGBench,
		PGBenchFloor{Workload: "clockin-cold", PGBenchResult: floor.PGBenchResult{TPS: 10000}})
	rep.Floors.Report = []ReportFloor{{Name: "report-json", Result: load.Result{P50Ms: 100},
		Raw: &RawFloor{Rows: 30000, Result: load.Result{P50Ms: 80}, CPU: CPUPerOp{"postgres": 40, "bench": 10}}}}
	cold := workload{name: "clockin-cold", title: "cold", conns: 64, floor: "pgbench", serviceOnly: true}
	spread := workload{name: "clockin-spread", title: "spread", conns: 64, floor: "pgbench"}
	single := workload{name: "clockin-single", title: "single", conns: 64, floor: "pgbench"}
	report := workload{name: "report-json", title: "report", conns: 1, floor: "report-json"}
	rep.add(spread, ColumnService, load.Result{RPS: 5000, P50Ms: 9, P99Ms: 14}, CPUPerOp{"timekeeping": 0.5}, 1)
	rep.add(spread, ColumnGateway, load.Result{RPS: 1000, P99Ms: 90, Errors: 2}, nil, 1)
	rep.add(single, ColumnService, load.Result{RPS: 1600}, nil, 1)
	rep.add(report, ColumnService, load.Result{P50Ms: 160}, CPUPerOp{"timekeeping": 75, "postgres": 50}, 1)
	rep.add(cold, ColumnService, load.Result{RPS: 6500, P99Ms: 16,
		Tail: &load.Tail{Slow: 100, Windows: 34, WithSlow: 5, Top3Share: 0.8, Top3: []load.TailSpan{{AtMs: 0, Slow: 50}, {AtMs: 50, Slow: 20}, {AtMs: 1200, Slow: 10}}}}, nil, 1)
	rep.finish(&runner{started: time.Now()})

	got := map[string]Target{}
	for _, tg := range rep.Targets {
		got[tg.Name[:strings.Index(tg.Name, " ")]+"/"+tg.Got] = tg
	}
	for key, met := range map[string]bool{
		"clockin-spread/0.50":    true, // 5000 / 10000 ≥ 0.45
		"clockin-spread/14.0 ms": true,
		"clockin-single/0.20":    false, // 2000 / 10000 < 0.25
		"report-json/1.60":       false, // 160 / 100 > 1.5
		"report-json/2.00":       false, // 160 / 80, the raw read
		"clockin-cold/0.65":      true,  // 6500 / 10000 ≥ 0.6
		"clockin-cold/16.0 ms (1% mais lentas, 100 op.: em 5 de 34 janelas de 50 ms, 80% em 3 delas: 50 a 0 ms, 20 a 50 ms, 10 a 1200 ms do início)": false,
		"zero/2": false, // the gateway's errors count
	} {
		if tg, ok := got[key]; !ok || tg.Met != met {
			t.Errorf("%s: got %+v (all: %+v)", key, tg, rep.Targets)
		}
	}
	if !rep.Failed() {
		t.Error("a run with failed requests did not fail")
	}
	var out bytes.Buffer
	rep.Print(&out)
	for _, want := range []string{"0123456789ab", "10000 tps", "spread", "0.500", "1.60×", "[NÃO]", "docs/performance.md", "0.500",
		"leitura ordenada das marcações", "2.00×", "cold",
		"2.50×", // CPU: 125 ms per report over 50 per raw read
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// A report timed in turns with its raw read is judged on that ratio, and
// the sequential one stays in the table beside it.
func TestReportTargetIsJudgedOnTheAlternatedRatio(t *testing.T) {
	rep := &Report{Commit: "0123456789abcdef", StartedAt: time.Now(), Chains: ChainCheck{OK: true}}
	rep.Floors.Report = []ReportFloor{{Name: "report-csv", Result: load.Result{P50Ms: 150},
		Raw: &RawFloor{Rows: 30000, Result: load.Result{P50Ms: 100}}}}
	csv := workload{name: "report-csv", title: "csv", conns: 1, floor: "report-csv"}
	rep.add(csv, ColumnService, load.Result{P50Ms: 180}, nil, 1) // 1.80 × the read timed before
	rep.row("report-csv", ColumnService).setAlternated(&Alternated{
		Report: load.Result{Ops: 40, P50Ms: 182}, Raw: load.Result{Ops: 40, P50Ms: 140}}) // 1.30 in turns
	rep.finish(&runner{started: time.Now()})

	var judged []Target
	for _, tg := range rep.Targets {
		if strings.Contains(tg.Name, "leitura ordenada") {
			judged = append(judged, tg)
		}
	}
	if len(judged) != 1 || judged[0].Got != "1.30" || !judged[0].Met || !strings.Contains(judged[0].Name, "em turnos") {
		t.Fatalf("targets on the raw read: %+v", judged)
	}
	var out bytes.Buffer
	rep.Print(&out)
	for _, want := range []string{"1.30×", "1.80×", "relatório p50 182.00 ms, leitura p50 140.00 ms, 40 de cada"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}

	// Without the alternation the sequential ratio is judged.
	rep.row("report-csv", ColumnService).Alternated = nil
	rep.row("report-csv", ColumnService).RatioRawAlternated = nil
	rep.Targets = nil
	rep.finish(&runner{started: time.Now()})
	for _, tg := range rep.Targets {
		if strings.Contains(tg.Name, "leitura ordenada") && (tg.Got != "1.80" || tg.Met) {
			t.Errorf("sequential ratio judged as %+v", tg)
		}
	}
}

// A p99 target says how low the closed loop's mean could go on the run's
// cores: 64 connections at 4,000 req/s wait 16 ms on average, and at
// 0.4 ms of CPU an operation two cores do at most 5,000 a second, so no
// mean under 12.8 ms was in reach.
func TestP99TargetCarriesTheClosedLoopBound(t *testing.T) {
	rep := &Report{StartedAt: time.Now(), Chains: ChainCheck{OK: true}, Machine: Machine{CPUs: 2}}
	cold := workload{name: "clockin-cold", title: "cold", conns: 64, floor: "pgbench", serviceOnly: true}
	rep.add(cold, ColumnService, load.Result{RPS: 4000, P99Ms: 27},
		CPUPerOp{"timekeeping": 0.2, "postgres": 0.1, "employee": 0.05, "bench": 0.05}, 1)
	rep.finish(&runner{started: time.Now()})

	b := rep.row("clockin-cold", ColumnService).Bound
	if b == nil {
		t.Fatal("no bound")
	}
	for name, v := range map[string][2]float64{"mean": {b.MeanMs, 16}, "max req/s": {b.MaxRPS, 5000},
		"min mean": {b.MinMeanMs, 12.8}, "busy": {b.Busy, 0.8}} {
		if d := v[0] - v[1]; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s = %v, want %v", name, v[0], v[1])
		}
	}
	var target Target
	for _, tg := range rep.Targets {
		if tg.Name == "clockin-cold p99 ≤ 15 ms" {
			target = tg
		}
	}
	want := "27.0 ms; laço fechado: média 16.0 ms = 64 conexões ÷ req/s; a 0.400 ms de CPU por op. (todos os processos), " +
		"2 núcleos dão no máximo 5000 req/s (80% em uso): média ≥ 12.8 ms"
	if target.Got != want || target.Met {
		t.Errorf("target = %+v, want %q, not met", target, want)
	}
	// Without CPU figures (no samples) there is no bound to state.
	if got := loopBound(&Row{Conns: 64, Result: load.Result{RPS: 4000}}, 2); got != nil {
		t.Errorf("bound without CPU: %+v", got)
	}
}

// A p99 target is shown beside PostgreSQL's own p99 at the workload's
// connections, and said out of reach when that is over it; the floor's
// line names both percentiles.
func TestP99TargetBesidePostgreSQLsOwnAtTheSameConnections(t *testing.T) {
	rep := &Report{StartedAt: time.Now(), Chains: ChainCheck{OK: true}}
	atLoad := func(p99 float64) *floor.PGBenchResult {
		return &floor.PGBenchResult{TPS: 3800, Clients: 64, Threads: 2, Seconds: 15,
			Latencies: &load.Result{P50Ms: 13.1, P99Ms: p99}}
	}
	rep.Floors.PGBench = []PGBenchFloor{
		{Workload: "clockin-cold", PGBenchResult: floor.PGBenchResult{TPS: 4400, Clients: 16}, AtLoad: atLoad(38.14)},
		{Workload: "clockin-spread", PGBenchResult: floor.PGBenchResult{TPS: 9000, Clients: 16}, AtLoad: atLoad(12)},
	}
	rep.add(workload{name: "clockin-cold", conns: 64, floor: "pgbench"}, ColumnService, load.Result{RPS: 2300, P99Ms: 47.7}, nil, 1)
	rep.add(workload{name: "clockin-spread", conns: 64, floor: "pgbench"}, ColumnService, load.Result{RPS: 7000, P99Ms: 14}, nil, 1)
	rep.finish(&runner{started: time.Now()})

	got := map[string]Target{}
	for _, tg := range rep.Targets {
		got[tg.Name] = tg
	}
	cold, spread := got["clockin-cold p99 ≤ 15 ms"], got["clockin-spread p99 ≤ 15 ms"]
	if cold.Met || !strings.HasSuffix(cold.Got, "em 64 conexões (pgbench), dá p50 13.1 ms e p99 38.1 ms: a meta está abaixo do que o banco sozinho alcança nesta máquina") {
		t.Errorf("cold: %+v", cold)
	}
	if !spread.Met || !strings.HasSuffix(spread.Got, "dá p50 13.1 ms e p99 12.0 ms") {
		t.Errorf("spread: %+v", spread)
	}
	var out bytes.Buffer
	rep.Print(&out)
	if !regexp.MustCompile(`pgbench, INSERT do registro \(-M prepared -c 64 -j 2 -T 15\) +3800 tps   p50 13.10 ms   p99 38.14 ms\n`).
		MatchString(out.String()) {
		t.Errorf("floors:\n%s", out.String())
	}
}

// With the report's SQL in the turns, the old floor's target is judged on
// that ratio too, and both in-turns ratios are printed beside the
// sequential ones.
func TestReportSQLTargetIsJudgedInTurns(t *testing.T) {
	rep := &Report{StartedAt: time.Now(), Chains: ChainCheck{OK: true}}
	rep.Floors.Report = []ReportFloor{{Name: "report-json", Result: load.Result{P50Ms: 100},
		Raw: &RawFloor{Rows: 30000, Result: load.Result{P50Ms: 120}}}}
	json := workload{name: "report-json", title: "json", conns: 1, floor: "report-json"}
	rep.add(json, ColumnService, load.Result{P50Ms: 170}, nil, 1) // 1.70 × the SQL timed before
	rep.row("report-json", ColumnService).setAlternated(&Alternated{
		Report: load.Result{Ops: 30, P50Ms: 150}, Raw: load.Result{Ops: 30, P50Ms: 125},
		SQL: &load.Result{Ops: 30, P50Ms: 120}}) // 1.20 and 1.25 in turns
	rep.finish(&runner{started: time.Now()})

	got := map[string]Target{}
	for _, tg := range rep.Targets {
		got[tg.Name] = tg
	}
	if tg := got["report-json ≤ 1.50 × SQL do relatório (p50, em turnos)"]; tg.Got != "1.25" || !tg.Met {
		t.Errorf("SQL target in turns: %+v (all: %+v)", tg, rep.Targets)
	}
	if tg, ok := got["report-json ≤ 1.50 × SQL do relatório (p50)"]; ok {
		t.Errorf("the sequential SQL ratio judged too: %+v", tg)
	}
	var out bytes.Buffer
	rep.Print(&out)
	for _, want := range []string{"÷ SQL (turnos)", "1.25×", "1.70×",
		"em turnos: relatório p50 150.00 ms, leitura p50 125.00 ms, SQL p50 120.00 ms, 30 de cada"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}
