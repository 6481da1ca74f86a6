// Command auth issues and verifies ponto's credentials: company and admin
// login, employee one-time codes, refresh tokens (Redis) and the JWKS that
// every other service verifies access tokens with.
//
// Subcommands: `auth keygen` writes a new Ed25519 signing key into
// AUTH_KEYS_DIR and exits (see internal/keys for rotation); `auth
// hash-password` reads a password on standard input and prints the bcrypt
// hash AUTH_ADMINS takes.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/ardanlabs/conf/v3"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/mail"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/revocation"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/services/auth/internal/accounts"
	"github.com/ponto/ponto/services/auth/internal/clients/companybilling"
	"github.com/ponto/ponto/services/auth/internal/clients/employee"
	"github.com/ponto/ponto/services/auth/internal/codes"
	"github.com/ponto/ponto/services/auth/internal/keys"
	"github.com/ponto/ponto/services/auth/internal/login"
	"github.com/ponto/ponto/services/auth/internal/tokens"
)

const name = "auth"

// build is set at link time (-ldflags "-X main.build=...").
var build = "develop"

// Config is the whole configuration of the service, read from the
// environment (e.g. HTTP_PUBLIC_ADDR, REDIS_ADDR); see README.md.
type Config struct {
	// Base: LOG_*, HTTP_* and REDIS_*.
	service.Base
	// Rate: RATE_PER_IP on every public route (the login routes keep their
	// own, stricter, AUTH_RATE_* budgets on top).
	Rate ratelimit.Config
	Args conf.Args
	JWT  struct {
		Issuer   string `conf:"default:ponto-auth"`
		Audience string `conf:"default:ponto-api"`
	}
	Auth  AuthConfig
	Peers struct {
		CompanyBillingURL svcclient.URL `conf:"env:COMPANY_BILLING_INTERNAL_URL,default:http://127.0.0.1:9082,help:company-billing's internal API"`
		EmployeeURL       svcclient.URL `conf:"env:EMPLOYEE_INTERNAL_URL,default:http://127.0.0.1:9083,help:employee's internal API"`
	}
}

// AuthConfig is read from AUTH_*.
type AuthConfig struct {
	KeysDir            string        `conf:"default:/var/run/ponto/auth-keys,help:directory of Ed25519 signing keys (*.pem; the name sorting last signs)"`
	KeysReloadInterval time.Duration `conf:"default:1m,help:how often the keys directory is read again"`
	RedisPrefix        string        `conf:"default:auth:,help:prefix of every Redis key of the service"`
	AccessTokenTTL     time.Duration `conf:"default:15m"`
	RefreshTokenTTL    time.Duration `conf:"default:720h"`
	MaxSessions        int           `conf:"default:50,help:live refresh tokens per account; the oldest goes past it"`
	Admins             string        `conf:"mask,help:platform admins as email:bcrypthash pairs joined by commas"`
	CodeSecret         string        `conf:"mask,help:HMAC key of the login codes (32+ bytes); required when AUTH_SMTP_ADDR is set"`
	CodeTTL            time.Duration `conf:"default:10m"`
	CodeMaxTries       int           `conf:"default:5"`
	RatePerIP          int           `conf:"default:60,help:requests per minute and client IP on each login route"`
	RatePerEmail       int           `conf:"default:5,help:requests per minute and e-mail on each login route"`
	RateCodesPerHour   int           `conf:"default:6,help:login-code e-mails per hour and e-mail"`
	ServiceSecrets     string        `conf:"mask,help:the services that may ask for service tokens, as name=secret pairs joined by commas (secrets of 32+ bytes)"`
	ServiceSecretsDir  string        `conf:"help:directory of the services' secrets, one file per service named after it (the chart's mounted Secret); added to AUTH_SERVICE_SECRETS"`
	SMTP               mail.SMTPConfig
}

// devCodeSecret keys the login-code HMAC when AUTH_CODE_SECRET is unset,
// which Validate allows only without SMTP, i.e. in local development where
// codes go to the log anyway.
const devCodeSecret = "ponto-INSECURE-local-development-only-code-secret"

