package stack

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ponto/ponto/tools/routes"
)

// host is where everything listens: the stack is for one developer's
// machine and never exposes a port beyond loopback.
const host = "127.0.0.1"

// DepsPolicy says what to do about MinIO and stripe-mock.
type DepsPolicy int

const (
	// ReuseOrStart reuses one that already answers on its port and starts
	// it from the tools dir otherwise (make run, make test).
	ReuseOrStart DepsPolicy = iota
	// StartOwn always starts them; a port already taken is an error.
	StartOwn
	// ReuseOnly never starts them; one that does not answer is an error.
	ReuseOnly
)

// ServicePorts are a service's two listeners; 0 picks a free port.
type ServicePorts struct {
	Public   int
	Internal int
}

// Options configure a stack. The zero value runs everything on free ports;
// Defaults gives the fixed ports of make run.
type Options struct {
	// RepoRoot holds go.work; empty means the nearest one above the
	// working directory.
	RepoRoot string
	// BinDir receives the service binaries (default <root>/bin).
	BinDir string
	// ToolsDir holds the minio and stripe-mock binaries (default <root>/bin).
	ToolsDir string
	// DataDir keeps MinIO objects and auth keys (default <root>/.data).
	DataDir string
	// RoutesFile is the route table (default <root>/charts/ponto/routes.yaml).
	RoutesFile string
	// OpenAPIFile is served by the gateway at /openapi.yaml (default
	// <root>/api/openapi.yaml when that file exists; none otherwise).
	OpenAPIFile string

	// GatewayAddr is host:port for the gateway (default 127.0.0.1:0).
	GatewayAddr string
	// Ports by service name; a missing service or a 0 picks free ports.
	Ports            map[string]ServicePorts
	MinIOPort        int
	MinIOConsolePort int
	StripePort       int
	StripeHTTPSPort  int
	Deps             DepsPolicy

	MinIOAccessKey string // default "ponto"
	MinIOSecretKey string // default "ponto-dev-secret"
	MinIOBucket    string // default "ponto-fotos"

	// PostgresURL is an admin URL on the server (default
	// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable).
	PostgresURL string
	RedisAddr   string // default 127.0.0.1:6379
	// ServiceSecrets are the services' SERVICE_SECRETs (and auth's
	// AUTH_SERVICE_SECRETS); resolve draws random ones for those missing.
	ServiceSecrets map[string]string
	// RedisKeyPrefix is REDIS_KEY_PREFIX for every service: the stack's
	// own revocations and rate limits on a Redis other stacks may share
	// (default: DBPrefix without its "_", DBSuffix, ":"; make run's is
	// the services' default "ponto:").
	RedisKeyPrefix string
	// Each database is DBPrefix + service (dashes as underscores) + DBSuffix.
	DBPrefix string
	DBSuffix string

	// ServiceEnv adds environment variables ("KEY=value") to one service by
	// name, e.g. "auth": {"AUTH_SMTP_ADDR=127.0.0.1:2525"}. They come after
	// the stack's own, so they win.
	ServiceEnv map[string][]string
	// mailAddr is the stack's SMTP sink of the reminders (set by Start).
	mailAddr string

	LogLevel string // default "info"
	// SkipBuild uses the binaries already in BinDir.
	SkipBuild bool
	// StopTimeout is how long children get after SIGTERM (default 10s).
	StopTimeout time.Duration
	// RestartCrashed starts again, after a growing pause (RestartBackoff,
	// doubling up to a minute), a service that exits without being asked,
	// instead of failing the whole stack (make run sets it; tests that
	// watch for a crash leave it off).
	RestartCrashed bool
	// RestartBackoff is the first pause before a restart (default 1s).
	RestartBackoff time.Duration
	// Output receives every child's lines, prefixed (default os.Stdout).
	Output io.Writer
}

// DefaultOpenAPIFile is the public API's OpenAPI document, relative to the
// repository root.
const DefaultOpenAPIFile = "api/openapi.yaml"

// Defaults are the options of make run: gateway on 8080, services on
// 8081..8085 (public) and 9081..9085 (internal), MinIO on 9000/9001 and
// stripe-mock on 12111/12112, reused when already running.
func Defaults() Options {
	o := Options{
		GatewayAddr:      host + ":8080",
		Ports:            map[string]ServicePorts{},
		MinIOPort:        9000,
		MinIOConsolePort: 9001,
		StripePort:       12111,
		StripeHTTPSPort:  12112,
		Deps:             ReuseOrStart,
		DBPrefix:         "ponto_",
	}
	for i, name := range routes.Services {
		o.Ports[name] = ServicePorts{Public: 8081 + i, Internal: 9081 + i}
	}
	return o
}

