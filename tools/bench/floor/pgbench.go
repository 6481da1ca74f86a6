// Package floor measures what the machine itself can do, in the same run
// as the benchmark, so that every figure can be read as a ratio that does
// not move with the machine's load:
//
//   - PGBench: PostgreSQL alone, inserting rows of the clock-in's INSERT
//     shape (pgbench, prepared statements, 16 clients) into a scratch
//     database migrated with timekeeping's own migrations; with
//     LatencyLog, every transaction's latency too, for its percentiles;
//   - Report: the department report's own SQL (read from its source file),
//     timed directly with pgx.
package floor

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ponto/ponto/tools/bench/load"
)

// PGBenchConfig says how to run pgbench.
type PGBenchConfig struct {
	// PGBench is the pgbench binary (default /usr/bin/pgbench).
	PGBench string
	// DatabaseURL is the scratch database, already migrated.
	DatabaseURL string
	Clients     int // default 16
	Threads     int // default 2
	Duration    time.Duration
	// Companies and Employees spread the inserted rows as the spread
	// clock-in spreads its punches.
	Companies, Employees int
	// WorkDir receives the script (and the latency log while it is read).
	WorkDir string
	// Script replaces the clock-in's INSERT (for tests).
	Script string
	// LatencyLog has pgbench log every transaction's latency, from which
	// the result's percentiles are computed.
	LatencyLog bool
}

// PGBenchResult is pgbench's summary.
type PGBenchResult struct {
	TPS          float64 `json:"tps"`
	LatencyAvgMs float64 `json:"latenciaMediaMs"`
	// Latencies are every transaction's, as the load generator reports
	// its operations' (LatencyLog only).
	Latencies    *load.Result `json:"latencias,omitempty"`
	Transactions int64        `json:"transacoes"`
	Failed       int64        `json:"falhas"`
	// ClientCPUSeconds is pgbench's own CPU time.
	ClientCPUSeconds float64 `json:"cpuClienteSegundos"`
	Clients          int     `json:"clientes"`
	Threads          int     `json:"threads"`
	Seconds          float64 `json:"segundos"`
	Script           string  `json:"script"`
	Command          string  `json:"comando"`
}

// insertScript is the clock-in's INSERT (services/timekeeping/internal/
// registro/store.go): the same table, the same twelve columns, RETURNING
// id, one row per transaction. NSRs come from a sequence, as they must be
// unique per company.
const insertScript = `\set empresa random(1, %d)
\set funcionario random(1, %d)
INSERT INTO registros_ponto (empresa_id, funcionario_id, jornada, horario_registro, tipo, localizacao, nsr, hash, cpf, fuso_minutos, coletor, idempotency_key) VALUES (:empresa, :funcionario, CURRENT_DATE, now(), 'entrada', '-23.55052, -46.633309', nextval('bench_nsr'), '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', '001234567890', -180, '01', NULL) RETURNING id;
`

var (
	tpsLine     = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
	latencyLine = regexp.MustCompile(`(?m)^latency average = ([0-9.]+) ms`)
	doneLine    = regexp.MustCompile(`(?m)^number of transactions actually processed: ([0-9]+)`)
	failedLine  = regexp.MustCompile(`(?m)^number of failed transactions: ([0-9]+)`)
)

// PrepareInsertFloor adds what the script needs to a database migrated
// with timekeeping's migrations.
const PrepareInsertFloor = `CREATE SEQUENCE IF NOT EXISTS bench_nsr`

