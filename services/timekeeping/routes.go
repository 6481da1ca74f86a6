package main

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ponto/ponto/pkg/changefeed"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/mail"
	"github.com/ponto/ponto/pkg/metrics"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/signature"
	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/abono"
	"github.com/ponto/ponto/services/timekeeping/internal/aej"
	"github.com/ponto/ponto/services/timekeeping/internal/afastamento"
	"github.com/ponto/ponto/services/timekeeping/internal/afdexport"
	"github.com/ponto/ponto/services/timekeeping/internal/ajuste"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/atestado"
	"github.com/ponto/ponto/services/timekeeping/internal/banco"
	"github.com/ponto/ponto/services/timekeeping/internal/cadeia"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/comprovante"
	"github.com/ponto/ponto/services/timekeeping/internal/disponibilidade"
	"github.com/ponto/ponto/services/timekeeping/internal/dispositivo"
	"github.com/ponto/ponto/services/timekeeping/internal/espelho"
	"github.com/ponto/ponto/services/timekeeping/internal/eventos"
	"github.com/ponto/ponto/services/timekeeping/internal/falta"
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
	"github.com/ponto/ponto/services/timekeeping/internal/feriado"
	"github.com/ponto/ponto/services/timekeeping/internal/folha"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/hoje"
	"github.com/ponto/ponto/services/timekeeping/internal/iniciouso"
	"github.com/ponto/ponto/services/timekeeping/internal/lembrete"
	locais "github.com/ponto/ponto/services/timekeeping/internal/local"
	"github.com/ponto/ponto/services/timekeeping/internal/quiosque"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/relatorio"
	"github.com/ponto/ponto/services/timekeeping/internal/tratamento"
	"github.com/ponto/ponto/services/timekeeping/internal/verificacao"
)

// dependencies are what the routes use: the database, the peers'
// internal APIs, the clock, the REP-P's identification and how long the
// clock-in may keep what it reads (zero: not at all).
type dependencies struct {
	db        *pgxpool.Pool
	employees *employee.Client
	companies *companybillingapi.Client
	// media keeps the leaves' documents; nil: their routes answer 503.
	media afastamento.Documentos
	clock *clock.Clock
	rep   core.REP
	ptrp  core.AEJPTRP
	// signer signs the AFD and the PDFs; nil when no certificate is
	// configured (outputs unsigned).
	signer *signature.Signer
	// verificacaoURL is the public check's URL up to the hash, for the
	// receipts' QR code (empty: none); verificacaoLimits its rate limits
	// per client address.
	verificacaoURL    string
	verificacaoLimits []fiber.Handler
	// atestado fills the technical certificate.
	atestado atestado.Config
	// employeeCache: the clock-in's employee records.
	employeeCache employeeCache
	// locaisCacheTTL: each company's work places for the geofence check.
	locaisCacheTTL time.Duration
	// zoneCacheTTL: each company's time zone; defaultZone is the zone of
	// a company whose record names none.
	zoneCacheTTL time.Duration
	defaultZone  *time.Location
	// unavailableAfter is how long punches must be refused (the database
	// unreachable) before the outage is recorded as AFD type-6 events;
	// 0: never recorded. log reports what cannot be recorded.
	unavailableAfter time.Duration
	log              *slog.Logger
	// lembretes, when set, receives the reminders' job (built with
	// lembretesConfig and lembretesSender) to run it; nil: no reminders.
	lembretes       func(*lembrete.Job)
	lembretesConfig lembrete.Config
	lembretesSender mail.Sender
	// quiosqueLimits bounds each kiosk's and each employee's requests at
	// the kiosks; nil: unbounded.
	quiosqueLimits  *ratelimit.Limiter
	quiosqueBudgets quiosque.Budgets
}

