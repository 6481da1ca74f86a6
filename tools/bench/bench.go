// Package bench is make bench: it starts the local stack, seeds realistic
// data, measures the floors of the machine (pgbench with the clock-in's
// INSERT, the report's own SQL) and then every workload against each
// service's own port and through the gateway, in one run, and prints and
// saves every figure as a ratio to its floor. docs/performance.md explains
// the figures and what was changed because of them.
package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/tools/bench/floor"
	"github.com/ponto/ponto/tools/bench/load"
	"github.com/ponto/ponto/tools/bench/mailbox"
	"github.com/ponto/ponto/tools/bench/seed"
	"github.com/ponto/ponto/tools/stack"
)

// logLevel is the services' LOG_LEVEL, as deployed: the access log is
// part of what a request costs.
const logLevel = "info"

// Local JWT settings of the stack (tools/stack signs and verifies with
// these).
const (
	jwtIssuer   = "ponto-auth"
	jwtAudience = "ponto-api"
	// zoneName is COMPANY_TIME_ZONE's default, which the stack keeps.
	zoneName = "America/Sao_Paulo"
)

// Options configure a run.
type Options struct {
	// Short is make bench-short: a small seed and about two seconds per
	// workload, to prove the harness works; its figures mean nothing.
	Short bool
	// Warmup and Duration of each workload (defaults 3s and 15s; short:
	// 0.3s and 1.5s).
	Warmup, Duration time.Duration
	// Soak is the length of the soak, the mixed traffic run after the
	// workloads while every service's memory and goroutines are followed
	// (default 10m; short: 3s; negative: no soak).
	Soak time.Duration
	// Only runs the workloads whose name contains one of these.
	Only []string
	// Pprof turns on HTTP_PPROF in every service and saves a CPU profile
	// of each service-port workload's service next to the results.
	Pprof bool
	// Keep leaves the databases in place after the run.
	Keep bool
	// Scale multiplies the seeded punches (make bench BENCH_SCALE=n) with
	// background companies no workload touches; 0 or 1: the usual seed.
	// A run at scale n > 1 is judged against Baseline.
	Scale int
	// Baseline is the JSON of a scale-1 run to compare a scaled run with
	// (default: the latest full scale-1 run saved in OutDir).
	Baseline string
	// RepoRoot holds go.work (default: found from the working directory).
	RepoRoot string
	// OutDir receives <timestamp>.json and the run's files (default
	// <root>/.data/bench).
	OutDir string
	// Out receives progress and the table (default os.Stdout).
	Out io.Writer
}

func (o *Options) defaults() error {
	if o.RepoRoot == "" {
		root, err := stack.FindRepoRoot()
		if err != nil {
			return err
		}
		o.RepoRoot = root
	}
	if o.OutDir == "" {
		o.OutDir = filepath.Join(o.RepoRoot, ".data", "bench")
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	warmup, duration, soak := 3*time.Second, 15*time.Second, 10*time.Minute
	if o.Short {
		warmup, duration, soak = 300*time.Millisecond, 1500*time.Millisecond, 3*time.Second
	}
	if o.Soak == 0 {
		o.Soak = soak
	}
	if o.Warmup == 0 {
		o.Warmup = warmup
	}
	if o.Duration == 0 {
		o.Duration = duration
	}
	return nil
}

// Run runs the whole benchmark and returns its report, which it has
// already printed and saved. The error is about the harness (the stack
// did not start, the seed failed); failed requests are in the report.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	r := &runner{opts: opts, id: runID()}
	defer r.close()
	if err := r.start(ctx); err != nil {
		return nil, err
	}
	rep, err := r.measure(ctx)
	if err != nil {
		return nil, err
	}
	r.print(rep)
	path, err := rep.save(opts.OutDir, opts.Short)
	if err != nil {
		return rep, err
	}
	r.logf("resultado salvo em %s", path)
	// make test runs the short variant every time: its log is kept only
	// when something failed or profiles were asked for.
	r.removeRunDir = opts.Short && !rep.Failed() && !opts.Pprof
	return rep, nil
}

