// Command timekeeping records punches (append-only, with NSR and hash chain), adjustments, absences and department reports.
package main

import (
	"context"
	"embed"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"
	_ "time/tzdata" // the company time zone must load in a minimal container

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/changefeed"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/mail"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/signature"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/pkg/validate"
	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
	mediaapi "github.com/ponto/ponto/services/media/internalapi"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/afastamento"
	"github.com/ponto/ponto/services/timekeeping/internal/atestado"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/lembrete"
	"github.com/ponto/ponto/services/timekeeping/internal/verificacao"
)

const name = "timekeeping"

// build is set at link time (-ldflags "-X main.build=...").
var build = "develop"

//go:embed migrations
var migrationFiles embed.FS

// Config is the whole configuration of the service, read from the
// environment (e.g. HTTP_PUBLIC_ADDR, DB_URL); see README.md.
type Config struct {
	// Backend: LOG_*, HTTP_*, DB_*, JWT_* (auth's JWKS) and REDIS_*.
	service.Backend
	// EmployeeInternalURL is the employee service's internal listener:
	// employees, their schedules and departments.
	EmployeeInternalURL svcclient.URL `conf:"env:EMPLOYEE_INTERNAL_URL,default:http://127.0.0.1:9083,help:employee internal API base URL"`
	// CompanyBillingInternalURL is company-billing's internal listener:
	// the employer's legal name and CNPJ for the AFD, receipts and
	// timesheets.
	// AuthInternalURL is auth's internal listener: the service tokens
	// the calls to employee and company-billing carry.
	AuthInternalURL           svcclient.URL `conf:"env:AUTH_INTERNAL_URL,default:http://127.0.0.1:9081,help:auth internal API base URL"`
	CompanyBillingInternalURL svcclient.URL `conf:"env:COMPANY_BILLING_INTERNAL_URL,default:http://127.0.0.1:9082,help:company-billing internal API base URL"`
	// MediaInternalURL is media's internal listener: the leaves'
	// documents, kept in MinIO.
	MediaInternalURL svcclient.URL `conf:"env:MEDIA_INTERNAL_URL,default:http://127.0.0.1:9085,help:media internal API base URL (leaves' documents)"`
	// REPINPI is the REP-P program's registration number at INPI (up to
	// 17 digits), printed in every AFD header and punch receipt.
	REPINPI string `conf:"env:REP_INPI,help:INPI registration number of the REP-P program (up to 17 digits)"`
	// REPDesenvolvedor is the CNPJ (or CPF) of the REP-P's developer, in
	// every AFD header.
	REPDesenvolvedor string `conf:"env:REP_DESENVOLVEDOR,help:CNPJ or CPF of the REP-P developer"`
	// REPDesenvolvedorNome and REPDesenvolvedorEmail are the developer's
	// legal name and e-mail, in the AEJ's type-08 record (the treatment
	// program's identification).
	REPDesenvolvedorNome  string `conf:"env:REP_DESENVOLVEDOR_NOME,default:ponto,help:legal name of the REP-P and treatment program developer (AEJ)"`
	REPDesenvolvedorEmail string `conf:"env:REP_DESENVOLVEDOR_EMAIL,default:nao-informado,help:e-mail of the treatment program developer (AEJ)"`
	// TimeZone is the zone of a company whose record names none (each
	// company's own fusoHorario, kept by company-billing, decides its
	// workdays).
	TimeZone string `conf:"env:COMPANY_TIME_ZONE,default:America/Sao_Paulo,help:IANA time zone of a company whose record names none"`
	// ZoneCacheTTL is how long the service keeps a company's time zone: a
	// change reaches punches that much later; 0 asks on every request.
	ZoneCacheTTL time.Duration `conf:"env:ZONE_CACHE_TTL,default:60s,help:how long a company's time zone is reused (0: no cache)"`
	// UnavailableAfter is how long punches must be refused because the
	// database cannot be reached before the outage is recorded (AFD type 6,
	// 08 and 07) for the companies whose punches were refused; 0 never.
	UnavailableAfter time.Duration `conf:"env:UNAVAILABLE_AFTER,default:1m,help:outage length recorded as AFD type-6 events (0: never)"`
	// ChainAuditInterval is how often the chain audit (chainaudit) goes
	// over the records written since its last run; 0 turns it off.
	// ChainAuditSlice and ChainAuditRate bound a run (chainaudit.Limits):
	// flat out the audit takes about 3 µs a record, so at 50,000 records a
	// second it is busy 15% of the time, and a first pass over 10 million
	// records takes under four minutes.
	ChainAuditInterval time.Duration `conf:"env:CHAIN_AUDIT_INTERVAL,default:5m,help:how often every company's chain is re-verified incrementally (0: never)"`
	ChainAuditSlice    int64         `conf:"env:CHAIN_AUDIT_SLICE,default:50000,help:most records the chain audit verifies in one transaction (0: no limit)"`
	ChainAuditRate     float64       `conf:"env:CHAIN_AUDIT_RATE,default:50000,help:most records the chain audit verifies per second (0: no limit)"`
	// ChainAuditReview is how often the audit verifies again each
	// company's records behind its checkpoint, from NSR 1 (chainaudit,
	// Limits.Review): a week, about 3½ minutes of one core's audit for 10
	// million records at the default rate.
	ChainAuditReview time.Duration `conf:"env:CHAIN_AUDIT_REVIEW,default:168h,help:how often every company's whole chain is verified again from NSR 1 (0: never)"`
	// EmployeeCacheTTL is how long a clock-in keeps an employee record it
	// fetched, and so how late it sees a deactivation or a new name or CPF
	// made in the employee service (see employee.Cached); 0 fetches on
	// every punch.
	EmployeeCacheTTL time.Duration `conf:"env:EMPLOYEE_CACHE_TTL,default:30s,help:how long clock-ins reuse an employee record (0: no cache)"`
	// EmployeeCacheMaxAge is how long a clock-in may keep an employee
	// record while the employee service's changes reach it (pkg/changefeed,
	// read every EmployeeChangesInterval from Redis): a day, so that the
	// people of a shift change, who punched the day before, are known.
	EmployeeCacheMaxAge     time.Duration `conf:"env:EMPLOYEE_CACHE_MAX_AGE,default:24h,help:how long clock-ins reuse an employee record while the employee service's changes are followed (0 or at most EMPLOYEE_CACHE_TTL: the TTL only)"`
	EmployeeChangesInterval time.Duration `conf:"env:EMPLOYEE_CHANGES_INTERVAL,default:1s,help:how often the employee service's changes are read from Redis"`
	// LocaisCacheTTL is how long the geofence check keeps a company's work
	// places: a change made through another replica counts there that much
	// later (this replica's own changes at once); 0 queries on every punch.
	LocaisCacheTTL time.Duration `conf:"env:LOCAIS_CACHE_TTL,default:10s,help:how long clock-ins reuse a company's work places (0: no cache)"`
	// Signing is the A1 certificate that signs the AFD (CAdES .p7s) and
	// the receipts and timesheets (PAdES); none leaves them unsigned.
	Signing signature.Config
	// Rate: RATE_PER_TOKEN, and RATE_PER_IP on the one route without a
	// token (the receipt check, which VERIFICACAO_RATE bounds further).
	Rate ratelimit.Config
	// PublicBaseURL is where clients reach ponto (the ingress), e.g.
	// https://ponto.example.com: receipts carry a QR code of
	// PublicBaseURL/verificacao/{hash}. Empty: no QR code.
	PublicBaseURL string `conf:"env:PUBLIC_BASE_URL,help:public URL of the ingress, for the receipts' QR code (empty: none)"`
	// VerificacaoRate bounds each client address's public receipt checks,
	// shared by every replica (Redis): each check walks a chain.
	VerificacaoRate ratelimit.Rate `conf:"env:VERIFICACAO_RATE,default:30/min,help:public receipt checks per client IP (N/s, N/min or N/h)"`
	// Atestado fills the technical certificate (Anexo VII).
	Atestado atestado.Config
	// Lembretes are the reminders by e-mail (LEMBRETES_*): off until
	// LEMBRETES_SMTP_ADDR is set.
	Lembretes lembrete.Config
}

