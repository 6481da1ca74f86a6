package stack

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// How long a started MinIO or stripe-mock may take to answer; MinIO
// formats its data dir on first start, which is slow on a busy machine.
const depReadyTimeout = 90 * time.Second

// Deps are the MinIO and stripe-mock the stack uses: reused ones that
// already answered, or ones it started and will stop.
type Deps struct {
	MinIOEndpoint  string // host:port
	MinIOAccessKey string
	MinIOSecretKey string
	StripeURL      string // http://host:port

	procs   []*proc
	timeout time.Duration
	out     *output
}

// StartDeps only makes sure MinIO and stripe-mock answer, starting them
// when opts.Deps allows; it is what "stack deps" runs around go test.
func StartDeps(ctx context.Context, opts Options) (*Deps, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	return startDeps(ctx, &o, newOutput(o.Output))
}

func startDeps(ctx context.Context, o *Options, out *output) (*Deps, error) {
	d := &Deps{
		MinIOEndpoint:  o.addr(o.MinIOPort),
		MinIOAccessKey: o.MinIOAccessKey,
		MinIOSecretKey: o.MinIOSecretKey,
		StripeURL:      o.url(o.StripePort),
		timeout:        o.StopTimeout,
		out:            out,
	}
	for _, dp := range []dep{minio(o), stripeMock(o)} {
		if err := d.ensure(ctx, o, dp); err != nil {
			// Includes one that started but never answered.
			d.Stop()
			return nil, err
		}
	}
	return d, nil
}

// Env is what tests read to find the dependencies.
func (d *Deps) Env() []string {
	return []string{
		"TEST_MINIO_ENDPOINT=" + d.MinIOEndpoint,
		"TEST_MINIO_ACCESS_KEY=" + d.MinIOAccessKey,
		"TEST_MINIO_SECRET_KEY=" + d.MinIOSecretKey,
		"TEST_STRIPE_URL=" + d.StripeURL,
	}
}

// PIDs are the processes Deps started (none when it reused both).
func (d *Deps) PIDs() []int {
	var pids []int
	for _, p := range d.procs {
		pids = append(pids, p.pid())
	}
	return pids
}

// Stop stops what Deps started; reused dependencies keep running.
func (d *Deps) Stop() {
	if killed := stopProcs(d.procs, d.timeout); len(killed) > 0 {
		d.out.printf("stack", "forçado a encerrar (SIGKILL): %s", strings.Join(killed, ", "))
	}
}

// dep is one dependency the stack can start.
type dep struct {
	spec
	addr  string
	ready func(ctx context.Context) bool
	setup func() error // run before starting it
}

func minio(o *Options) dep {
	dataDir := filepath.Join(o.DataDir, "minio")
	addr := o.addr(o.MinIOPort)
	return dep{
		spec: spec{
			name: "minio",
			bin:  filepath.Join(o.ToolsDir, "minio"),
			args: []string{"server", dataDir, "--address", addr, "--console-address", o.addr(o.MinIOConsolePort)},
			env:  []string{"MINIO_ROOT_USER=" + o.MinIOAccessKey, "MINIO_ROOT_PASSWORD=" + o.MinIOSecretKey},
			dir:  o.DataDir,
		},
		addr:  addr,
		ready: func(ctx context.Context) bool { return httpOK(ctx, "http://"+addr+"/minio/health/ready") },
		setup: func() error { return os.MkdirAll(dataDir, 0o750) },
	}
}

func stripeMock(o *Options) dep {
	addr := o.addr(o.StripePort)
	return dep{
		spec: spec{
			name: "stripe-mock",
			bin:  filepath.Join(o.ToolsDir, "stripe-mock"),
			// The -addr forms of -http-port/-https-port, bound to loopback.
			args: []string{"-http-addr", addr, "-https-addr", o.addr(o.StripeHTTPSPort)},
			dir:  o.DataDir,
		},
		addr:  addr,
		ready: func(ctx context.Context) bool { return tcpOpen(ctx, addr) },
		setup: func() error { return nil },
	}
}

