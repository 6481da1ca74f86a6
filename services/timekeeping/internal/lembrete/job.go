// Package lembrete sends the reminders by e-mail: to an employee whose
// workday ended with an odd number of punches (one message a day at
// most) and a daily digest to the company's account (late, absent,
// pending). One job runs in every replica; a PostgreSQL advisory lock
// lets one pass run at a time and a claim row per message (lembretes_envios)
// makes each message go out at most once.
package lembrete

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/mail"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/hoje"
)

// Config is read from LEMBRETES_*; the job is off without an SMTP server.
type Config struct {
	SMTP     mail.SMTPConfig
	Interval time.Duration `conf:"default:5m,help:how often a pass looks for reminders to send"`
	Hour     int           `conf:"default:7,help:local hour of the company from which the day's reminders go out"`
	// OptOutURL is where an employee turns his reminders off (the web
	// client's page), printed in each reminder.
	OptOutURL string `conf:"help:page where an employee turns his reminders off, printed in each one (empty: the punch app's profile)"`
}

// Enabled reports whether the job runs.
func (c Config) Enabled() bool { return c.SMTP.Addr != "" }

// Validate checks the settings.
func (c *Config) Validate() error {
	if c.Hour < 0 || c.Hour > 23 {
		return fmt.Errorf("LEMBRETES_HOUR %d: want 0 to 23", c.Hour)
	}
	if c.Enabled() && c.Interval <= 0 {
		return fmt.Errorf("LEMBRETES_INTERVAL %s: want more than 0", c.Interval)
	}
	return c.SMTP.Validate()
}

// Delivery limits.
const (
	lockKey     = 0x706f6e746f4c // "pontoL": one pass at a time over every replica
	maxAttempts = 8
	firstRetry  = time.Minute
	lastRetry   = time.Hour
	batch       = 200 // messages delivered per pass
)

// Job plans and delivers the reminders.
type Job struct {
	DB        *pgxpool.Pool
	Store     *Store
	Hoje      *hoje.Handlers
	Employees *employee.Client
	Zones     *fuso.Zones
	Sender    mail.Sender
	Clock     *clock.Clock
	Log       *slog.Logger
	Config    Config

	// Sent and Failed count deliveries and failed attempts by tipo (set by
	// Collectors).
	Sent, Failed *prometheus.CounterVec
}

// Collectors are the job's metrics: messages sent and failed attempts.
func (j *Job) Collectors() []prometheus.Collector {
	j.Sent = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ponto_lembretes_enviados_total",
		Help: "Reminder e-mails delivered, by tipo."}, []string{"tipo"})
	j.Failed = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ponto_lembretes_falhas_total",
		Help: "Reminder e-mail attempts that failed (tried again later up to 8 times), by tipo."}, []string{"tipo"})
	return []prometheus.Collector{j.Sent, j.Failed}
}

// Run passes every Config.Interval until ctx ends.
func (j *Job) Run(ctx context.Context) {
	clock.Every(ctx, j.Config.Interval, func() {
		if err := j.Pass(ctx); err != nil {
			j.Log.Error("lembretes: pass failed; trying again at the next one", "err", err)
		}
	})
}

// Pass plans the messages now due and delivers those waiting, unless
// another replica's pass holds the lock (then it does nothing).
func (j *Job) Pass(ctx context.Context) error {
	conn, err := j.DB.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("lembrete: acquire: %w", err)
	}
	defer conn.Release()
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, lockKey).Scan(&locked); err != nil {
		return fmt.Errorf("lembrete: lock: %w", err)
	}
	if !locked {
		return nil
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockKey) }()
	planErr := j.plan(ctx)
	return errors.Join(planErr, j.deliver(ctx))
}

