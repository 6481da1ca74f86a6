package e2e

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/tools/stack"
)

// Credentials the stack is configured with.
const (
	adminEmail    = "admin@ponto.test"
	adminPassword = "admin-e2e-Senha1"
	// webhookSecret signs the Stripe events the tests send.
	webhookSecret = "whsec_ponto_e2e_test_secret"
	codeSecret    = "ponto-e2e-login-code-secret-0123456789abcdef"
)

func TestMain(m *testing.M) {
	code := m.Run()
	shared.stop()
	os.Exit(code)
}

// env is the running stack the tests share: started once, by the first
// test that needs it, and stopped by TestMain.
type env struct {
	stack *stack.Stack
	pg    *pgCluster
	redis *redisServer
	mail  *mailbox
	out   *logtest.Buffer
	dirs  []string
	api   *client
}

// sharedState is the one env of the package.
type sharedState struct {
	once sync.Once
	env  *env
	err  error
}

var shared sharedState

// sharedEnv returns the stack, starting it the first time. A start that
// failed fails every test that needs it, with the reason.
func sharedEnv(t testing.TB) *env {
	t.Helper()
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
		defer cancel()
		shared.env, shared.err = startEnv(ctx, t)
	})
	if shared.err != nil {
		t.Fatalf("the e2e stack did not start: %v", shared.err)
	}
	if err := shared.env.stack.Err(); err != nil {
		t.Fatalf("the e2e stack failed: %v\n%s", err, shared.env.tail(60))
	}
	return shared.env
}

func (s *sharedState) stop() {
	if s.env != nil {
		s.env.stop()
	}
}

// startEnv starts PostgreSQL and Redis of the test's own, the SMTP
// server, and the stack (built from the repository's services) pointed
// at them; MinIO and stripe-mock are those of "stack deps" when the tests
// run under it (make test), else the stack starts its own.
func startEnv(ctx context.Context, t testing.TB) (_ *env, err error) {
	e := &env{out: &logtest.Buffer{}}
	defer func() {
		if err != nil {
			err = fmt.Errorf("%w\n--- stack output ---\n%s", err, e.tail(80))
			e.stop()
		}
	}()
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	if e.pg, err = startPostgres(ctx, ports[0]); err != nil {
		return nil, err
	}
	if e.redis, err = startRedis(ctx, ports[1]); err != nil {
		return nil, err
	}
	if e.mail, err = startMailbox(); err != nil {
		return nil, err
	}
	opts, err := e.stackOptions()
	if err != nil {
		return nil, err
	}
	if e.stack, err = stack.Start(ctx, opts); err != nil {
		return nil, err
	}
	// go build of five services on a busy machine, then every readiness.
	if err := e.stack.WaitReady(ctx); err != nil {
		return nil, err
	}
	e.api, err = newClient(t, e.stack.GatewayURL())
	return e, err
}

func (e *env) stackOptions() (stack.Options, error) {
	root := repoRoot()
	binDir, err := e.tempDir("ponto-e2e-bin-")
	if err != nil {
		return stack.Options{}, err
	}
	dataDir, err := e.tempDir("ponto-e2e-data-")
	if err != nil {
		return stack.Options{}, err
	}
	adminHash, err := password.Hash(adminPassword)
	if err != nil {
		return stack.Options{}, err
	}
	opts := stack.Options{
		RepoRoot:    root,
		BinDir:      binDir,
		DataDir:     dataDir,
		PostgresURL: e.pg.AdminURL(),
		RedisAddr:   e.redis.Addr(),
		DBPrefix:    "ponto_e2e_",
		DBSuffix:    "_" + randomHex(4),
		Deps:        stack.StartOwn,
		Output:      e.out,
		StopTimeout: 10 * time.Second,
		ServiceEnv: map[string][]string{
			"auth": {
				"AUTH_SMTP_ADDR=" + e.mail.addr, "AUTH_SMTP_TLS=none", "AUTH_CODE_SECRET=" + codeSecret,
				"AUTH_ADMINS=" + adminEmail + ":" + adminHash,
				// Every caller of the tests comes from 127.0.0.1, and the
				// authorization matrix logs in and asks for codes more often
				// than a person would.
				"AUTH_RATE_PER_IP=100000", "AUTH_RATE_PER_EMAIL=1000", "AUTH_RATE_CODES_PER_HOUR=1000",
			},
			"company-billing": {"STRIPE_WEBHOOK_SECRET=" + webhookSecret,
				// The registrations of all the tests come from 127.0.0.1;
				// TestRegistrationRateLimit spends a budget of 125 from an
				// address of its own (the 126th is refused).
				"RATE_REGISTRATION=" + registrationRate},
			// A known key: TestWebRenewsAnExpiredToken seals sessions itself.
			"web": {"WEB_SESSION_KEY=" + base64.StdEncoding.EncodeToString(webSessionKey)},
		},
	}
	for _, s := range []string{"auth", "company-billing", "employee", "timekeeping", "media", "web"} {
		// One address and a few tokens make every request of the suite.
		// The suite's parallel tests load both cores: a Redis command
		// may wait longer than the production bound of 250 ms.
		opts.ServiceEnv[s] = append(opts.ServiceEnv[s], "RATE_PER_IP=1000000/min", "RATE_PER_TOKEN=1000000/min", "RATE_FAILED_AUTH=1000000/min",
			"REDIS_COMMAND_TIMEOUT=2s", "RATE_LOGIN_PER_EMAIL=100000/min")
	}
	for _, s := range []string{"company-billing", "employee"} {
		// TestREPEventsWaitOutATimekeepingOutage stops timekeeping for a
		// while: the relays retry it every 2 s at most, not 5 min.
		opts.ServiceEnv[s] = append(opts.ServiceEnv[s], "OUTBOX_BACKOFF_MAX=2s")
	}
	if err := reuseTestDeps(&opts); err != nil {
		return opts, err
	}
	if opts.Deps == stack.StartOwn {
		// MinIO keeps its objects under DataDir; ports are free ones.
		ports, err := freePorts(4)
		if err != nil {
			return opts, err
		}
		opts.MinIOPort, opts.MinIOConsolePort, opts.StripePort, opts.StripeHTTPSPort = ports[0], ports[1], ports[2], ports[3]
	}
	return opts, nil
}

