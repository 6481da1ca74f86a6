package stack

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/signature/devca"
)

// Local JWT settings: auth signs with them, the others verify with them.
const (
	jwtIssuer   = "ponto-auth"
	jwtAudience = "ponto-api"
	// stripeKey is stripe-mock's accepted test key; never a real one.
	stripeKey = "sk_test_123"
	// stripeWebhookSecret signs the webhooks a developer replays locally
	// (stripe-mock sends none).
	stripeWebhookSecret = "whsec_ponto_local_dev"
	// trustedProxies is the gateway's address as the services see it.
	trustedProxies = host + "/32"
)

// GOGC is each service's GOGC as the chart deploys it
// (charts/ponto/values.yaml, services.<name>.env; tools/k8scheck keeps the
// two equal), so that make run, the end-to-end tests and make bench
// collect garbage as a deployment does. A service not named keeps Go's
// default.
var GOGC = map[string]string{"employee": "400", "timekeeping": "400"}

// GOMEMLIMIT is each service's GOMEMLIMIT as the chart deploys it with
// its default values (90% of the container's memory limit:
// goMemLimitPercent and services.<name>.resources in
// charts/ponto/values.yaml; tools/k8scheck keeps the two equal), so that a
// service near its limit collects garbage here as in its pod, and make
// bench's soak shows it.
var GOMEMLIMIT = map[string]string{
	"auth": "230MiB", "company-billing": "230MiB", "employee": "230MiB", "timekeeping": "345MiB",
	"media": "345MiB", "web": "230MiB",
}

// service is what the stack needs to know about one service.
type service struct {
	name string
	// db: has its own database and a "migrate" subcommand.
	db bool
	// verifies: checks access tokens against auth's JWKS.
	verifies bool
}

// services in start order, the order of routes.Services (a test keeps
// the two lists equal).
var services = []service{
	{name: "auth"},
	{name: "company-billing", db: true, verifies: true},
	{name: "employee", db: true, verifies: true},
	{name: "timekeeping", db: true, verifies: true},
	{name: "media", verifies: true},
	// web calls the public API through the gateway, as a browser would.
	{name: "web"},
}

// env is the configuration a service gets, on top of the stack's own
// environment; Options.ServiceEnv comes last.
func (o *Options) env(s service) []string {
	p := o.Ports[s.name]
	env := []string{
		"HTTP_PUBLIC_ADDR=" + o.addr(p.Public),
		"HTTP_INTERNAL_ADDR=" + o.addr(p.Internal),
		"LOG_LEVEL=" + o.LogLevel,
		// The gateway reaches the services from loopback; trusting it
		// makes them read the client's address from the X-Forwarded-For
		// it sets, as they do behind the Ingress.
		"HTTP_TRUSTED_PROXIES=" + trustedProxies,
		// Every service keeps its rate limits (and auth its sessions) in
		// Redis.
		"REDIS_ADDR=" + o.RedisAddr,
		"REDIS_KEY_PREFIX=" + o.RedisKeyPrefix,
	}
	if gc, ok := GOGC[s.name]; ok {
		env = append(env, "GOGC="+gc)
	}
	if limit, ok := GOMEMLIMIT[s.name]; ok {
		env = append(env, "GOMEMLIMIT="+limit)
	}
	// Every service gets every internal URL; ardanlabs/conf ignores the
	// ones a service does not declare.
	for _, other := range services {
		env = append(env, internalURLVar(other.name)+"="+o.url(o.Ports[other.name].Internal))
	}
	// Each service proves itself to its peers with its secret, which auth
	// trades for service tokens on its internal listener.
	env = append(env, "SERVICE_SECRET="+o.ServiceSecrets[s.name])
	if s.verifies {
		env = append(env,
			"JWT_JWKS_URL="+o.url(o.Ports["auth"].Public)+"/.well-known/jwks.json",
			"JWT_ISSUER="+jwtIssuer, "JWT_AUDIENCE="+jwtAudience)
	}
	if s.db {
		env = append(env, "DB_URL="+o.serviceDatabaseURL(s.name))
	}
	env = append(env, o.extraEnv(s.name)...)
	return append(env, o.ServiceEnv[s.name]...)
}