// plan claims the messages of every company with reminders on whose
// local hour has come; one company's failure does not stop the others.
func (j *Job) plan(ctx context.Context) error {
	ids, err := j.Store.empresas(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		if err := j.planEmpresa(ctx, id); err != nil {
			errs = append(errs, fmt.Errorf("empresa %d: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

func (j *Job) planEmpresa(ctx context.Context, empresaID int64) error {
	rec, err := j.Zones.Record(ctx, empresaID)
	if err != nil {
		return err
	}
	now := j.Clock.Now()
	if now.In(rec.Zone).Hour() < j.Config.Hour {
		return nil
	}
	h, err := j.Hoje.Build(ctx, empresaID, hoje.Filtro{})
	if err != nil {
		return err
	}
	roster, err := j.Employees.Empresa(ctx, empresaID)
	if err != nil {
		return err
	}
	optouts, err := j.Store.optouts(ctx, empresaID)
	if err != nil {
		return err
	}
	hojeData, _ := time.Parse(time.DateOnly, h.Data)
	for _, e := range Impares(h, empresaID, roster, optouts, hojeData, j.Config.OptOutURL) {
		if _, err := j.Store.claim(ctx, e, now); err != nil {
			return err
		}
	}
	if rec.Email == "" {
		return nil
	}
	_, err = j.Store.claim(ctx, Resumo(h, empresaID, rec.Email, hojeData), now)
	return err
}

// deliver sends the messages due, each moved to enviando first.
func (j *Job) deliver(ctx context.Context) error {
	due, err := j.Store.due(ctx, j.Clock.Now(), batch)
	if err != nil {
		return err
	}
	for _, e := range due {
		ok, err := j.Store.start(ctx, e)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		sendErr := j.Sender.Send(ctx, mail.Message{To: e.Para, Subject: e.Assunto, Body: e.Corpo})
		next := retryAt(j.Clock.Now(), e.Tentativas+1, sendErr)
		if sendErr != nil {
			j.Failed.WithLabelValues(e.Tipo).Inc()
			j.Log.Warn("lembretes: delivery failed", "tipo", e.Tipo, "empresa", e.EmpresaID,
				"tentativa", e.Tentativas+1, "err", sendErr)
		} else {
			j.Sent.WithLabelValues(e.Tipo).Inc()
		}
		if err := j.Store.finish(context.WithoutCancel(ctx), e, j.Clock.Now(), sendErr, next); err != nil {
			return err
		}
	}
	return nil
}

// retryAt is when attempt n+1 of a message that failed attempt n goes:
// a minute after the first, doubling up to an hour; nil after the last
// attempt (or when it did not fail).
func retryAt(now time.Time, attempt int, failure error) *time.Time {
	if failure == nil || attempt >= maxAttempts {
		return nil
	}
	wait := firstRetry << (attempt - 1)
	if wait > lastRetry {
		wait = lastRetry
	}
	t := now.Add(wait)
	return &t
}

// Impares are the reminders of yesterday's odd days: one per employee
// with an odd number of punches on the workday before hojeData, his
// reminders on and an e-mail.
func Impares(h hoje.Hoje, empresaID int64, roster employee.Empresa, optouts map[int64]bool, hojeData time.Time, optOutURL string) []Envio {
	ontem := hojeData.AddDate(0, 0, -1)
	emails := make(map[int64]string, len(roster.Funcionarios))
	for _, f := range roster.Funcionarios {
		emails[f.ID] = f.Email
	}
	var out []Envio
	for _, d := range h.Pendencias.DiasImpares {
		if d.Data != ontem.Format(time.DateOnly) || optouts[d.FuncionarioID] || emails[d.FuncionarioID] == "" {
			continue
		}
		out = append(out, Envio{Tipo: TipoImpares, DestinatarioID: d.FuncionarioID, Data: ontem, EmpresaID: empresaID,
			Para: emails[d.FuncionarioID], Assunto: "Ponto: marcação faltando em " + ontem.Format("02/01/2006"),
			Corpo: corpoImpares(d, ontem, optOutURL)})
	}
	return out
}

func corpoImpares(d hoje.DiaPendente, dia time.Time, optOutURL string) string {
	sair := "Para não receber mais estes lembretes, desative-os no seu perfil do aplicativo de ponto."
	if optOutURL != "" {
		sair = "Para não receber mais estes lembretes: " + optOutURL
	}
	return fmt.Sprintf("Olá, %s.\n\nSua jornada de %s terminou com %d marcação(ões): um número ímpar, "+
		"então alguma entrada ou saída ficou sem registro.\nPeça o ajuste ou a inclusão da marcação no aplicativo "+
		"para que a empresa trate o dia antes do fechamento.\n\n%s\n", d.Nome, dia.Format("02/01/2006"), d.Marcacoes, sair)
}

// Resumo is the company's digest of day hojeData: who is late and absent
// now, and what waits for treatment.
func Resumo(h hoje.Hoje, empresaID int64, email string, hojeData time.Time) Envio {
	var b strings.Builder
	fmt.Fprintf(&b, "Resumo do dia %s (%s)\n\n", hojeData.Format("02/01/2006"), h.FusoHorario)
	for _, s := range []core.Situacao{core.SituacaoAtrasado, core.SituacaoAusente} {
		var nomes []string
		for _, p := range h.Funcionarios {
			if p.Situacao == s {
				nomes = append(nomes, p.Nome)
			}
		}
		fmt.Fprintf(&b, "%s: %d", rotulos[s], len(nomes))
		if len(nomes) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(nomes[:min(len(nomes), 20)], ", "))
			if len(nomes) > 20 {
				fmt.Fprintf(&b, " e mais %d", len(nomes)-20)
			}
		}
		b.WriteString("\n")
	}
	p := h.Pendencias
	fmt.Fprintf(&b, "\nPendências:\nAjustes a decidir: %d\nInclusões a decidir: %d\nDias com marcações ímpares desde %s: %d\nDias com alertas: %d\n",
		p.Ajustes, p.Solicitacoes, p.PeriodoAberto, len(p.DiasImpares), len(p.Alertas))
	if p.MesFechado != nil {
		fmt.Fprintf(&b, "Sem ciência do espelho de %s: %d\n", *p.MesFechado, len(p.SemCiencia))
	}
	b.WriteString("\nVeja o painel da empresa para tratar cada item. Os lembretes podem ser desligados nas configurações da empresa.\n")
	return Envio{Tipo: TipoResumo, DestinatarioID: empresaID, Data: hojeData, EmpresaID: empresaID, Para: email,
		Assunto: "Ponto: resumo do dia " + hojeData.Format("02/01/2006"), Corpo: b.String()}
}

var rotulos = map[core.Situacao]string{core.SituacaoAtrasado: "Atrasados", core.SituacaoAusente: "Ausentes"}