// minCodeSecret is the shortest AUTH_CODE_SECRET accepted, in bytes.
const minCodeSecret = 32

// Validate checks AuthConfig at start-up.
func (c *AuthConfig) Validate() error {
	var errs []error
	if _, err := accounts.ParseAdmins(c.Admins); err != nil {
		errs = append(errs, err)
	}
	switch {
	case c.CodeSecret == "" && c.SMTP.Addr != "":
		errs = append(errs, errors.New("AUTH_CODE_SECRET is required when AUTH_SMTP_ADDR is set"))
	case c.CodeSecret != "" && len(c.CodeSecret) < minCodeSecret:
		errs = append(errs, fmt.Errorf("AUTH_CODE_SECRET must have at least %d bytes", minCodeSecret))
	}
	for name, d := range map[string]time.Duration{
		"KeysReloadInterval": c.KeysReloadInterval, "AccessTokenTTL": c.AccessTokenTTL,
		"RefreshTokenTTL": c.RefreshTokenTTL, "CodeTTL": c.CodeTTL,
	} {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive", name))
		}
	}
	for name, n := range map[string]int{
		"MaxSessions": c.MaxSessions, "CodeMaxTries": c.CodeMaxTries, "RatePerIP": c.RatePerIP,
		"RatePerEmail": c.RatePerEmail, "RateCodesPerHour": c.RateCodesPerHour,
	} {
		if n <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive", name))
		}
	}
	if c.RedisPrefix == "" {
		errs = append(errs, errors.New("RedisPrefix must not be empty"))
	}
	if _, err := tokens.ParseServiceSecrets(c.ServiceSecrets); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, c.SMTP.Validate())
	return errors.Join(errs...)
}

