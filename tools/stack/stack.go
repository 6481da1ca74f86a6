// Package stack runs ponto's local development stack, the one "make run"
// starts: MinIO and stripe-mock (reused or started), one PostgreSQL
// database per service, the five services built from source, and the
// gateway in front of them. Tests use it to start the same stack on free
// ports.
package stack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ponto/ponto/pkg/mailtest"
	"github.com/ponto/ponto/pkg/signature/devca"
	"github.com/ponto/ponto/tools/gateway"
	"github.com/ponto/ponto/tools/routes"
)

// migrateTimeout bounds the migrations of a start.
const migrateTimeout = 3 * time.Minute

// bodyLimits are the services' request body limits (HTTP_BODY_LIMIT), which
// the gateway enforces in front of them as the Ingress does: the shared
// default of 1 MiB, media's photo upload, 5 MiB of photo plus 64 KiB
// of multipart framing (foto.MaxBodyBytes), and timekeeping's leave
// document, 3 MiB plus the framing (afastamento.MaxBodyBytes).
var bodyLimits = map[string]int64{
	"auth": 1 << 20, "company-billing": 1 << 20, "employee": 1 << 20, "timekeeping": 3<<20 + 64<<10,
	"media": 5<<20 + 64<<10,
}

// Stack is a running stack; Start builds it and Stop ends it.
type Stack struct {
	opts Options
	out  *output
	deps *Deps
	gw   *http.Server
	// mail is the SMTP sink of timekeeping's reminders.
	mail *mailtest.Server

	mu       sync.Mutex // guards services, which StopService and StartService replace
	services []*proc    // in the order of the services list
	gwURL    string

	failed   chan struct{} // closed on the first unexpected exit
	failOnce sync.Once
	failErr  error
	stopping atomic.Bool
	stopOnce sync.Once
}

// Start runs every step of the stack in order and returns once all
// children and the gateway are started; WaitReady tells when they are
// ready. If a step fails, what was started is stopped again.
//
// The steps: PostgreSQL and Redis answer; MinIO and stripe-mock answer
// (reused or started); the databases exist; the services are built; auth
// has a signing key; the migrations ran; the services and the gateway
// are started.
func Start(ctx context.Context, opts Options) (*Stack, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	s := &Stack{opts: o, out: newOutput(o.Output), failed: make(chan struct{})}
	if err := s.start(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Stack) start(ctx context.Context) error {
	o := &s.opts
	if err := s.mkdirs(); err != nil {
		return err
	}
	if err := checkPostgres(ctx, o.PostgresURL); err != nil {
		return err
	}
	if err := checkRedis(ctx, o.RedisAddr); err != nil {
		return err
	}
	deps, err := startDeps(ctx, o, s.out)
	if err != nil {
		return err
	}
	s.deps = deps
	for _, p := range deps.procs {
		s.watch(p)
	}
	if err := ensureDatabases(ctx, o); err != nil {
		return err
	}
	if !o.SkipBuild {
		if err := build(ctx, o, s.out); err != nil {
			return err
		}
	}
	if err := ensureAuthKey(ctx, o, s.out); err != nil {
		return err
	}
	if err := s.migrate(ctx); err != nil {
		return err
	}
	if s.mail, err = startMailSink(s.out); err != nil {
		return err
	}
	o.mailAddr = s.mail.Addr
	if err := s.startServices(); err != nil {
		return err
	}
	return s.startGateway()
}

func (s *Stack) migrate(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, migrateTimeout)
	defer cancel()
	return migrate(ctx, &s.opts, s.out)
}

func (s *Stack) startServices() error {
	for _, svc := range services {
		p, err := startProc(s.out, serviceSpec(&s.opts, svc))
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.services = append(s.services, p)
		s.mu.Unlock()
		s.watch(p)
	}
	return nil
}

// StopService stops one running service as Stop would (SIGTERM, then
// SIGKILL after StopTimeout) and does not count its exit as a failure:
// tests use it to take a service down while the rest keeps running.
func (s *Stack) StopService(name string) error {
	p, err := s.running(name)
	if err != nil {
		return err
	}
	p.stopped.Store(true)
	if killed := stopProcs([]*proc{p}, s.opts.StopTimeout); len(killed) > 0 {
		s.out.printf("stack", "forçado a encerrar (SIGKILL): %s", name)
	}
	s.out.printf("stack", "%s parado", name)
	return nil
}