// mountRoutes registers every route of the service, all public and, but
// for the receipt check, behind the token verifier (each handler package
// names the roles of its routes). The service has no internal API of its
// own.
//
//	GET  /verificacao/{hash}                                 none       verificacao
//
//	POST /registropontos                                     employee   registro
//	GET  /registropontos/me                                  employee   registro
//	PUT  /registropontos/solicitar/{registroId}              employee   ajuste
//	GET  /registropontos/ajustes                             company    ajuste
//	PUT  /registropontos/{registroId}/aprovar                company    ajuste
//	PUT  /registropontos/{registroId}/reprovar               company    ajuste
//	POST /registropontos/{funcionarioId}/marcar-falta/{data} company    falta
//	GET  /registropontos/departamento/{departamento}         company    relatorio
//	GET  /registropontos/afd                                 company    afdexport
//	GET  /registropontos/aej                                 company    aej
//	GET  /registropontos/atestado-tecnico                    company    atestado
//	GET  /registropontos/{registroId}/comprovante            both       comprovante
//	GET  /registropontos/funcionario/{funcionarioId}/espelho both       espelho
//	POST /registropontos/feriados                            company    feriado
//	GET  /registropontos/feriados                            company    feriado
//	DEL  /registropontos/feriados/{data}                     company    feriado
//	POST /registropontos/locais-trabalho                     company    local
//	GET  /registropontos/locais-trabalho                     company    local
//	DEL  /registropontos/locais-trabalho/{localId}           company    local
//	GET  /registropontos/cadeia                              company    cadeia
//	DEL  /registropontos/{funcionarioId}/marcar-falta/{data} company    falta
//	POST /registropontos/funcionario/{funcionarioId}/marcacoes company  tratamento
//	PUT  /registropontos/{registroId}/desconsiderar          company    tratamento
//	PUT  /registropontos/{registroId}/reconsiderar           company    tratamento
//	POST /registropontos/funcionario/{funcionarioId}/abonos  company    abono
//	GET  /registropontos/funcionario/{funcionarioId}/abonos  company    abono
//	POST /registropontos/abonos/{abonoId}/cancelar           company    abono
//	POST /registropontos/solicitacoes                        employee   tratamento
//	GET  /registropontos/solicitacoes                        company    tratamento
//	PUT  /registropontos/solicitacoes/{id}/aprovar|reprovar  company    tratamento
//	POST /registropontos/fechamentos                         company    fechamento
//	GET  /registropontos/fechamentos                         company    fechamento
//	POST /registropontos/fechamentos/{fechamentoId}/reabrir  company    fechamento
//	GET  /registropontos/fechamentos/ciencias                company    fechamento
//	PUT  /registropontos/funcionario/{funcionarioId}/espelho/ciencia employee (himself) fechamento
//	GET  /registropontos/banco-horas/politica                company    banco
//	PUT  /registropontos/banco-horas/politica                company    banco
//	GET  /registropontos/funcionario/{funcionarioId}/banco-horas both (employee: himself) banco
//	POST /registropontos/funcionario/{funcionarioId}/banco-horas/movimentos company banco
//	GET  /registropontos/hoje                                company    hoje
//	GET|PUT /registropontos/lembretes                        company    lembrete
//	GET|PUT /registropontos/lembretes/me                     employee   lembrete
//	GET|PUT /registropontos/inicio-uso                       company    iniciouso
//	GET  /registropontos/folha                               company    folha
//	GET|PUT /registropontos/folha/eventos                    company    folha
//	GET  /registropontos/folha/layouts                       company    folha
//	GET|PUT /registropontos/folha/layouts/{nome}             company    folha
//	POST|GET /registropontos/quiosques, DEL .../{quiosqueId} company    quiosque
//	PUT  /registropontos/quiosques/pin                       employee   quiosque
//	DEL  /registropontos/quiosques/pin/{funcionarioId}       company    quiosque
//	POST /registropontos/quiosques/cracha/{funcionarioId}    company    quiosque
//	GET  /registropontos/quiosque, POST .../identificar|marcar kiosk credential quiosque
//	PUT  /registropontos/quiosque/chave, POST .../offline    kiosk credential quiosque
//	POST /registropontos/funcionario/{funcionarioId}/afastamentos company afastamento
//	GET  /registropontos/funcionario/{funcionarioId}/afastamentos both (employee: himself) afastamento
//	GET  /registropontos/afastamentos                        company    afastamento
//	PUT  /registropontos/afastamentos/{afastamentoId}        company    afastamento
//	POST /registropontos/afastamentos/{afastamentoId}/cancelar company  afastamento
//	POST /registropontos/afastamentos/{afastamentoId}/documento company afastamento
//	GET  /registropontos/afastamentos/{afastamentoId}/documento both (employee: his own) afastamento
//	POST /registropontos/dispositivos                        employee   dispositivo
//	GET  /registropontos/dispositivos                        both (employee: his own) dispositivo
//	DEL  /registropontos/dispositivos/{dispositivoId}        both (employee: his own) dispositivo
//	GET|PUT /registropontos/offline/limite                   company    dispositivo
//	POST /registropontos/offline                             employee   registro
//
// Internal listener (service to service):
//
//	POST /internal/eventos        company-billing, employee (service token; origem = caller)   eventos
func mountRoutes(srv *httpserver.Server, verifier *jwtauth.Verifier, d dependencies) {
	clockIns := newClockInMetrics()
	srv.Metrics.MustRegister(append(clockIns.collectors(), database.Collector(d.db))...)
	registros := registro.NewStore(d.db, d.clock)
	registros.ObserveBatches(clockIns.observe)
	zones := fuso.New(d.companies, d.zoneCacheTTL, d.defaultZone)
	if d.unavailableAfter > 0 {
		registros.WatchAvailability(disponibilidade.NewMonitor(d.unavailableAfter,
			disponibilidade.NewStore(d.db, zones.Empresa), d.log))
	}
	workdays := fuso.Workdays{Employees: d.employees, Zones: zones}
	places := locais.NewStore(d.db, d.locaisCacheTTL)
	// Only the clock-in reads employees through the cache: the other
	// routes are rare and show or check the current record.
	clockInEmployees := d.employeeCache.open(d.employees, srv.Metrics)

	// Before the verifier's group: the check needs no token.
	verificacoes := verificacao.NewStore(d.db)
	srv.Metrics.MustRegister(verificacoes.Collectors()...)
	verificacao.NewHandlers(verificacoes, d.companies, d.verificacaoLimits...).Public(srv.Public)
	// Before the verifier's group too: the kiosk's credential is no token.
	quiosques := &quiosque.Handlers{Store: quiosque.NewStore(d.db), Ledger: registros.Ledger(),
		Employees: clockInEmployees, Zones: zones, Places: places, Clock: d.clock, Limits: d.quiosqueLimits, Budgets: d.quiosqueBudgets,
		Verificacao: d.verificacaoURL}
	devices := dispositivo.NewStore(d.db)
	quiosques.Limites = dispositivo.NewVerifier(devices)
	quiosques.Kiosk(srv.Public)
	public := srv.Public.Group("", verifier.Middleware())
	quiosques.Public(public)
	registro.NewHandlers(registros, clockInEmployees, d.clock, places, zones).
		WithDevices(dispositivo.NewVerifier(devices)).Public(public)
	(&dispositivo.Handlers{Store: devices, Clock: d.clock}).Public(public)
	ajuste.NewHandlers(ajuste.NewStore(d.db), registros, d.clock, workdays).Public(public)
	faltas, tratamentos, abonos := falta.NewStore(d.db), tratamento.NewStore(d.db), abono.NewStore(d.db)
	(&falta.Handlers{Store: faltas, Workdays: workdays, Clock: d.clock}).Public(public)
	apuracoes := apuracao.New(apuracao.NewStore(d.db)) // the one workday engine of the readers below
	bancos := banco.NewStore(d.db)
	relatorio.NewHandlers(apuracoes, d.employees, d.clock, zones).Public(public)
	afdexport.NewHandlers(afdexport.NewStore(d.db), d.clock, zones, d.rep, d.signer).Public(public)
	aej.NewHandlers(tratamentos, faltas, d.employees, d.clock, zones, d.rep, d.ptrp, d.signer).
		SetJornadas(apuracoes).Public(public)
	comprovante.NewHandlers(comprovante.NewStore(d.db), d.employees, d.companies, d.rep, d.signer,
		d.verificacaoURL).Public(public)
	espelho.NewHandlers(tratamentos, abonos, apuracoes, d.employees, d.companies, d.clock, zones, d.signer,
		d.db).Public(public)
	atestado.NewHandlers(d.atestado, d.rep, d.clock, build).Public(public)
	feriado.NewHandlers(d.db, d.clock, zones).Public(public)
	locais.NewHandlers(places, d.clock).Public(public)
	cadeia.NewHandlers(d.db).Public(public)
	(&tratamento.Handlers{Store: tratamentos, Workdays: workdays, Clock: d.clock}).Public(public)
	(&abono.Handlers{Store: abonos, Workdays: workdays, Clock: d.clock}).Public(public)
	(&fechamento.Handlers{Store: fechamento.NewStore(d.db), Workdays: workdays, Clock: d.clock}).Public(public)
	banco.NewHandlers(bancos, apuracoes, workdays, d.clock).Public(public)
	hojes := &hoje.Handlers{Store: hoje.NewStore(d.db), Apuracao: apuracoes, Employees: d.employees, Zones: zones,
		Clock: d.clock, Signer: d.signer}
	hojes.Public(public)
	lembretes := lembrete.NewStore(d.db)
	(&lembrete.Handlers{Store: lembretes, Clock: d.clock}).Public(public)
	if d.lembretes != nil {
		job := &lembrete.Job{DB: d.db, Store: lembretes, Hoje: hojes, Employees: d.employees, Zones: zones,
			Sender: d.lembretesSender, Clock: d.clock, Log: d.log, Config: d.lembretesConfig}
		srv.Metrics.MustRegister(job.Collectors()...)
		d.lembretes(job)
	}

	(&afastamento.Handlers{Store: afastamento.NewStore(d.db), Workdays: workdays, Clock: d.clock,
		Documentos: d.media}).Public(public)
	(&iniciouso.Handlers{Store: iniciouso.NewStore(d.db), Clock: d.clock, Zones: zones}).Public(public)
	(&folha.Handlers{Store: folha.NewStore(d.db), Zones: zones, Clock: d.clock,
		Totais: &folha.Apuracao{Engine: apuracoes, Employees: d.employees, Zones: zones, Clock: d.clock,
			DB: d.db}}).Public(public)

	eventos.NewHandlers(d.db, zones, d.clock).Forgetting(clockInEmployees.Forget).Internal(srv.Internal, verifier)
}

// employeeCache is the clock-in's employee cache (employee.Cached): its
// records live ttl (zero: no cache) and, while feed (nil: none) brings the
// employee service's changes, up to maxAge.
type employeeCache struct {
	ttl, maxAge time.Duration
	feed        *changefeed.Watcher
}

// open makes the cache, has the feed's changes reach it and exports
// whether the feed is current.
func (e employeeCache) open(client *employee.Client, m *metrics.Metrics) *employee.Cached {
	if e.feed == nil {
		return employee.NewCached(client, e.ttl, employee.CacheSize)
	}
	c := employee.NewFollowing(client, e.ttl, employee.CacheSize, e.feed, e.maxAge)
	e.feed.Follow(c.Forget)
	m.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "ponto_employee_cache_feed_current",
		Help: "1 while the employee service's changes reach the clock-in's employee cache, which may then keep records past EMPLOYEE_CACHE_TTL.",
	}, func() float64 {
		if e.feed.Current(e.ttl) {
			return 1
		}
		return 0
	}))
	return c
}