// extraEnv is the configuration only one service has.
func (o *Options) extraEnv(name string) []string {
	switch name {
	case "auth":
		return []string{
			"JWT_ISSUER=" + jwtIssuer, "JWT_AUDIENCE=" + jwtAudience,
			"AUTH_KEYS_DIR=" + o.authKeysDir(),
			// auth's own keys (sessions, codes, login limits) under the
			// stack's prefix too, like the shared ones.
			"AUTH_REDIS_PREFIX=" + o.RedisKeyPrefix + "auth:",
			"AUTH_SERVICE_SECRETS=" + o.authServiceSecrets(),
		}
	case "company-billing":
		return []string{
			"STRIPE_API_URL=" + o.url(o.StripePort), "STRIPE_SECRET_KEY=" + stripeKey,
			"STRIPE_WEBHOOK_SECRET=" + stripeWebhookSecret,
		}
	case "timekeeping":
		// The development certificate (stack.mkdirs makes it): outputs
		// are signed locally as in production.
		f := devca.FilesIn(o.signingDir())
		env := []string{"SIGNING_CERT_FILE=" + f.Cert, "SIGNING_CERT_PASSWORD_FILE=" + f.Password}
		// Receipts' QR codes point at the gateway when its port is known
		// before it starts (make run's :8080).
		if !strings.HasSuffix(o.GatewayAddr, ":0") {
			env = append(env, "PUBLIC_BASE_URL=http://"+o.GatewayAddr,
				"LEMBRETES_OPT_OUT_URL=http://"+o.GatewayAddr+"/ponto/lembretes")
		}
		// The reminders go to the stack's mail sink, printed as "mail".
		if o.mailAddr != "" {
			env = append(env, "LEMBRETES_SMTP_ADDR="+o.mailAddr, "LEMBRETES_SMTP_TLS=none")
		}
		return env
	case "web":
		return []string{
			"WEB_API_URL=http://" + o.GatewayAddr,
			// make run serves plain http on loopback: a Secure cookie
			// would be dropped there.
			"WEB_SECURE_COOKIES=false",
		}
	case "media":
		return []string{
			"MINIO_ENDPOINT=" + o.addr(o.MinIOPort),
			"MINIO_ACCESS_KEY=" + o.MinIOAccessKey, "MINIO_SECRET_KEY=" + o.MinIOSecretKey,
			"MINIO_BUCKET=" + o.MinIOBucket, "MINIO_USE_SSL=false",
		}
	}
	return nil
}

// authServiceSecrets is AUTH_SERVICE_SECRETS: every other service's
// name=secret.
func (o *Options) authServiceSecrets() string {
	var pairs []string
	for _, s := range services {
		if s.name != "auth" && s.name != "web" {
			pairs = append(pairs, s.name+"="+o.ServiceSecrets[s.name])
		}
	}
	return strings.Join(pairs, ",")
}

// internalURLVar: company-billing → COMPANY_BILLING_INTERNAL_URL.
func internalURLVar(name string) string {
	return strings.ToUpper(strings.ReplaceAll(name, "-", "_")) + "_INTERNAL_URL"
}

func (o *Options) authKeysDir() string { return filepath.Join(o.DataDir, "auth-keys") }

// signingDir keeps the development CA and timekeeping's signing
// certificate (its ca.pem verifies the .p7s and PDFs made locally).
func (o *Options) signingDir() string { return filepath.Join(o.DataDir, "signing") }

func (o *Options) bin(name string) string { return filepath.Join(o.BinDir, name) }