func main() {
	// hash-password needs no configuration and prints only the hash.
	if len(os.Args) == 2 && os.Args[1] == hashPasswordCommand {
		if err := hashPassword(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	service.Main(name, run)
}

func run(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error {
	// -------------------------------------------------------------------------
	// Configuration

	var cfg Config
	if err := service.ConfigureBase(name, build, &cfg, &cfg.Base, log, level); err != nil {
		return err
	}

	clk := clock.New(time.Now)
	switch cmd := cfg.Args.Num(0); cmd {
	case "":
	case "keygen":
		path, key, err := keys.Generate(cfg.Auth.KeysDir, clk.Now())
		if err != nil {
			return fmt.Errorf("keygen: %w", err)
		}
		log.Info("keygen: signing key written", "path", path, "kid", key.ID)
		return nil
	default:
		return fmt.Errorf("unknown command %q (known: keygen, %s)", cmd, hashPasswordCommand)
	}

	// -------------------------------------------------------------------------
	// Telemetry

	stopTelemetry, err := service.StartTelemetry(ctx, name, build)
	if err != nil {
		return err
	}
	defer stopTelemetry()

	// -------------------------------------------------------------------------
	// Dependencies

	rdb, err := redisclient.Open(cfg.Redis)
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	defer rdb.Close()

	d, err := newDependencies(ctx, cfg, log, rdb, clk)
	if err != nil {
		return err
	}
	go d.keyring.Watch(ctx, cfg.Auth.KeysReloadInterval, log)
	defer d.login.Drain(cfg.HTTP.ShutdownTimeout)

	// -------------------------------------------------------------------------
	// Servers

	srv, err := newServer(cfg, log, rdb, d)
	if err != nil {
		return err
	}
	return srv.Run(ctx)
}

// dependencies are the service's parts, built once and shared by the
// routes.
type dependencies struct {
	keyring *keys.Keyring
	limits  *ratelimit.Limiter
	// services issues service tokens; verifier checks those on auth's
	// own internal routes.
	services *tokens.Services
	verifier *jwtauth.Verifier
	login    *login.Handlers
	tokens   *tokens.Handlers
}

// newDependencies loads the signing keys (failing when there is none) and
// wires the stores, the peers' clients and the mailer, on the clock clk.
func newDependencies(ctx context.Context, cfg Config, log *slog.Logger, rdb *redis.Client, clk *clock.Clock) (*dependencies, error) {
	keyring, err := keys.Open(cfg.Auth.KeysDir)
	if err != nil {
		return nil, fmt.Errorf("signing keys: %w", err)
	}
	log.Info("signing keys loaded", "dir", cfg.Auth.KeysDir, "published", len(keyring.All()), "signing_kid", keyring.Signing().ID)

	admins, err := accounts.ParseAdmins(cfg.Auth.Admins)
	if err != nil {
		return nil, err
	}
	sender, err := newSender(cfg.Auth.SMTP, log)
	if err != nil {
		return nil, err
	}
	secret := cfg.Auth.CodeSecret
	if secret == "" {
		log.Warn("AUTH_CODE_SECRET unset: login codes are keyed with the INSECURE development secret (allowed only without SMTP)")
		secret = devCodeSecret
	}

	serviceSecrets, err := tokens.ParseServiceSecrets(cfg.Auth.ServiceSecrets)
	if err != nil {
		return nil, err
	}
	if err := tokens.ReadServiceSecrets(cfg.Auth.ServiceSecretsDir, serviceSecrets); err != nil {
		return nil, err
	}
	if len(serviceSecrets) == 0 {
		log.Warn("AUTH_SERVICE_SECRETS and AUTH_SERVICE_SECRETS_DIR unset: no service can get a token, so no service can call another's internal API")
	}
	// signer is the access tokens' signer, declared before the peers'
	// clients, which carry auth's own service tokens.
	signer := &tokens.Signer{Keys: keyring, Issuer: cfg.JWT.Issuer, Audience: cfg.JWT.Audience, TTL: cfg.Auth.AccessTokenTTL, Clock: clk}
	own := svcclient.WithTokens(&tokens.Own{Signer: signer, Name: name})
	companies := companybilling.New(string(cfg.Peers.CompanyBillingURL), own)
	employees := employee.New(string(cfg.Peers.EmployeeURL), own)
	gate := &accounts.Gate{Admins: admins, Companies: companies, Employees: employees}
	revocations := revocation.Watch(ctx, rdb, cfg.Redis.KeyPrefix, log, revocation.DefaultReload)
	limits := ratelimit.New(rdb, cfg.Auth.RedisPrefix, log)
	signer.Revocations = revocations
	refresh := &tokens.RefreshStore{RDB: rdb, Prefix: cfg.Auth.RedisPrefix, TTL: cfg.Auth.RefreshTokenTTL,
		MaxPerSubject: cfg.Auth.MaxSessions, Clock: clk}

	return &dependencies{
		keyring:  keyring,
		limits:   limits,
		services: &tokens.Services{Signer: signer, Secrets: serviceSecrets},
		verifier: jwtauth.NewVerifierFromKeyfunc(keyring.Keyfunc, cfg.JWT.Issuer, cfg.JWT.Audience),
		tokens: &tokens.Handlers{Signer: signer, Refresh: refresh, Gate: gate, Log: log,
			RevocationPrefix: cfg.Redis.KeyPrefix, Clock: clk},
		login: login.New(login.Handlers{
			Admins: admins, Companies: companies, Employees: employees, Gate: gate,
			Issuer: &tokens.Issuer{Access: signer, Refresh: refresh},
			Codes: &codes.Store{RDB: rdb, Prefix: cfg.Auth.RedisPrefix, Secret: []byte(secret),
				TTL: cfg.Auth.CodeTTL, MaxTries: cfg.Auth.CodeMaxTries},
			Mail:    sender,
			Limiter: limits,
			Limits:  login.Limits{PerIP: cfg.Auth.RatePerIP, PerEmail: cfg.Auth.RatePerEmail, CodesPerHour: cfg.Auth.RateCodesPerHour},
			Log:     log,
		}),
	}, nil
}

// newSender is SMTP when AUTH_SMTP_ADDR is set, else the log sink.
func newSender(cfg mail.SMTPConfig, log *slog.Logger) (mail.Sender, error) {
	if cfg.Addr == "" {
		log.Warn("AUTH_SMTP_ADDR unset: login codes are written to the log (local development only)")
		return mail.LogSink{Log: log}, nil
	}
	return mail.NewSMTP(cfg)
}