// runner is one run's state.
type runner struct {
	opts    Options
	id      string
	started time.Time
	runDir  string
	log     *stackLog
	mail    *mailbox.Mailbox
	stack   *stack.Stack
	pools   map[string]*pgxpool.Pool // by service
	minter  *minter
	data    *seed.Dataset
	zone    *time.Location
	// redisPID is the Redis server's process, whose CPU counts as
	// "redis" (0: not counted).
	redisPID int
	cleanup  []func()
	// removeRunDir drops the run's directory once everything is closed.
	removeRunDir bool
}

func runID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.opts.Out, "bench: "+format+"\n", args...)
}

// start brings up the mailbox and the stack, seeds the data and prepares
// the tokens.
func (r *runner) start(ctx context.Context) error {
	r.started = time.Now()
	zone, err := time.LoadLocation(zoneName)
	if err != nil {
		return err
	}
	r.zone = zone
	r.runDir = filepath.Join(r.opts.OutDir, r.started.Format("20060102-150405")+"-"+r.id)
	if err := os.MkdirAll(r.runDir, 0o750); err != nil {
		return err
	}
	logFile, err := os.Create(filepath.Join(r.runDir, "stack.log"))
	if err != nil {
		return err
	}
	r.log = newStackLog(logFile)
	r.cleanup = append(r.cleanup, func() { _ = logFile.Close() })

	if r.mail, err = mailbox.Start(); err != nil {
		return err
	}
	r.cleanup = append(r.cleanup, func() { _ = r.mail.Close() })
	if err := r.startStack(ctx); err != nil {
		return fmt.Errorf("%w\núltimas linhas da stack:\n%s", err, r.log.tail())
	}
	if err := r.openPools(ctx); err != nil {
		return err
	}
	r.redisPID = redisPID(ctx, r.stack.Options().RedisAddr)
	if err := r.seed(ctx); err != nil {
		return fmt.Errorf("%w\núltimas linhas da stack:\n%s", err, r.log.tail())
	}
	o := r.stack.Options()
	r.minter, err = newMinter(ctx, filepath.Join(o.DataDir, "auth-keys"),
		fmt.Sprintf("http://127.0.0.1:%d/.well-known/jwks.json", o.Ports["auth"].Public), jwtIssuer, jwtAudience, 6*time.Hour)
	if err != nil {
		return err
	}
	return r.warmVerifiers(ctx)
}

// warmVerifiers waits until every service that verifies tokens accepts
// one. A service that started before auth published its key holds an
// empty key set until a background fetch or an unknown kid brings it
// (pkg/jwtauth); until then it answers 401. That is start-up, not load,
// so it is waited out here rather than counted as errors.
func (r *runner) warmVerifiers(ctx context.Context) error {
	e := r.data.Spread[0].Employees[0]
	tok, err := r.minter.funcionario(e.EmpresaID, e.ID)
	if err != nil {
		return err
	}
	o := r.stack.Options()
	paths := map[string]string{
		"timekeeping": "/registropontos/me",
		"employee":    fmt.Sprintf("/funcionarios/%d", e.ID),
		"media":       fmt.Sprintf("/funcionarios/%d/foto", e.ID),
	}
	deadline := time.Now().Add(90 * time.Second)
	for svc, path := range paths {
		u := fmt.Sprintf("http://127.0.0.1:%d%s", o.Ports[svc].Public, path)
		for {
			status, err := getStatus(ctx, u, tok)
			if err == nil && status != http.StatusUnauthorized && status < 500 {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s ainda recusa tokens válidos (%d, %v)", svc, status, err)
			}
			if !sleepCtx(ctx, time.Second) {
				return ctx.Err()
			}
		}
	}
	return nil
}