// resolve fills every default and picks the free ports, so the rest of
// the package sees concrete values only.
func (o Options) resolve() (Options, error) {
	if err := o.resolvePaths(); err != nil {
		return o, err
	}
	setDefault(&o.GatewayAddr, host+":0")
	setDefault(&o.MinIOAccessKey, "ponto")
	setDefault(&o.MinIOSecretKey, "ponto-dev-secret")
	setDefault(&o.MinIOBucket, "ponto-fotos")
	setDefault(&o.PostgresURL, "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable")
	setDefault(&o.RedisAddr, host+":6379")
	setDefault(&o.RedisKeyPrefix, strings.TrimSuffix(o.DBPrefix, "_")+o.DBSuffix+":")
	setDefault(&o.LogLevel, "info")
	if o.StopTimeout <= 0 {
		o.StopTimeout = 10 * time.Second
	}
	if o.RestartBackoff <= 0 {
		o.RestartBackoff = time.Second
	}
	o.ServiceSecrets = maps.Clone(o.ServiceSecrets)
	if o.ServiceSecrets == nil {
		o.ServiceSecrets = map[string]string{}
	}
	for _, s := range services {
		if o.ServiceSecrets[s.name] == "" {
			o.ServiceSecrets[s.name] = rand.Text() + rand.Text() // 52 base32 characters, as auth wants 32+
		}
	}
	if o.Output == nil {
		o.Output = os.Stdout
	}
	if _, err := url.Parse(o.PostgresURL); err != nil {
		return o, fmt.Errorf("PostgresURL inválida: %w", err)
	}
	return o, o.resolvePorts()
}

func (o *Options) resolvePaths() error {
	if o.RepoRoot == "" {
		root, err := FindRepoRoot()
		if err != nil {
			return err
		}
		o.RepoRoot = root
	}
	setDefault(&o.BinDir, filepath.Join(o.RepoRoot, "bin"))
	setDefault(&o.ToolsDir, filepath.Join(o.RepoRoot, "bin"))
	setDefault(&o.DataDir, filepath.Join(o.RepoRoot, ".data"))
	setDefault(&o.RoutesFile, filepath.Join(o.RepoRoot, routes.DefaultFile))
	if o.OpenAPIFile == "" {
		// A checkout without the document still runs, without /openapi.yaml.
		if def := filepath.Join(o.RepoRoot, DefaultOpenAPIFile); fileExists(def) {
			o.OpenAPIFile = def
		}
	}
	// Children run with other working directories; paths must not depend
	// on ours.
	for _, p := range []*string{&o.RepoRoot, &o.BinDir, &o.ToolsDir, &o.DataDir, &o.RoutesFile, &o.OpenAPIFile} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return err
		}
		*p = abs
	}
	return nil
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// resolvePorts copies the caller's map and replaces every 0 by a free
// port, all picked together so that none is handed out twice.
func (o *Options) resolvePorts() error {
	// Picking one spare per possible slot is cheap and keeps this simple.
	free, err := freePorts(2*len(routes.Services) + 5)
	if err != nil {
		return err
	}
	next := func(p int) int {
		if p != 0 {
			return p
		}
		p, free = free[0], free[1:]
		return p
	}
	ports := map[string]ServicePorts{}
	for _, name := range routes.Services {
		p := o.Ports[name]
		ports[name] = ServicePorts{Public: next(p.Public), Internal: next(p.Internal)}
	}
	o.Ports = ports
	// The gateway's port is chosen now, not when it listens: web is told
	// the gateway's URL before either starts.
	if h, p, err := net.SplitHostPort(o.GatewayAddr); err == nil && p == "0" {
		o.GatewayAddr = net.JoinHostPort(h, strconv.Itoa(next(0)))
	}
	o.MinIOPort, o.MinIOConsolePort = next(o.MinIOPort), next(o.MinIOConsolePort)
	o.StripePort, o.StripeHTTPSPort = next(o.StripePort), next(o.StripeHTTPSPort)
	return o.checkPortsDistinct()
}

func (o *Options) checkPortsDistinct() error {
	seen := map[int]string{}
	check := func(what string, port int) error {
		if prev, ok := seen[port]; ok {
			return fmt.Errorf("porta %d usada duas vezes (%s e %s)", port, prev, what)
		}
		seen[port] = what
		return nil
	}
	var errs []error
	for _, name := range routes.Services {
		errs = append(errs, check(name+" público", o.Ports[name].Public), check(name+" interno", o.Ports[name].Internal))
	}
	errs = append(errs, check("MinIO", o.MinIOPort), check("console do MinIO", o.MinIOConsolePort),
		check("stripe-mock", o.StripePort), check("stripe-mock https", o.StripeHTTPSPort))
	return errors.Join(errs...)
}

func setDefault(s *string, def string) {
	if *s == "" {
		*s = def
	}
}

// FindRepoRoot returns the nearest directory at or above the working
// directory that holds go.work.
func FindRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.work não encontrado acima do diretório atual: rode a partir do repositório")
		}
		dir = parent
	}
}

// databaseName is the database of service: ponto_company_billing for
// company-billing with the make run prefix.
func (o *Options) databaseName(service string) string {
	return o.DBPrefix + strings.ReplaceAll(service, "-", "_") + o.DBSuffix
}

// databaseURL is PostgresURL pointed at another database.
func (o *Options) databaseURL(name string) string {
	u, _ := url.Parse(o.PostgresURL) // checked in resolve
	u.Path = "/" + name
	u.RawPath = ""
	return u.String()
}

func (o *Options) addr(port int) string { return fmt.Sprintf("%s:%d", host, port) }

func (o *Options) url(port int) string { return "http://" + o.addr(port) }