// reuseTestDeps points opts at the MinIO and stripe-mock of "stack deps"
// when the tests run under it.
func reuseTestDeps(opts *stack.Options) error {
	minio, stripe := os.Getenv("TEST_MINIO_ENDPOINT"), os.Getenv("TEST_STRIPE_URL")
	if minio == "" || stripe == "" {
		return nil
	}
	var err error
	opts.Deps = stack.ReuseOnly
	if opts.MinIOPort, err = portOf(minio); err != nil {
		return err
	}
	if opts.StripePort, err = portOf(strings.TrimPrefix(stripe, "http://")); err != nil {
		return err
	}
	opts.MinIOAccessKey = os.Getenv("TEST_MINIO_ACCESS_KEY")
	opts.MinIOSecretKey = os.Getenv("TEST_MINIO_SECRET_KEY")
	// A bucket of this run, removed at the end: objects are named by
	// company and employee ids, which every run's fresh databases hand
	// out again, so two runs at once (two make test) would otherwise
	// replace and remove each other's photos.
	opts.MinIOBucket = "ponto-e2e-" + randomHex(6)
	return nil
}

// removeBucket empties and removes the run's bucket from the MinIO of
// stack deps, which outlives the run.
func removeBucket(o stack.Options) error {
	mc, err := minio.New("127.0.0.1:"+strconv.Itoa(o.MinIOPort), &minio.Options{
		Creds: credentials.NewStaticV4(o.MinIOAccessKey, o.MinIOSecretKey, ""),
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if ok, err := mc.BucketExists(ctx, o.MinIOBucket); err != nil || !ok {
		return err
	}
	objects := mc.ListObjects(ctx, o.MinIOBucket, minio.ListObjectsOptions{Recursive: true})
	for r := range mc.RemoveObjects(ctx, o.MinIOBucket, objects, minio.RemoveObjectsOptions{}) {
		if r.Err != nil {
			return r.Err
		}
	}
	return mc.RemoveBucket(ctx, o.MinIOBucket)
}

func portOf(hostport string) (int, error) {
	_, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(p)
}

func (e *env) tempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err == nil {
		e.dirs = append(e.dirs, dir)
	}
	return dir, err
}

func (e *env) stop() {
	if e.stack != nil {
		e.stack.Stop()
		if e.stack.Options().Deps == stack.ReuseOnly {
			if err := removeBucket(e.stack.Options()); err != nil {
				fmt.Fprintf(os.Stderr, "e2e: bucket %s not removed: %v\n", e.stack.Options().MinIOBucket, err)
			}
		}
	}
	if e.mail != nil {
		e.mail.Close()
	}
	if e.redis != nil {
		e.redis.Remove()
	}
	if e.pg != nil {
		e.pg.Remove()
	}
	for _, d := range e.dirs {
		_ = os.RemoveAll(d)
	}
}

// tail is the end of the stack's output, for failure messages.
func (e *env) tail(n int) string { return tailLines(e.out.String(), n) }

// authKeysDir is where the stack keeps auth's signing keys.
func (e *env) authKeysDir() string { return filepath.Join(e.stack.Options().DataDir, "auth-keys") }

// databaseURL is the URL of a service's database on the test's cluster.
func (e *env) databaseURL(service string) (string, error) {
	name, ok := e.stack.DatabaseNames()[service]
	if !ok {
		return "", errors.New("service without a database: " + service)
	}
	return strings.Replace(e.pg.AdminURL(), "/postgres?", "/"+name+"?", 1), nil
}

func repoRoot() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..")
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