// Validate checks what conf's tags cannot, so that a bad zone or REP identity
// stops the start-up instead of failing every request.
func (c *Config) Validate() error {
	if err := c.Lembretes.Validate(); err != nil {
		return err
	}
	if !validate.Digits(c.REPINPI, 0, 17) {
		return fmt.Errorf("REP_INPI %q: want up to 17 digits", c.REPINPI)
	}
	if d := c.REPDesenvolvedor; d != "" && !brdocs.ValidCNPJ(d) && !brdocs.ValidCPF(d) {
		return fmt.Errorf("REP_DESENVOLVEDOR %q: want a valid CNPJ or CPF", d)
	}
	// "Local" would follow the container's zone, and PostgreSQL, which
	// computes the reports' local times, does not know that name.
	if _, err := time.LoadLocation(c.TimeZone); err != nil || c.TimeZone == "" || c.TimeZone == "Local" {
		return fmt.Errorf("COMPANY_TIME_ZONE %q: want an IANA time zone such as America/Sao_Paulo", c.TimeZone)
	}
	if u, err := url.Parse(c.PublicBaseURL); c.PublicBaseURL != "" &&
		(err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "") {
		return fmt.Errorf("PUBLIC_BASE_URL %q: want an http(s) URL such as https://ponto.example.com", c.PublicBaseURL)
	}
	if c.EmployeeChangesInterval <= 0 {
		return fmt.Errorf("EMPLOYEE_CHANGES_INTERVAL %s: want more than 0", c.EmployeeChangesInterval)
	}
	for name, ttl := range map[string]time.Duration{"EMPLOYEE_CACHE_TTL": c.EmployeeCacheTTL,
		"EMPLOYEE_CACHE_MAX_AGE": c.EmployeeCacheMaxAge, "LOCAIS_CACHE_TTL": c.LocaisCacheTTL} {
		if ttl < 0 {
			return fmt.Errorf("%s %s: want 0 (no cache) or more", name, ttl)
		}
	}
	return nil
}

