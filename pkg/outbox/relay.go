package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/svcclient"
)

// Event is a pending event as the relay hands it to its Sender.
type Event struct {
	// ID is unique per source service: "<origem>:<row id>".
	ID         string
	Origem     string
	EmpresaID  int64
	Sequencia  int64
	OcorridoEm time.Time
	Tipo       string
	// Dados is the payload Enqueue stored, as JSON.
	Dados json.RawMessage
}

// Sender delivers one event to timekeeping: its internal API's client
// (services/timekeeping/internalapi). nil means timekeeping answered 200
// (applied now, or before). Otherwise it returns an *OutOfOrder when
// timekeeping expects another sequence, or an error apierr.As reads, as
// pkg/svcclient makes them: a 4xx for an event refused, 502 for an answer
// outside the contract, 503 for timekeeping unreachable. Any other error
// is the sender's own bug (an event it cannot encode).
type Sender interface {
	Send(ctx context.Context, e Event) error
}

// OutOfOrder is timekeeping's refusal of an event that is not the next of
// its source for the company: Esperada is the sequence it expects.
type OutOfOrder struct {
	Esperada int64
	Err      error
}

func (e *OutOfOrder) Error() string {
	return fmt.Sprintf("outbox: out of order: expected %d: %v", e.Esperada, e.Err)
}

func (e *OutOfOrder) Unwrap() error { return e.Err }

// Config is the relay's configuration, read from the environment.
type Config struct {
	// URL is timekeeping's internal listener; empty turns the relay off
	// (the events then wait in the table).
	URL          string        `conf:"env:TIMEKEEPING_INTERNAL_URL,default:http://127.0.0.1:9084,help:timekeeping internal API base URL; empty keeps REP events pending"`
	PollInterval time.Duration `conf:"env:OUTBOX_POLL_INTERVAL,default:1s,help:how often the relay looks for pending REP events"`
	BackoffMin   time.Duration `conf:"env:OUTBOX_BACKOFF_MIN,default:1s,help:first wait after a failed delivery"`
	BackoffMax   time.Duration `conf:"env:OUTBOX_BACKOFF_MAX,default:5m,help:longest wait between deliveries of a failing company"`
	Timeout      time.Duration `conf:"env:OUTBOX_TIMEOUT,default:5s,help:timeout of one delivery"`
	Batch        int           `conf:"env:OUTBOX_BATCH,default:100,help:events read per company at a time"`
}

// Validate refuses settings the relay cannot run with.
func (c Config) Validate() error {
	var errs []error
	if c.URL != "" {
		if err := svcclient.URL(c.URL).Validate(); err != nil {
			errs = append(errs, fmt.Errorf("TIMEKEEPING_INTERNAL_URL %w", err))
		}
	}
	if c.PollInterval <= 0 || c.BackoffMin <= 0 || c.BackoffMax < c.BackoffMin || c.Timeout <= 0 {
		errs = append(errs, errors.New("OUTBOX_*: intervals must be positive and OUTBOX_BACKOFF_MAX at least OUTBOX_BACKOFF_MIN"))
	}
	if c.Batch < 1 || c.Batch > 10000 {
		errs = append(errs, errors.New("OUTBOX_BATCH must be between 1 and 10000"))
	}
	return errors.Join(errs...)
}

// Failure reasons, the label of the failures counter.
const (
	ReasonUnavailable = "indisponivel"      // connection error, timeout, 5xx
	ReasonOutOfOrder  = "fora_de_ordem"     // 409: timekeeping expects another sequence
	ReasonRejected    = "rejeitado"         // 4xx other than 409: a malformed event, a bug
	ReasonBadAnswer   = "resposta_invalida" // an answer outside the contract
	ReasonDatabase    = "banco"             // our own database failed
)

// lockNamespace is the first key of the per-company advisory lock that
// lets one replica at a time deliver a company's events.
const lockNamespace = 0x6f757462 // "outb"

// Relay delivers the pending events of one source service.
type Relay struct {
	db     *pgxpool.Pool
	origem string
	cfg    Config
	send   Sender
	log    *slog.Logger
	m      relayMetrics
	// retry holds the companies whose last delivery failed; only Run's
	// goroutine touches it.
	retry map[int64]*retryState
	now   func() time.Time
}

type retryState struct {
	failures int
	next     time.Time
}

// NewRelay returns the relay of origem ("employee", "company-billing"),
// which delivers through send (timekeeping's client at cfg.URL, with
// cfg.Timeout); its metrics are Collectors, for the service's registry.
func NewRelay(db *pgxpool.Pool, origem string, cfg Config, send Sender, log *slog.Logger) *Relay {
	return &Relay{
		db: db, origem: origem, cfg: cfg, send: send,
		log: log.With("component", "outbox"), m: newRelayMetrics(origem),
		retry: map[int64]*retryState{}, now: time.Now,
	}
}