// ensure reuses the dependency if it answers and the policy allows it,
// and otherwise starts it and waits until it answers.
func (d *Deps) ensure(ctx context.Context, o *Options, dp dep) error {
	if o.Deps != StartOwn && dp.ready(ctx) {
		d.out.printf("stack", "%s já responde em %s: reutilizando", dp.name, dp.addr)
		return nil
	}
	if o.Deps == ReuseOnly {
		return fmt.Errorf("%s não responde em %s", dp.name, dp.addr)
	}
	if tcpOpen(ctx, dp.addr) {
		if o.Deps != StartOwn && becomesReady(ctx, dp) {
			d.out.printf("stack", "%s já responde em %s: reutilizando", dp.name, dp.addr)
			return nil
		}
		return fmt.Errorf("a porta de %s (%s) está ocupada por outro processo que não responde como %s", dp.name, dp.addr, dp.name)
	}
	if _, err := os.Stat(dp.bin); err != nil {
		return fmt.Errorf("%s não encontrado em %s (o Makefile o instala em bin/ com go install): %w", dp.name, dp.bin, err)
	}
	if err := os.MkdirAll(o.DataDir, 0o750); err != nil {
		return err
	}
	if err := dp.setup(); err != nil {
		return err
	}
	d.out.printf("stack", "iniciando %s em %s", dp.name, dp.addr)
	p, err := startProc(d.out, dp.spec)
	if err != nil {
		return err
	}
	d.procs = append(d.procs, p)
	return waitReady(ctx, p, dp.addr, depReadyTimeout, dp.ready)
}

// becomesReady gives one that is still starting (another make run, say)
// a few seconds to answer before calling its port taken.
func becomesReady(ctx context.Context, dp dep) bool {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	for !dp.ready(ctx) {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(500 * time.Millisecond):
		}
	}
	return true
}

// waitReady polls ready until it holds, p exits, or time runs out.
func waitReady(ctx context.Context, p *proc, addr string, timeout time.Duration, ready func(context.Context) bool) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for !ready(ctx) {
		select {
		case <-p.done:
			return fmt.Errorf("%s encerrou antes de responder (%s)", p.name, exitError(p.err))
		case <-ctx.Done():
			return fmt.Errorf("%s não respondeu em %s dentro de %s: %w", p.name, addr, timeout, ctx.Err())
		case <-tick.C:
		}
	}
	return nil
}

// httpOK reports whether GET url answers 200 within a second.
func httpOK(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func tcpOpen(ctx context.Context, addr string) bool {
	var d net.Dialer
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// checkPostgres and checkRedis only look: the Makefile starts both before
// calling the stack, so one that is down is a setup problem to report.
func checkPostgres(ctx context.Context, adminURL string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, adminURL)
	if err == nil {
		err = conn.Ping(ctx)
		conn.Close(context.WithoutCancel(ctx))
	}
	if err != nil {
		return fmt.Errorf("PostgreSQL não responde (%s): %w — o Makefile (make run) deveria tê-lo iniciado", redact(adminURL), err)
	}
	return nil
}

func checkRedis(ctx context.Context, addr string) error {
	if err := PingRedis(ctx, addr); err != nil {
		return fmt.Errorf("Redis não responde em %s: %w — o Makefile (make run) deveria tê-lo iniciado", addr, err)
	}
	return nil
}

// PingRedis speaks just enough RESP for PING, to avoid a Redis client
// dependency for one command.
func PingRedis(ctx context.Context, addr string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	reply, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if reply = strings.TrimSpace(reply); reply != "+PONG" {
		return errors.New("resposta inesperada: " + strconv.Quote(reply))
	}
	return nil
}

// redact hides a password in a URL for messages.
func redact(raw string) string {
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		return "URL inválida"
	}
	return fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
}