func main() { service.Main(name, run) }

func run(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error {
	// -------------------------------------------------------------------------
	// Configuration

	// The body limit fits a leave's document with its multipart framing
	// (conf keeps a preset value as the default; HTTP_BODY_LIMIT wins).
	var cfg Config
	cfg.HTTP.BodyLimit = afastamento.MaxBodyBytes
	if err := service.ConfigureBase(name, build, &cfg, &cfg.Base, log, level); err != nil {
		return err
	}
	if err := service.Command(ctx, cfg.Args, cfg.DB, migrationFiles, log); err != nil {
		return err
	}
	schema, err := service.ExpectSchema(migrationFiles)
	if err != nil {
		return err
	}

	// The certificate first: a wrong password or an expired certificate
	// stops the start-up before anything else is opened.
	clk := clock.New(time.Now)
	signer, err := openSigner(ctx, cfg.Signing, log, clk)
	if err != nil {
		return err
	}

	// -------------------------------------------------------------------------
	// Telemetry and dependencies

	db, guards, closeAll, err := service.OpenWithGuards(ctx, name, build, log, cfg.DB, cfg.JWT, cfg.Redis, cfg.Rate)
	if err != nil {
		return err
	}
	defer closeAll()
	verifier, rdb, limits := guards.Verifier, guards.Redis, guards.Limits
	checkLimits, err := verificacaoLimits(limits, cfg)
	if err != nil {
		return err
	}
	zone, err := time.LoadLocation(cfg.TimeZone)
	if err != nil {
		return err
	}
	tokens, err := cfg.Tokens(name, cfg.AuthInternalURL)
	if err != nil {
		return err
	}
	deps := dependencies{
		db:        db,
		employees: employee.New(string(cfg.EmployeeInternalURL), tokens),
		companies: companybillingapi.New(string(cfg.CompanyBillingInternalURL), tokens),
		media:     mediaapi.New(string(cfg.MediaInternalURL), tokens),
		clock:     clk,
		rep:       core.REP{INPI: cfg.REPINPI, Desenvolvedor: cfg.REPDesenvolvedor},
		ptrp:      ptrp(cfg, build),
		signer:    signer,

		verificacaoURL:    verificacaoURL(cfg.PublicBaseURL),
		verificacaoLimits: checkLimits,
		quiosqueLimits:    limits,
		atestado:          cfg.Atestado,

		employeeCache:    employeeCache{ttl: cfg.EmployeeCacheTTL, maxAge: cfg.EmployeeCacheMaxAge},
		locaisCacheTTL:   cfg.LocaisCacheTTL,
		zoneCacheTTL:     cfg.ZoneCacheTTL,
		unavailableAfter: cfg.UnavailableAfter,
		log:              log,
		defaultZone:      zone,
	}
	// The employee service's changes are followed only when they let the
	// clock-in keep records past their TTL.
	if err := startLembretes(ctx, cfg.Lembretes, &deps, log); err != nil {
		return err
	}
	if cfg.EmployeeCacheTTL > 0 && cfg.EmployeeCacheMaxAge > cfg.EmployeeCacheTTL {
		deps.employeeCache.feed = changefeed.NewWatcher(rdb, cfg.Redis.KeyPrefix, log)
	}

	// -------------------------------------------------------------------------
	// Servers

	checks := append(service.SchemaChecks(db, schema), guards.KeysCheck())
	if signer != nil {
		checks = append(checks, signer.Check())
	}
	srv := httpserver.New(name, cfg.HTTP, log, checks...)
	if signer != nil {
		srv.Metrics.MustRegister(signer.Gauge(nil))
	}
	mountRoutes(srv, verifier, deps)
	srv.Metrics.MustRegister(redisclient.Collector(rdb))
	if feed := deps.employeeCache.feed; feed != nil {
		feed.Start(ctx, cfg.EmployeeChangesInterval)
	}

	// -------------------------------------------------------------------------
	// Chain audit

	if cfg.ChainAuditInterval > 0 {
		auditor := chainaudit.New(db, log, clk, chainaudit.Limits{Slice: cfg.ChainAuditSlice, Rate: cfg.ChainAuditRate,
			Review: cfg.ChainAuditReview})
		srv.Metrics.MustRegister(auditor.Collectors()...)
		// Before the migrations, missing tables would read as a broken chain.
		schema.Go(ctx, db, func() { auditor.Run(ctx, cfg.ChainAuditInterval) })
	}
	return srv.Run(ctx)
}

// verificacaoLimits bound the public receipt check per client address:
// RATE_PER_IP as on every route without a token, then VERIFICACAO_RATE,
// closed when Redis is down (each check walks a chain; nothing urgent
// waits on it).
func verificacaoLimits(limits *ratelimit.Limiter, cfg Config) ([]fiber.Handler, error) {
	perIP, err := limits.PerIP("public", cfg.Rate.PerIP, ratelimit.FailOpen)
	if err != nil {
		return nil, err
	}
	checks, err := limits.PerIP("verificacao", cfg.VerificacaoRate, ratelimit.FailClosed)
	if err != nil {
		return nil, err
	}
	return []fiber.Handler{perIP, checks}, nil
}

// verificacaoURL is the public check's URL up to the hash; empty without
// a public base URL.
func verificacaoURL(base string) string {
	if base == "" {
		return ""
	}
	return strings.TrimSuffix(base, "/") + verificacao.Path
}

// openSigner loads the signing certificate and watches its files until
// ctx ends; nil (unsigned outputs, said in the log) when none is
// configured.
func openSigner(ctx context.Context, cfg signature.Config, log *slog.Logger, clk *clock.Clock) (*signature.Signer, error) {
	if !cfg.Enabled() {
		log.Warn("no signing certificate (SIGNING_CERT_FILE): the AFD, receipts and timesheets are unsigned")
		return nil, nil
	}
	signer, err := signature.Open(cfg, log, clk)
	if err != nil {
		return nil, err
	}
	cert := signer.Certificate()
	log.Info("signing certificate loaded", "subject", cert.Subject(),
		"not_after", cert.Leaf.NotAfter.UTC().Format(time.RFC3339))
	go signer.Watch(ctx)
	return signer, nil
}

// ptrp identifies the treatment program in the AEJ (type 08): ponto, its
// build (cut to the layout's 8 characters), the developer of the REP-P
// (zeros when not configured, as in the AFD's header).
func ptrp(cfg Config, build string) core.AEJPTRP {
	dev := cfg.REPDesenvolvedor
	if dev == "" {
		dev = "00000000000000"
	}
	return core.AEJPTRP{Nome: "ponto", Versao: build[:min(len(build), 8)], Desenvolvedor: dev,
		RazaoNome: cfg.REPDesenvolvedorNome, Email: cfg.REPDesenvolvedorEmail}
}

// startLembretes has the reminders' job run when LEMBRETES_SMTP_ADDR is
// set: every replica runs it, the job's lock lets one pass at a time.
func startLembretes(ctx context.Context, cfg lembrete.Config, deps *dependencies, log *slog.Logger) error {
	if !cfg.Enabled() {
		log.Info("reminders by e-mail off (LEMBRETES_SMTP_ADDR empty)")
		return nil
	}
	sender, err := mail.NewSMTP(cfg.SMTP)
	if err != nil {
		return err
	}
	deps.lembretesConfig, deps.lembretesSender = cfg, sender
	deps.lembretes = func(j *lembrete.Job) { go j.Run(ctx) }
	return nil
}
