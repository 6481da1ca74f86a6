package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/tools/stack"
)

// The e2e stack runs on a PostgreSQL cluster and a Redis of its own, on
// free ports, so that the outage test can stop and restart them without
// disturbing the other packages' tests, which use the machine's. Both are
// children of the test process.

// pgCluster is a PostgreSQL cluster in a temporary directory, made with
// the machine's initdb, whose postgres runs as a child of the test: it
// dies with the test process even when that is killed (Pdeathsig), so a
// timed-out run leaves no server behind.
type pgCluster struct {
	binDir string
	dir    string // parent of data/, owned by the server's user
	port   int
	// cred runs the server binaries as user postgres when we are root:
	// initdb and postgres refuse to run as root.
	cred *syscall.Credential

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// postgresBinDir finds initdb and postgres: next to initdb on the PATH,
// else in the newest /usr/lib/postgresql/<version>/bin (Debian's layout,
// where apt puts them without linking them into the PATH).
func postgresBinDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			if _, err := os.Stat(filepath.Join(filepath.Dir(real), "postgres")); err == nil {
				return filepath.Dir(real), nil
			}
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return versionOf(a) - versionOf(b) })
	for _, d := range slices.Backward(dirs) {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("initdb/postgres not found (neither on the PATH nor in /usr/lib/postgresql/*/bin): install PostgreSQL (make services does)")
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// startPostgres makes and starts a cluster with trust authentication for
// user postgres on 127.0.0.1:port.
func startPostgres(ctx context.Context, port int) (*pgCluster, error) {
	binDir, err := postgresBinDir()
	if err != nil {
		return nil, err
	}
	c := &pgCluster{binDir: binDir, port: port}
	if c.dir, err = os.MkdirTemp("", "ponto-e2e-pg-"); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		if err := c.runAsPostgres(); err != nil {
			return nil, errors.Join(err, os.RemoveAll(c.dir))
		}
	}
	initdb := c.command(ctx, "initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, errors.Join(fmt.Errorf("initdb: %w\n%s", err, out), os.RemoveAll(c.dir))
	}
	if err := c.Start(ctx); err != nil {
		return nil, errors.Join(err, os.RemoveAll(c.dir))
	}
	return c, nil
}

// runAsPostgres makes the binaries run as user postgres, owner of dir.
func (c *pgCluster) runAsPostgres() error {
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("user postgres (PostgreSQL does not run as root): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return os.Chown(c.dir, uid, gid)
}

func (c *pgCluster) data() string { return filepath.Join(c.dir, "data") }

// AdminURL is the stack's PostgresURL for this cluster.
func (c *pgCluster) AdminURL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

func (c *pgCluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, name), args...)
	// Not the test's directory: user postgres may not enter it.
	cmd.Dir = c.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: c.cred, Pdeathsig: syscall.SIGKILL}
	return cmd
}

// Start runs postgres and waits until it accepts connections. The socket
// directory is the cluster's own, so nothing else is touched.
func (c *pgCluster) Start(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	logFile, err := os.OpenFile(filepath.Join(c.dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close() // the child keeps its own descriptor
	cmd := c.command(context.WithoutCancel(ctx), "postgres", "-D", c.data(), "-p", strconv.Itoa(c.port), "-k", c.dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200")
	// SIGINT is PostgreSQL's fast shutdown: clients are disconnected,
	// committed work is kept.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGINT
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	c.cmd, c.done = cmd, done
	deadline := time.Now().Add(60 * time.Second)
	for {
		if err := pingPostgres(ctx, c.AdminURL()); err == nil {
			return nil
		}
		select {
		case <-done:
			return fmt.Errorf("postgres exited while starting:\n%s", c.Log())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not answer on port %d:\n%s", c.port, c.Log())
		}
	}
}

// Stop shuts the server down fast (SIGINT) and waits for it.
func (c *pgCluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return nil
	}
	_ = c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.done:
	case <-time.After(60 * time.Second):
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-c.done
		return fmt.Errorf("postgres did not stop in 60 s:\n%s", c.Log())
	}
	c.cmd = nil
	return nil
}

// Remove stops the server and deletes the cluster.
func (c *pgCluster) Remove() {
	_ = c.Stop()
	_ = os.RemoveAll(c.dir)
}

// Log is the end of the server's log, for failure messages.
func (c *pgCluster) Log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
	return tailLines(string(b), 30)
}

func pingPostgres(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return conn.Ping(ctx)
}

// redisServer is a redis-server child on a free port. Its data survives a
// restart (append-only file, synced on every write), as a production
// Redis with persistence would keep refresh tokens.
type redisServer struct {
	port int
	dir  string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	log  *logtest.Buffer
}

func startRedis(ctx context.Context, port int) (*redisServer, error) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		return nil, errors.New("redis-server not found on the PATH (make services installs it)")
	}
	dir, err := os.MkdirTemp("", "ponto-e2e-redis-")
	if err != nil {
		return nil, err
	}
	r := &redisServer{port: port, dir: dir, log: &logtest.Buffer{}}
	if err := r.Start(ctx); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	return r, nil
}

// Addr is host:port.
func (r *redisServer) Addr() string { return "127.0.0.1:" + strconv.Itoa(r.port) }

// Start runs redis-server and waits until it answers PING.
func (r *redisServer) Start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--dir", r.dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no")
	cmd.Stdout, cmd.Stderr = r.log, r.log
	// Dies with the test process, even a killed one.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("redis-server: %w", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	r.cmd, r.done = cmd, done
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := stack.PingRedis(ctx, r.Addr()); err == nil {
			return nil
		}
		select {
		case <-done:
			return fmt.Errorf("redis-server exited while starting:\n%s", tailLines(r.log.String(), 20))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server did not answer on %s:\n%s", r.Addr(), tailLines(r.log.String(), 20))
		}
	}
}

// Stop ends redis-server with SIGTERM (it writes its data and exits) and
// waits for it.
func (r *redisServer) Stop() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return nil
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(20 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.done
	}
	r.cmd = nil
	return nil
}

// Remove stops the server and deletes its data.
func (r *redisServer) Remove() {
	_ = r.Stop()
	_ = os.RemoveAll(r.dir)
}

// freePorts returns n distinct ports that could be bound just now, below
// Linux's ephemeral range so that no outgoing connection takes one before
// its server binds it.
func freePorts(n int) ([]int, error) {
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	var ports []int
	start := 20000 + int(time.Now().UnixNano()%10000)
	for p := start; len(ports) < n && p < 32000; p++ {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		held = append(held, l)
		ports = append(ports, p)
	}
	if len(ports) < n {
		return nil, errors.New("not enough free ports")
	}
	return ports, nil
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