// ensureDatabases creates each service's database and role unless they
// exist. The admin role of PostgresURL owns the tables (it runs the
// migrations); the service connects as its own role, which does not.
func ensureDatabases(ctx context.Context, o *Options) error {
	for _, s := range services {
		if !s.db {
			continue
		}
		if err := database.EnsureDatabase(ctx, o.PostgresURL, o.databaseName(s.name)); err != nil {
			return err
		}
		role := serviceRole(s.name)
		if err := database.EnsureRole(ctx, o.PostgresURL, role, role); err != nil {
			return err
		}
	}
	return nil
}

// serviceRole is the role a service connects as: ponto_timekeeping_service
// for timekeeping. Roles are cluster-wide, so every stack on a server
// shares it (each database has its own grants). Its password is its name:
// a development setting, like the rest of the stack's secrets.
func serviceRole(service string) string {
	return "ponto_" + strings.ReplaceAll(service, "-", "_") + "_service"
}

// serviceDatabaseURL is service's database as its own role.
func (o *Options) serviceDatabaseURL(service string) string {
	u, _ := url.Parse(o.databaseURL(o.databaseName(service))) // checked in resolve
	role := serviceRole(service)
	u.User = url.UserPassword(role, role)
	return u.String()
}

// build compiles the five services in one go build, which shares the
// work on pkg/ and is much faster than five builds.
func build(ctx context.Context, o *Options, out *output) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("comando go não encontrado no PATH: %w", err)
	}
	if err := os.MkdirAll(o.BinDir, 0o750); err != nil {
		return err
	}
	args := []string{"build", "-o", o.BinDir + string(filepath.Separator)}
	for _, s := range services {
		args = append(args, "./services/"+s.name)
	}
	out.printf("stack", "compilando os serviços em %s", o.BinDir)
	err = runProc(ctx, out, spec{name: "build", bin: goBin, args: args, dir: o.RepoRoot})
	if err != nil {
		return fmt.Errorf("go build falhou: %w", err)
	}
	return nil
}

// migrate runs "<bin> migrate" for the services with a database, all at
// once since each has its own database, as PostgresURL's role, which
// grants the service's role its rights after migrating.
func migrate(ctx context.Context, o *Options, out *output) error {
	var wg sync.WaitGroup
	errs := make([]error, len(services))
	for i, s := range services {
		if !s.db {
			continue
		}
		wg.Go(func() {
			// Only migrate gets the owner's URL: the running service has
			// its own role alone.
			env := append(o.env(s), "DB_MIGRATE_URL="+o.databaseURL(o.databaseName(s.name)))
			err := runProc(ctx, out, spec{name: s.name, bin: o.bin(s.name), args: []string{"migrate"}, env: env, dir: o.DataDir})
			if err != nil {
				errs[i] = fmt.Errorf("migração de %s falhou: %s", s.name, exitError(err))
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ensureAuthKey runs "auth keygen" when auth's key dir has no key yet:
// auth refuses to start without one, and keeping it in the data dir
// across runs keeps the tokens issued before a restart valid.
func ensureAuthKey(ctx context.Context, o *Options, out *output) error {
	dir := o.authKeysDir()
	if hasSigningKey(dir) {
		return nil
	}
	out.printf("stack", "gerando a chave de assinatura do auth em %s", dir)
	err := runProc(ctx, out, spec{name: "auth", bin: o.bin("auth"), args: []string{"keygen"}, env: o.env(services[0]), dir: o.DataDir})
	if err != nil {
		return fmt.Errorf("auth keygen falhou: %s", exitError(err))
	}
	return nil
}

// hasSigningKey mirrors what auth loads: a *.pem file, hidden ones aside.
func hasSigningKey(dir string) bool {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.pem"))
	for _, p := range paths {
		if !strings.HasPrefix(filepath.Base(p), ".") {
			return true
		}
	}
	return false
}

func serviceSpec(o *Options, s service) spec {
	return spec{name: s.name, bin: o.bin(s.name), env: o.env(s), dir: o.DataDir}
}