// StartService starts again, with the same configuration and ports, a
// service StopService stopped. It returns once the process is started;
// WaitReady tells when it is ready.
func (s *Stack) StartService(name string) error {
	i := slices.IndexFunc(services, func(svc service) bool { return svc.name == name })
	if i < 0 {
		return fmt.Errorf("serviço desconhecido: %s", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping.Load() {
		return errors.New("a stack está parando")
	}
	if i >= len(s.services) || !s.services[i].exited() {
		return fmt.Errorf("%s não está parado", name)
	}
	p, err := startProc(s.out, serviceSpec(&s.opts, services[i]))
	if err != nil {
		return err
	}
	s.services[i] = p
	s.watch(p)
	s.out.printf("stack", "%s iniciado de novo", name)
	return nil
}

// running is the process of a service that is up.
func (s *Stack) running(name string) (*proc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.services {
		if p.name == name && !p.exited() {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%s não está em execução", name)
}

// mkdirs makes the data dir, where children run, auth's key dir and the
// development signing certificate (made once, kept afterwards).
func (s *Stack) mkdirs() error {
	// The keys are private: only this user may read the folder.
	err := errors.Join(os.MkdirAll(s.opts.DataDir, 0o750), os.MkdirAll(s.opts.authKeysDir(), 0o700))
	if err != nil {
		return err
	}
	_, err = devca.EnsureFiles(s.opts.signingDir())
	return err
}

func (s *Stack) startGateway() error {
	o := &s.opts
	table, err := routes.Load(o.RoutesFile)
	if err != nil {
		return err
	}
	ups := map[string]gateway.Upstream{}
	for _, svc := range services {
		p := o.Ports[svc.name]
		ups[svc.name] = gateway.Upstream{Public: o.url(p.Public), Internal: o.url(p.Internal)}
	}
	gwOut := s.out.writer("gateway")
	gw, err := gateway.New(gateway.Options{
		Table: table, Upstreams: ups, OpenAPIFile: o.OpenAPIFile, BodyLimits: bodyLimits,
		Log: slog.New(slog.NewTextHandler(gwOut, nil)),
	})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", o.GatewayAddr)
	if err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	s.gwURL = "http://" + l.Addr().String()
	// No write timeout: photo uploads and CSV reports may take a while.
	s.gw = &http.Server{Handler: gw, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(gwOut, "", 0)}
	go func() {
		if err := s.gw.Serve(l); !errors.Is(err, http.ErrServerClosed) {
			s.fail(fmt.Errorf("gateway parou: %w", err))
		}
	}()
	s.out.printf("stack", "gateway em %s", s.gwURL)
	return nil
}

// watch turns an exit that nobody asked for into a failure of the stack,
// or, with RestartCrashed, into a restart after a pause.
func (s *Stack) watch(p *proc) { s.watchFrom(p, s.opts.RestartBackoff) }

// maxRestartBackoff bounds the pause between restarts; a service that
// ran this long before crashing starts again after the first pause.
const maxRestartBackoff = time.Minute

func (s *Stack) watchFrom(p *proc, backoff time.Duration) {
	started := time.Now()
	go func() {
		<-p.done
		if s.stopping.Load() || p.stopped.Load() {
			return
		}
		if !s.opts.RestartCrashed {
			s.fail(fmt.Errorf("%s encerrou inesperadamente (%s)", p.name, exitError(p.err)))
			return
		}
		if time.Since(started) > maxRestartBackoff {
			backoff = s.opts.RestartBackoff
		}
		s.out.printf("stack", "%s encerrou inesperadamente (%s); reiniciando em %s", p.name, exitError(p.err), backoff)
		time.Sleep(backoff)
		s.restart(p.name, min(2*backoff, maxRestartBackoff))
	}()
}

// restart starts a crashed service again, unless the stack is stopping or
// someone started it meanwhile.
func (s *Stack) restart(name string, nextBackoff time.Duration) {
	i := slices.IndexFunc(services, func(svc service) bool { return svc.name == name })
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping.Load() || i < 0 || i >= len(s.services) || !s.services[i].exited() || s.services[i].stopped.Load() {
		return
	}
	p, err := startProc(s.out, serviceSpec(&s.opts, services[i]))
	if err != nil {
		s.out.printf("stack", "%s não reiniciou: %v", name, err)
		return
	}
	s.services[i] = p
	s.watchFrom(p, nextBackoff)
	s.out.printf("stack", "%s reiniciado", name)
}

func (s *Stack) fail(err error) {
	s.failOnce.Do(func() {
		s.failErr = err
		s.out.printf("stack", "ERRO: %v", err)
		close(s.failed)
	})
}

// Failed is closed when a child exits unexpectedly (or the gateway
// stops); Err then says which.
func (s *Stack) Failed() <-chan struct{} { return s.failed }

// Err is the failure that closed Failed, or nil.
func (s *Stack) Err() error {
	select {
	case <-s.failed:
		return s.failErr
	default:
		return nil
	}
}

// GatewayURL is the gateway's base URL, e.g. http://127.0.0.1:8080.
func (s *Stack) GatewayURL() string { return s.gwURL }

// Options are the resolved options: every default filled, every port
// chosen.
func (s *Stack) Options() Options { return s.opts }

// DatabaseNames are the databases the stack uses, by service.
func (s *Stack) DatabaseNames() map[string]string {
	names := map[string]string{}
	for _, svc := range services {
		if svc.db {
			names[svc.name] = s.opts.databaseName(svc.name)
		}
	}
	return names
}

// PIDs are the processes the stack started and still owns: services,
// then MinIO and stripe-mock if it started them.
func (s *Stack) PIDs() []int {
	var pids []int
	s.mu.Lock()
	for _, p := range s.services {
		pids = append(pids, p.pid())
	}
	s.mu.Unlock()
	if s.deps != nil {
		pids = append(pids, s.deps.PIDs()...)
	}
	return pids
}

// Stop stops the gateway, then the services, then the dependencies it
// started: SIGTERM, up to StopTimeout, then SIGKILL. Safe to call twice.
func (s *Stack) Stop() {
	s.stopOnce.Do(func() {
		s.stopping.Store(true)
		if s.gw != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = s.gw.Shutdown(ctx)
			cancel()
		}
		s.mu.Lock()
		procs := slices.Clone(s.services)
		s.mu.Unlock()
		if killed := stopProcs(procs, s.opts.StopTimeout); len(killed) > 0 {
			s.out.printf("stack", "forçado a encerrar (SIGKILL): %s", strings.Join(killed, ", "))
		}
		if s.deps != nil {
			s.deps.Stop()
		}
		if s.mail != nil {
			_ = s.mail.Close()
		}
		s.out.printf("stack", "parado")
	})
}

// WaitReady polls the gateway's /healthz until it answers 200. It gives
// up when ctx ends or the stack fails, and says what was still not ready.
func (s *Stack) WaitReady(ctx context.Context) error {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		status, body := s.health(ctx)
		if status == http.StatusOK {
			return nil
		}
		last = body
		select {
		case <-ctx.Done():
			return fmt.Errorf("stack não ficou pronta: %w; último /healthz: %s", ctx.Err(), last)
		case <-s.failed:
			return s.failErr
		case <-tick.C:
		}
	}
}

func (s *Stack) health(ctx context.Context) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.gwURL+"/healthz", nil)
	if err != nil {
		return 0, err.Error()
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
	return resp.StatusCode, strings.TrimSpace(string(body))
}

// Run is make run: it starts the stack, says when it is ready, and runs
// until ctx ends (Ctrl-C) or a child fails, then stops everything. It
// returns the failure, if any.
func Run(ctx context.Context, opts Options) error {
	s, err := Start(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil // interrupted while starting: what was started is stopped
		}
		return err
	}
	go s.announceReady(ctx)
	select {
	case <-ctx.Done():
		s.out.printf("stack", "encerrando...")
	case <-s.failed:
		s.out.printf("stack", "encerrando tudo por causa da falha")
	}
	s.Stop()
	return s.Err()
}

func (s *Stack) announceReady(ctx context.Context) {
	if err := s.WaitReady(ctx); err != nil {
		return // Run reports the failure or the stop itself
	}
	s.out.printf("stack", "%s", s.summary())
}

// summary tells the developer where everything listens.
func (s *Stack) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pronto: %s/healthz respondeu 200 — Ctrl-C para parar\n", s.gwURL)
	fmt.Fprintf(&b, "  %-16s %s\n", "gateway", s.gwURL)
	for _, svc := range services {
		p := s.opts.Ports[svc.name]
		fmt.Fprintf(&b, "  %-16s %s (interno %s)\n", svc.name, s.opts.url(p.Public), s.opts.url(p.Internal))
	}
	fmt.Fprintf(&b, "  %-16s %s (console http://%s)\n", "minio", s.deps.MinIOEndpoint, s.opts.addr(s.opts.MinIOConsolePort))
	fmt.Fprintf(&b, "  %-16s %s", "stripe-mock", s.deps.StripeURL)
	return b.String()
}