func getStatus(ctx context.Context, url, token string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func (r *runner) startStack(ctx context.Context) error {
	o := stack.Options{
		RepoRoot: r.opts.RepoRoot,
		// Own binaries (reused between runs) and data (auth's key, MinIO's
		// objects: removed at the end), so that a make run in progress
		// keeps its own.
		BinDir:      filepath.Join(r.opts.OutDir, "bin"),
		DataDir:     filepath.Join(r.runDir, "data"),
		DBPrefix:    "ponto_bench_",
		DBSuffix:    "_" + r.id,
		MinIOBucket: "ponto-bench",
		LogLevel:    logLevel,
		Output:      r.log,
		ServiceEnv:  r.serviceEnv(),
	}
	reuseTestDeps(&o)
	r.logf("subindo a stack (compila os serviços em %s)", o.BinDir)
	s, err := stack.Start(ctx, o)
	if err != nil {
		return err
	}
	r.stack = s
	r.cleanup = append(r.cleanup, s.Stop)
	wctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	return s.WaitReady(wctx)
}

// serviceEnv raises auth's login limits (the login workload logs in
// hundreds of employees a second from one address) and every service's
// rate limits, points its e-mail at the mailbox, and turns timekeeping's
// periodic chain audit off. Every service's Redis keys, auth's included,
// are under the stack's prefix for the run (stack.Options.RedisKeyPrefix).
func (r *runner) serviceEnv() map[string][]string {
	env := map[string][]string{
		"auth": {
			"AUTH_SMTP_ADDR=" + r.mail.Addr(), "AUTH_SMTP_TLS=none",
			"AUTH_CODE_SECRET=bench-only-code-secret-" + r.id + "-0123456789abcdef",
			"AUTH_RATE_PER_IP=100000000", "AUTH_RATE_PER_EMAIL=100000000", "AUTH_RATE_CODES_PER_HOUR=100000000",
		},
		// The periodic chain audit is off: its pass over every record
		// (2.6 µs each: 26 s of CPU at BENCH_SCALE=10) would land in
		// whichever workload's measured window it fell and be counted as
		// that workload's CPU. The bench runs the same audit once itself,
		// after the workloads, and reports its cost per record.
		"timekeeping": {"CHAIN_AUDIT_INTERVAL=0"},
	}
	for _, s := range []string{"auth", "company-billing", "employee", "timekeeping", "media"} {
		// The rate limits stay on (their Redis calls are part of the cost
		// measured) but never refuse: every workload comes from one
		// address, and a few tokens do thousands of requests.
		env[s] = append(env[s], "RATE_PER_IP=100000000/min", "RATE_PER_TOKEN=100000000/min", "RATE_REGISTRATION=100000000/min")
		if r.opts.Pprof {
			env[s] = append(env[s], "HTTP_PPROF=true")
		}
	}
	return env
}

// reuseTestDeps uses the MinIO and stripe-mock of "stack deps" when the
// run is under it (TEST_* set); otherwise the stack starts its own on free
// ports, with their data in the run's directory: one that someone else
// started could stop in the middle of the run (this machine is shared).
func reuseTestDeps(o *stack.Options) {
	o.Deps = stack.StartOwn
	minio, stripe := os.Getenv("TEST_MINIO_ENDPOINT"), os.Getenv("TEST_STRIPE_URL")
	if minio == "" || stripe == "" {
		return
	}
	o.Deps = stack.ReuseOnly
	o.MinIOPort = portOf(minio)
	o.StripePort = portOf(strings.TrimPrefix(stripe, "http://"))
	o.MinIOAccessKey = os.Getenv("TEST_MINIO_ACCESS_KEY")
	o.MinIOSecretKey = os.Getenv("TEST_MINIO_SECRET_KEY")
}

func (r *runner) openPools(ctx context.Context) error {
	r.pools = map[string]*pgxpool.Pool{}
	o := r.stack.Options()
	for svc, name := range r.stack.DatabaseNames() {
		// A plain pool, without the services' tracer: the report floor
		// must be the SQL alone.
		db, err := pgxpool.New(ctx, dbURL(o.PostgresURL, name)+"&pool_max_conns=8")
		if err != nil {
			return err
		}
		r.pools[svc] = db
		r.cleanup = append(r.cleanup, db.Close)
	}
	return nil
}

func (r *runner) seed(ctx context.Context) error {
	size := seed.Full()
	if r.opts.Short {
		size = seed.Short()
	}
	size = size.Scaled(r.opts.Scale)
	data, err := seed.Seed(ctx, seed.Config{
		GatewayURL: r.stack.GatewayURL(), EmployeeDB: r.pools["employee"], TimekeepingDB: r.pools["timekeeping"],
		Zone: r.zone, Now: time.Now(), Size: size, Salt: int(r.started.Unix() % 9973), Log: r.logf,
	})
	if err != nil {
		return err
	}
	r.data = data
	r.logf("semeado: %s", data)
	return nil
}

// close stops everything started, drops the databases (unless Keep) and
// removes the run's Redis keys and photos.
func (r *runner) close() {
	if r.stack != nil && !r.opts.Keep {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := r.dropRunData(ctx); err != nil {
			r.logf("limpeza incompleta: %v", err)
		}
	}
	for i := len(r.cleanup) - 1; i >= 0; i-- {
		r.cleanup[i]()
	}
	if r.removeRunDir {
		_ = os.RemoveAll(r.runDir)
	} else if !r.opts.Keep {
		_ = os.RemoveAll(filepath.Join(r.runDir, "data"))
	}
}

// dropRunData empties the photo bucket while MinIO still answers (the
// stack may have started it), then stops the stack and drops the
// databases and the Redis keys.
func (r *runner) dropRunData(ctx context.Context) error {
	o := r.stack.Options()
	errs := []error{emptyBucket(ctx, o)}
	r.stack.Stop()
	for _, db := range r.pools {
		db.Close()
	}
	for _, name := range r.stack.DatabaseNames() {
		errs = append(errs, dropDatabase(ctx, o.PostgresURL, name))
	}
	errs = append(errs, deleteRedisKeys(ctx, o.RedisAddr, o.RedisKeyPrefix))
	return errors.Join(errs...)
}

// measure runs the floors and the workloads, then checks the chains.
func (r *runner) measure(ctx context.Context) (*Report, error) {
	rep, err := newReport(ctx, r)
	if err != nil {
		return nil, err
	}
	if rep.Storage, err = measureStorage(ctx, r.pools["timekeeping"]); err != nil {
		return nil, fmt.Errorf("tamanho de registros_ponto: %w", err)
	}
	for _, w := range r.workloads(rep) {
		if !r.selected(w.name) {
			continue
		}
		if err := r.runWorkload(ctx, rep, w); err != nil {
			return nil, err
		}
	}
	if r.opts.Soak > 0 && r.selected("soak") {
		if err := r.soak(ctx, rep); err != nil {
			return nil, err
		}
	}
	r.logf("verificando NSR e hash de todas as cadeias")
	chains, err := seed.VerifyChains(ctx, r.pools["timekeeping"])
	rep.Chains = ChainCheck{ChainReport: chains, OK: err == nil}
	if err != nil {
		rep.Chains.Error = err.Error()
	}
	r.logf("auditoria das cadeias pelo serviço (chainaudit), do início")
	if rep.Chains.Audit, err = auditChains(ctx, r.pools["timekeeping"]); err != nil {
		rep.Chains.OK, rep.Chains.Error = false, err.Error()
	}
	rep.finish(r)
	if rep.Settings.Scale > 1 {
		base, name, err := loadBaseline(r.opts.Baseline, r.opts.OutDir)
		if err != nil {
			return nil, err
		}
		rep.compareScale(base, name)
	}
	return rep, nil
}

func (r *runner) selected(name string) bool {
	if len(r.opts.Only) == 0 {
		return true
	}
	for _, o := range r.opts.Only {
		if strings.Contains(name, o) {
			return true
		}
	}
	return false
}

// floorDuration is pgbench's -T: the workloads' duration, at least 2 s.
func (r *runner) floorDuration() time.Duration { return max(r.opts.Duration, 2*time.Second) }

// pgbenchFloor migrates a scratch database with timekeeping's own
// migrations and runs pgbench on it, just before workload (so that the
// ratio compares figures taken a minute apart on this shared machine),
// counting PostgreSQL's and pgbench's CPU per transaction. Then pgbench
// again at the workload's clockInConns clients, logging every
// transaction: the latency PostgreSQL alone gives the clock-in's INSERT
// at the workload's concurrency, the floor under its p99.
func (r *runner) pgbenchFloor(ctx context.Context, rep *Report, workload string) error {
	r.logf("piso: pgbench com o INSERT do registro de ponto (%s), antes de %s", r.floorDuration(), workload)
	o := r.stack.Options()
	name := "ponto_bench_floor_" + r.id
	if err := database.EnsureDatabase(ctx, o.PostgresURL, name); err != nil {
		return err
	}
	defer func() {
		dctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = dropDatabase(dctx, o.PostgresURL, name)
	}()
	url := dbURL(o.PostgresURL, name)
	if err := migrateTimekeeping(ctx, o.BinDir, url, r.runDir); err != nil {
		return err
	}
	if err := execSQL(ctx, url, floor.PrepareInsertFloor); err != nil {
		return err
	}
	cfg := floor.PGBenchConfig{DatabaseURL: url, Duration: r.floorDuration(),
		Companies: r.data.Size.Companies, Employees: r.data.Size.Companies * r.data.Size.PerCompany, WorkDir: r.runDir}
	stop := r.watchBackends(ctx, name)
	res, err := floor.PGBench(ctx, cfg)
	pgCPU := stop()
	if err != nil {
		return err
	}
	f := PGBenchFloor{Workload: workload, PGBenchResult: res}
	if res.Transactions > 0 {
		n := float64(res.Transactions)
		f.CPU = CPUPerOp{"postgres": float64(pgCPU.Microseconds()) / 1000 / n, "pgbench": res.ClientCPUSeconds * 1000 / n}
	}
	r.logf("piso: pgbench com %d conexões, a latência de cada transação, antes de %s", clockInConns, workload)
	cfg.Clients, cfg.LatencyLog = clockInConns, true
	at, err := floor.PGBench(ctx, cfg)
	if err != nil {
		return err
	}
	f.AtLoad = &at
	rep.Floors.PGBench = append(rep.Floors.PGBench, f)
	return nil
}

// watchBackends follows the CPU time of database db's backends until the
// returned function is called, and returns their total then. pgbench's
// backends end with it, so they are read every half second while they
// live.
func (r *runner) watchBackends(ctx context.Context, db string) func() time.Duration {
	last := map[int32]time.Duration{}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			rows, _ := r.pools["timekeeping"].Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = $1`, db)
			pids, _ := pgx.CollectRows(rows, pgx.RowTo[int32])
			for _, pid := range pids {
				if c := procCPU(int(pid)); c > 0 {
					last[pid] = c
				}
			}
		}
	})
	return func() time.Duration {
		close(done)
		wg.Wait()
		var total time.Duration
		for _, c := range last {
			total += c
		}
		return total
	}
}

// measurement is what one measured part did beside its operations.
type measurement struct {
	// from is when the measured part started.
	from time.Time
	// cpu is each process's CPU per operation.
	cpu CPUPerOp
	// batches is how the clock-ins' punches were batched (readBatchCounters
	// before and after it; nil when not asked for or a reading failed).
	batches *Batching
}

// load runs one measurement of op against addr, with what its measured
// part did beside the operations; batches asks for the clock-ins' batching.
// ops, when set, ends it after that many operations (load.Config.Ops).
// measured, when set, is called as the measured part starts.
func (r *runner) load(ctx context.Context, addr string, conns int, ops int64, op load.Op, batches bool,
	measured func()) (load.Result, measurement, error) {
	var m measurement
	var before cpuSample
	var counted batchCounters
	var countErr error
	res, err := load.Run(ctx, load.Config{Addr: addr, Conns: conns, Warmup: r.opts.Warmup, Duration: r.opts.Duration,
		Op: op, Ops: ops, Seed: uint64(r.started.UnixNano()), OnMeasure: func() {
			m.from = time.Now()
			before = r.sampleCPU(ctx)
			if batches {
				counted, countErr = r.readBatchCounters(ctx)
			}
			if measured != nil {
				measured()
			}
		}})
	if err != nil {
		return res, m, err
	}
	m.cpu = perOp(before, r.sampleCPU(ctx), res.Ops)
	if !batches || countErr != nil {
		return res, m, nil
	}
	if after, err := r.readBatchCounters(ctx); err == nil {
		m.batches = batching(counted, after, res.Ops)
	}
	return res, m, nil
}