// Collectors are the relay's metrics: pending events, lag, deliveries and
// failures by reason.
func (r *Relay) Collectors() []prometheus.Collector {
	return []prometheus.Collector{r.m.pending, r.m.lag, r.m.delivered, r.m.failures}
}

// Start registers the relay's metrics through register (a service's
// Metrics.MustRegister) and runs the relay in the background until ctx
// ends.
func (r *Relay) Start(ctx context.Context, register func(...prometheus.Collector)) {
	register(r.Collectors()...)
	go r.Run(ctx)
}

// Run delivers events until ctx ends. With no URL it only keeps the
// metrics current, so a pile-up still shows.
func (r *Relay) Run(ctx context.Context) {
	if r.cfg.URL == "" {
		r.log.WarnContext(ctx, "TIMEKEEPING_INTERNAL_URL is empty: REP events stay pending")
	}
	t := time.NewTicker(r.cfg.PollInterval)
	defer t.Stop()
	for {
		if err := r.Pass(ctx); err != nil && ctx.Err() == nil {
			r.log.WarnContext(ctx, "outbox pass failed", "err", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Pass refreshes the metrics and delivers what is due of every company
// with pending events. A company's failure only delays that company.
func (r *Relay) Pass(ctx context.Context) error {
	empresas, err := r.pending(ctx)
	if err != nil {
		r.m.failures.WithLabelValues(ReasonDatabase).Inc()
		return err
	}
	if r.cfg.URL == "" {
		return nil
	}
	now := r.now()
	for _, id := range empresas {
		if st := r.retry[id]; st != nil && now.Before(st.next) {
			continue
		}
		if err := r.deliverEmpresa(ctx, id); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.backOff(id)
			continue
		}
		delete(r.retry, id)
	}
	_, err = r.pending(ctx) // the metrics as the pass left them
	return err
}

// pending sets the gauges and lists the companies with pending events.
func (r *Relay) pending(ctx context.Context) ([]int64, error) {
	var count int64
	var lag float64
	err := r.db.QueryRow(ctx, `SELECT count(*), COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - min(ocorrido_em)), 0)::float8
		FROM outbox_eventos WHERE enviado_em IS NULL`).Scan(&count, &lag)
	if err != nil {
		return nil, fmt.Errorf("outbox: count pending: %w", err)
	}
	r.m.pending.Set(float64(count))
	r.m.lag.Set(max(lag, 0))
	if count == 0 {
		return nil, nil
	}
	rows, _ := r.db.Query(ctx, `SELECT DISTINCT empresa_id FROM outbox_eventos WHERE enviado_em IS NULL ORDER BY empresa_id`)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("outbox: list companies: %w", err)
	}
	return ids, nil
}

// backOff schedules the next attempt of a failing company: exponential
// from BackoffMin, capped at BackoffMax, with ±20% jitter so replicas and
// companies do not retry in step.
func (r *Relay) backOff(empresaID int64) {
	st := r.retry[empresaID]
	if st == nil {
		st = &retryState{}
		r.retry[empresaID] = st
	}
	st.failures++
	d := r.cfg.BackoffMin
	for i := 1; i < st.failures && d < r.cfg.BackoffMax; i++ {
		d *= 2
	}
	d = min(d, r.cfg.BackoffMax)
	d = time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	st.next = r.now().Add(d)
}

// event is a pending row.
type event struct {
	id         int64
	empresaID  int64
	sequencia  int64
	tipo       string
	dados      []byte
	ocorridoEm time.Time
}

// deliverEmpresa sends the company's pending events in sequence, one at
// a time, marking each sent after its 200, and stops at the first
// failure. The advisory lock (held by the session, so a dead replica
// releases it) keeps another replica off the company meanwhile.
func (r *Relay) deliverEmpresa(ctx context.Context, empresaID int64) error {
	conn, err := r.db.Acquire(ctx)
	if err != nil {
		r.m.failures.WithLabelValues(ReasonDatabase).Inc()
		return fmt.Errorf("outbox: acquire: %w", err)
	}
	defer conn.Release()
	var locked bool
	key := int32(empresaID) //nolint:gosec // a collision only makes two companies share a lock
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, lockNamespace, key).Scan(&locked); err != nil {
		r.m.failures.WithLabelValues(ReasonDatabase).Inc()
		return fmt.Errorf("outbox: lock: %w", err)
	}
	if !locked {
		return nil // another replica is on it
	}
	defer func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1, $2)`, lockNamespace, key); err != nil {
			conn.Conn().Close(context.WithoutCancel(ctx)) // a closed session drops its locks
		}
	}()
	for {
		rows, _ := conn.Query(ctx, `SELECT id, empresa_id, sequencia, tipo, dados, ocorrido_em FROM outbox_eventos
			WHERE empresa_id = $1 AND enviado_em IS NULL ORDER BY sequencia LIMIT $2`, empresaID, r.cfg.Batch)
		evs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (event, error) {
			var e event
			err := row.Scan(&e.id, &e.empresaID, &e.sequencia, &e.tipo, &e.dados, &e.ocorridoEm)
			return e, err
		})
		if err != nil {
			r.m.failures.WithLabelValues(ReasonDatabase).Inc()
			return fmt.Errorf("outbox: read events: %w", err)
		}
		for _, e := range evs {
			if err := r.deliver(ctx, conn, e); err != nil {
				return err
			}
		}
		if len(evs) < r.cfg.Batch {
			return nil
		}
	}
}

// deliver posts one event and records the outcome.
func (r *Relay) deliver(ctx context.Context, conn *pgxpool.Conn, e event) error {
	out := r.post(ctx, e)
	if out.reason == "" {
		if _, err := conn.Exec(ctx, `UPDATE outbox_eventos SET enviado_em = now(), tentativas = tentativas + 1 WHERE id = $1`, e.id); err != nil {
			// Sent but not marked: it goes again, and timekeeping answers
			// aplicado=false for the repeat.
			r.m.failures.WithLabelValues(ReasonDatabase).Inc()
			return fmt.Errorf("outbox: mark sent: %w", err)
		}
		r.m.delivered.Inc()
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	r.m.failures.WithLabelValues(out.reason).Inc()
	log := r.log.With("empresa_id", e.empresaID, "evento", r.eventID(e), "sequencia", e.sequencia, "motivo", out.reason)
	if _, err := conn.Exec(ctx, `UPDATE outbox_eventos SET tentativas = tentativas + 1 WHERE id = $1`, e.id); err != nil {
		log.WarnContext(ctx, "outbox: count attempt", "err", err.Error())
	}
	switch {
	case out.reason == ReasonOutOfOrder && out.esperada >= 1 && out.esperada < e.sequencia:
		// timekeeping lacks events this side holds as sent (its data was
		// restored, say): send them again from the one it expects. Those
		// it does have come back aplicado=false.
		_, err := conn.Exec(ctx, `UPDATE outbox_eventos SET enviado_em = NULL
			WHERE empresa_id = $1 AND sequencia >= $2 AND enviado_em IS NOT NULL`, e.empresaID, out.esperada)
		log.WarnContext(ctx, "REP event out of order: sending again from the expected sequence", "esperada", out.esperada, "err", errString(err))
	case out.reason == ReasonRejected || out.reason == ReasonOutOfOrder:
		log.ErrorContext(ctx, "REP event refused by timekeeping: kept and retried", "esperada", out.esperada, "err", out.err.Error())
	default:
		log.WarnContext(ctx, "REP event not delivered: kept and retried", "err", out.err.Error())
	}
	return out.err
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// outcome of one post: reason is "" on a 200.
type outcome struct {
	reason   string
	esperada int64
	err      error
}

// post sends one event and sorts out the answer.
func (r *Relay) post(ctx context.Context, e event) outcome {
	err := r.send.Send(ctx, Event{ID: r.eventID(e), Origem: r.origem, EmpresaID: e.empresaID, Sequencia: e.sequencia,
		OcorridoEm: e.ocorridoEm, Tipo: e.tipo, Dados: e.dados})
	if err == nil {
		return outcome{}
	}
	var fora *OutOfOrder
	if errors.As(err, &fora) {
		return outcome{reason: ReasonOutOfOrder, esperada: fora.Esperada,
			err: fmt.Errorf("outbox: out of order: sent %d, expected %d", e.sequencia, fora.Esperada)}
	}
	ae, ok := apierr.As(err)
	switch {
	case ok && ae.Status == http.StatusBadGateway:
		return outcome{reason: ReasonBadAnswer, err: err}
	case ok && ae.Status > http.StatusInternalServerError:
		return outcome{reason: ReasonUnavailable, err: err}
	}
	// A 4xx is a bug timekeeping found; anything else (a 500 from the
	// client, an error of its own) one this side made.
	return outcome{reason: ReasonRejected, err: err}
}

// eventID is the event's id on the wire: unique per source service.
func (r *Relay) eventID(e event) string { return fmt.Sprintf("%s:%d", r.origem, e.id) }