// PGBench runs pgbench -M prepared -c clients -j threads -T secs with the
// clock-in's INSERT.
func PGBench(ctx context.Context, cfg PGBenchConfig) (PGBenchResult, error) {
	if cfg.PGBench == "" {
		cfg.PGBench = "/usr/bin/pgbench"
	}
	if cfg.Clients == 0 {
		cfg.Clients = 16
	}
	if cfg.Threads == 0 {
		cfg.Threads = 2
	}
	secs := max(1, int(cfg.Duration.Round(time.Second)/time.Second))
	script := cfg.Script
	if script == "" {
		script = fmt.Sprintf(insertScript, max(cfg.Companies, 1), max(cfg.Employees, 1))
	}
	path := filepath.Join(cfg.WorkDir, "clockin-insert.sql")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		return PGBenchResult{}, err
	}
	u, err := url.Parse(cfg.DatabaseURL)
	if err != nil {
		return PGBenchResult{}, err
	}
	args := []string{"-n", "-M", "prepared", "-c", strconv.Itoa(cfg.Clients), "-j", strconv.Itoa(cfg.Threads),
		"-T", strconv.Itoa(secs), "-f", path, "-h", u.Hostname(), "-p", portOr(u.Port(), "5432"),
		"-U", u.User.Username()}
	logPrefix := filepath.Join(cfg.WorkDir, fmt.Sprintf("pgbench-c%d-log", cfg.Clients))
	if cfg.LatencyLog {
		args = append(args, "-l", "--log-prefix="+logPrefix)
		defer removeLogs(logPrefix)
	}
	args = append(args, strings.TrimPrefix(u.Path, "/"))
	cmd := exec.CommandContext(ctx, cfg.PGBench, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return PGBenchResult{}, fmt.Errorf("pgbench: %w\n%s", err, out.String())
	}
	res, err := parsePGBench(out.String())
	if ps := cmd.ProcessState; ps != nil {
		res.ClientCPUSeconds = (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	res.Clients, res.Threads, res.Seconds, res.Script = cfg.Clients, cfg.Threads, float64(secs), script
	res.Command = cfg.PGBench + " " + strings.Join(args, " ")
	if err == nil && cfg.LatencyLog {
		err = res.readLatencyLog(logPrefix)
	}
	return res, err
}

// readLatencyLog sets Latencies from the files pgbench -l wrote (one per
// thread: prefix.pid, prefix.pid.1, ...). Each line is "client
// transaction latency_us script epoch_s epoch_us"; a transaction pgbench
// could not finish has no latency and fails the floor, as parsePGBench's
// count of failures does.
func (res *PGBenchResult) readLatencyLog(prefix string) error {
	paths, err := filepath.Glob(prefix + ".*")
	if err != nil || len(paths) == 0 {
		return fmt.Errorf("pgbench: no latency log at %s.*: %v", prefix, err)
	}
	lat := load.NewLatencies()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := recordLatencies(lat, b); err != nil {
			return fmt.Errorf("pgbench: %s: %w", filepath.Base(p), err)
		}
	}
	r := lat.Result(time.Duration(res.Seconds * float64(time.Second)))
	if r.Ops != res.Transactions {
		return fmt.Errorf("pgbench: %d latencies logged for %d transactions", r.Ops, res.Transactions)
	}
	res.Latencies = &r
	return nil
}

// removeLogs removes the files of a pgbench -l run, read or not.
func removeLogs(prefix string) {
	paths, _ := filepath.Glob(prefix + ".*")
	for _, p := range paths {
		_ = os.Remove(p)
	}
}

// recordLatencies records the third field of every line of a pgbench -l
// log, in microseconds.
func recordLatencies(lat *load.Latencies, log []byte) error {
	for line := range bytes.Lines(log) {
		f := bytes.Fields(line)
		if len(f) < 3 {
			return fmt.Errorf("a line without a latency: %q", line)
		}
		us, err := strconv.ParseInt(string(f[2]), 10, 64)
		if err != nil {
			return fmt.Errorf("latency %q: %w", f[2], err)
		}
		lat.Record(time.Duration(us) * time.Microsecond)
	}
	return nil
}

// parsePGBench reads pgbench's summary.
func parsePGBench(text string) (PGBenchResult, error) {
	var res PGBenchResult
	m := tpsLine.FindStringSubmatch(text)
	if m == nil {
		return res, fmt.Errorf("pgbench: tps not found in:\n%s", text)
	}
	res.TPS, _ = strconv.ParseFloat(m[1], 64)
	if m := latencyLine.FindStringSubmatch(text); m != nil {
		res.LatencyAvgMs, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := doneLine.FindStringSubmatch(text); m != nil {
		res.Transactions, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := failedLine.FindStringSubmatch(text); m != nil {
		res.Failed, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if res.Failed > 0 {
		return res, fmt.Errorf("pgbench: %d transactions failed", res.Failed)
	}
	return res, nil
}

func portOr(p, def string) string {
	if p == "" {
		return def
	}
	return p
}
