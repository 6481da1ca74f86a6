// Package chainaudit re-checks, in production, every company's chain of
// REP records: the NSR gapless over every record type (punches and AFD
// type-5 records), each punch's hash recomputed from its stored fields
// with its own rule version (core.VerifyMarcacao), and the chain head
// (the ledger's) on the last record. It is incremental: each company's audit
// goes on from the last NSR it verified (auditorias_cadeia), so a run
// reads only the records written since the previous one, whatever the
// size of the table. A broken chain stays flagged, with its NSR, until
// someone looks into it: it is exported as a metric and logged.
//
// Going on from a checkpoint trusts what is behind it: a record changed
// there by someone who can bypass the tables' append-only triggers (the
// database's owner) would never be read again. So every Limits.Review the
// audit also reviews each company's records from NSR 1 up to its
// checkpoint, in the same slices and at the same pace, and flags a break
// it finds there like any other.
//
// The first pass over a large table (a new deployment over years of
// records, or 10 million at make bench BENCH_SCALE=10) is bounded: each
// transaction verifies one slice of a company's records and saves how far
// it got, and a rate caps the records verified per second, so that the
// pass neither holds one snapshot (and vacuum's horizon) for minutes nor
// takes the CPU the punches need.
//
// It is a package of its own, outside internal/, so that the benchmark
// measures the service's own audit (tools/bench).
package chainaudit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// lockKey is the advisory lock that lets one replica audit at a time.
const lockKey = 0x706f6e746f // "ponto"

// Limits bound an audit's work.
type Limits struct {
	// Slice is the most records one transaction verifies (0: a company's
	// records since its last audit in one transaction).
	Slice int64
	// Rate is the most records verified per second (0: no limit).
	Rate float64
	// Review is how long a company's records behind its checkpoint go
	// without being verified again from NSR 1 (0: never).
	Review time.Duration
}

// Auditor audits chains.
type Auditor struct {
	db       *pgxpool.Pool
	log      *slog.Logger
	clock    *clock.Clock
	slice    int64
	pace     *rate.Limiter // nil: no limit
	review   time.Duration
	broken   prometheus.Gauge
	verified prometheus.Counter
	runs     *prometheus.CounterVec
}

// New returns an auditor on db within lim; clk dates the breaks it
// records.
func New(db *pgxpool.Pool, log *slog.Logger, clk *clock.Clock, lim Limits) *Auditor {
	slice := lim.Slice
	if slice <= 0 {
		slice = math.MaxInt64
	}
	var pace *rate.Limiter
	if lim.Rate > 0 {
		// A burst of one slice: a slice is verified at once, then the
		// audit waits for the rate to catch up.
		pace = rate.NewLimiter(rate.Limit(lim.Rate), int(min(slice, math.MaxInt32)))
	}
	return &Auditor{db: db, log: log, clock: clk, slice: slice, pace: pace, review: lim.Review,
		broken: prometheus.NewGauge(prometheus.GaugeOpts{Name: "ponto_chain_broken_companies",
			Help: "Companies whose chain of REP records the audit found broken."}),
		verified: prometheus.NewCounter(prometheus.CounterOpts{Name: "ponto_chain_verified_records_total",
			Help: "REP records (punches and type-5 records) the chain audit verified."}),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ponto_chain_audit_runs_total",
			Help: "Chain audit runs, by result (ok, error)."}, []string{"result"}),
	}
}

// Collectors are the audit's metrics, to register once.
func (a *Auditor) Collectors() []prometheus.Collector {
	return []prometheus.Collector{a.broken, a.verified, a.runs}
}

// Run audits every interval until ctx ends. Replicas take turns: a run
// happens only in the replica holding the advisory lock.
func (a *Auditor) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := a.Once(ctx); err != nil && ctx.Err() == nil {
			a.log.Error("chain audit failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Result is what one run did.
type Result struct {
	Companies int   // companies whose chain moved, or whose review was due, and was checked
	Records   int64 // records verified after the checkpoints
	Reviewed  int64 // records verified again behind the checkpoints (Limits.Review)
	Broken    int   // companies flagged broken (all of them, not only this run's)
	Skipped   bool  // another replica holds the lock
}

// Once audits every company whose chain moved since its last audit, and
// reviews those whose review is due.
func (a *Auditor) Once(ctx context.Context) (Result, error) {
	var res Result
	conn, err := a.db.Acquire(ctx)
	if err != nil {
		return res, fmt.Errorf("chainaudit: acquire: %w", err)
	}
	defer conn.Release()
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, lockKey).Scan(&locked); err != nil {
		return res, fmt.Errorf("chainaudit: lock: %w", err)
	}
	if !locked {
		res.Skipped = true
		return res, nil
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockKey) }()
	// The companies never audited, those whose chain moved, and those
	// whose review is due (a company's first audit counts as its review).
	rows, _ := conn.Query(ctx, `SELECT empresa_id, estabelecimento_id, COALESCE(revisao_devida, false) FROM (
			SELECT c.empresa_id, c.estabelecimento_id, a.empresa_id IS NULL AS nova,
				a.nsr_quebra IS NULL AND a.ultimo_nsr < c.ultimo_nsr AS moveu,
				a.nsr_quebra IS NULL AND $1 AND (a.revisao_nsr IS NOT NULL OR a.revisada_em IS NULL
					OR a.revisada_em <= $2) AS revisao_devida
			FROM (`+ledger.HeadsSQL+`) c LEFT JOIN auditorias_cadeia a
				ON a.empresa_id = c.empresa_id AND a.estabelecimento_id = c.estabelecimento_id) s
		WHERE nova OR moveu OR revisao_devida
		ORDER BY empresa_id, estabelecimento_id`, a.review > 0, a.clock.Now().Add(-a.review))
	type due struct {
		id     ledger.Chain
		review bool
	}
	companies, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (due, error) {
		var d due
		return d, row.Scan(&d.id.EmpresaID, &d.id.EstabelecimentoID, &d.review)
	})
	if err != nil {
		a.runs.WithLabelValues("error").Inc()
		return res, fmt.Errorf("chainaudit: companies: %w", err)
	}
	for _, d := range companies {
		n, err := a.Company(ctx, d.id)
		if err == nil && d.review {
			var r int64
			r, err = a.Review(ctx, d.id)
			res.Reviewed += r
		}
		if err != nil {
			a.runs.WithLabelValues("error").Inc()
			return res, err
		}
		res.Companies++
		res.Records += n
	}
	if err := a.db.QueryRow(ctx, `SELECT count(*) FROM auditorias_cadeia WHERE nsr_quebra IS NOT NULL`).Scan(&res.Broken); err != nil {
		return res, fmt.Errorf("chainaudit: broken: %w", err)
	}
	a.broken.Set(float64(res.Broken))
	a.runs.WithLabelValues("ok").Inc()
	return res, nil
}

// records are a company's REP records after NSR $2, up to NSR $3, in
// NSR order: punches with what their hash covers, and the records of
// types 2, 5 and 6.
const records = `SELECT nsr, true, horario_registro, fuso_minutos, cpf, coletor, hash::text, hash_versao,
		gravado_em, offline
		FROM registros_ponto WHERE empresa_id = $1 AND estabelecimento_id = $4 AND nsr > $2 AND nsr <= $3
	UNION ALL
	SELECT nsr, false, gravado_em, fuso_minutos, cpf, '', '', 0, NULL::timestamptz, false
		FROM empregados_rep WHERE empresa_id = $1 AND estabelecimento_id = $4 AND nsr > $2 AND nsr <= $3
	UNION ALL
	SELECT nsr, false, gravado_em, fuso_minutos, '', '', '', 0, NULL::timestamptz, false
		FROM empresas_rep WHERE empresa_id = $1 AND estabelecimento_id = $4 AND nsr > $2 AND nsr <= $3
	UNION ALL
	SELECT nsr, false, gravado_em, fuso_minutos, '', '', '', 0, NULL::timestamptz, false
		FROM eventos_rep WHERE empresa_id = $1 AND estabelecimento_id = $4 AND nsr > $2 AND nsr <= $3
	ORDER BY 1`

// errBroken is a chain that does not verify.
var errBroken = errors.New("chainaudit: broken chain")

// Company audits company empresaID's records written since its last
// audit, one slice per transaction, and returns how many it verified. A
// break is recorded (and logged), not returned: only a failure to read is
// an error.
func (a *Auditor) Company(ctx context.Context, c ledger.Chain) (int64, error) {
	return a.slices(ctx, c, a.auditSlice)
}

// Review verifies company empresaID's records again from NSR 1 up to its
// checkpoint when Limits.Review has passed since the last review (or one
// is under way), one slice per transaction, and returns how many it
// verified. As in Company, a break is recorded, not returned.
func (a *Auditor) Review(ctx context.Context, c ledger.Chain) (int64, error) {
	return a.slices(ctx, c, a.reviewSlice)
}

// slices runs slice until it is done, at the audit's pace, each slice in
// a read-only transaction of its own: its snapshot is what it verifies, and
// it holds that snapshot (and vacuum's horizon) no longer than one slice.
func (a *Auditor) slices(ctx context.Context, c ledger.Chain,
	slice func(context.Context, pgx.Tx, ledger.Chain) (int64, bool, error)) (int64, error) {
	var verified int64
	for {
		var n int64
		var done bool
		err := pgx.BeginTxFunc(ctx, a.db, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
			func(tx pgx.Tx) (err error) {
				n, done, err = slice(ctx, tx, c)
				return err
			})
		if err != nil {
			n = 0 // nothing saved
		}
		verified += n
		a.verified.Add(float64(n))
		if err == nil && a.pace != nil {
			// Whether or not the company is done: the next company's
			// first slice waits for this one's records too.
			err = a.pace.WaitN(ctx, int(n))
		}
		if err != nil {
			return verified, fmt.Errorf("chainaudit: chain %v: %w", c, err)
		}
		if done {
			return verified, nil
		}
	}
}

// auditSlice verifies, in tx, the next slice of company empresaID's
// records after its last audit, saves how far it got, and says whether
// the audit of the company is done: the chain head reached, or a break
// found.
func (a *Auditor) auditSlice(ctx context.Context, tx pgx.Tx, c ledger.Chain) (verified int64, done bool, err error) {
	start, err := ReadChainCheckpoint(ctx, tx, c)
	if err != nil {
		return 0, false, err
	}
	heads, err := ledger.Heads(ctx, tx, c)
	if err != nil {
		return 0, false, err
	}
	head := heads[c]
	end := chainEnd{nsr: head.NSR, hash: head.Hash, head: true}
	if head.NSR-start.NSR > a.slice {
		end = chainEnd{nsr: start.NSR + a.slice}
	}
	last, hash, n, brk := verify(ctx, tx, c, start.NSR, start.Hash, end)
	if brk != nil && !errors.Is(brk, errBroken) {
		return 0, false, brk
	}
	return n, end.head || brk != nil, a.save(ctx, c, last, hash, brk)
}

// reviewSlice verifies, in tx, the next slice of the review of company
// empresaID's records, saves how far it got, and says whether the review
// is done: the checkpoint reached (where the recomputed chain must meet
// the checkpoint's hash), a break found, or no review due.
func (a *Auditor) reviewSlice(ctx context.Context, tx pgx.Tx, c ledger.Chain) (verified int64, done bool, err error) {
	cp, err := ReadChainCheckpoint(ctx, tx, c)
	if err != nil {
		return 0, false, err
	}
	r := cp.review
	due := r.underWay || r.endedAt == nil || !r.endedAt.After(a.clock.Now().Add(-a.review))
	if cp.Quebra != 0 || !due {
		return 0, true, nil
	}
	end := chainEnd{nsr: min(cp.NSR, r.nsr+a.slice)}
	last, hash, n, brk := verify(ctx, tx, c, r.nsr, r.hash, end)
	done = last == cp.NSR || brk != nil
	if brk == nil && last == cp.NSR && hash != cp.Hash {
		brk = fmt.Errorf("%w: the review's chain at NSR %d does not meet the checkpoint's hash", errBroken, last)
	}
	if brk != nil && !errors.Is(brk, errBroken) {
		return 0, false, brk
	}
	return n, done, a.saveReview(ctx, c, last, hash, done, brk)
}

// saveReview records how far the review got: the NSR and hash to go on
// from, or, when done, when it ended; a break as save records one.
func (a *Auditor) saveReview(ctx context.Context, c ledger.Chain, last int64, hash string, done bool, brk error) error {
	if brk != nil {
		at := last + 1
		a.log.Error("chain audit: broken chain found by the review", "empresaId", c.EmpresaID, "estabelecimento", c.EstabelecimentoID, "nsr", at, "err", brk)
		_, err := a.db.Exec(ctx, `UPDATE auditorias_cadeia SET nsr_quebra = $2, erro = $3, revisao_nsr = NULL,
			revisao_hash = NULL WHERE empresa_id = $1 AND estabelecimento_id = $4`, c.EmpresaID, at, brk.Error(),
			c.EstabelecimentoID)
		return err
	}
	if done {
		_, err := a.db.Exec(ctx, `UPDATE auditorias_cadeia SET revisao_nsr = NULL, revisao_hash = NULL, revisada_em = $2
			WHERE empresa_id = $1 AND estabelecimento_id = $3`, c.EmpresaID, a.clock.Now(), c.EstabelecimentoID)
		return err
	}
	var h *string
	if hash != "" {
		h = &hash
	}
	_, err := a.db.Exec(ctx, `UPDATE auditorias_cadeia SET revisao_nsr = $2, revisao_hash = $3
		WHERE empresa_id = $1 AND estabelecimento_id = $4`, c.EmpresaID, last, h, c.EstabelecimentoID)
	return err
}

// chainEnd is where a slice of the audit stops: the chain head (its NSR
// and hash), or an NSR short of it.
type chainEnd struct {
	nsr  int64
	hash string
	head bool
}

// verify checks the records after NSR from (whose last punch hash is
// prev) up to end, and returns the last NSR and punch hash verified, how
// many records it verified, and errBroken (wrapped, with the NSR) at the
// first break.
func verify(ctx context.Context, tx pgx.Tx, c ledger.Chain, from int64, prev string, end chainEnd) (int64, string, int64, error) {
	rows, err := tx.Query(ctx, records, c.EmpresaID, from, end.nsr, c.EstabelecimentoID)
	if err != nil {
		return from, prev, 0, err
	}
	defer rows.Close()
	last, n := from, int64(0)
	var (
		nsr      int64
		isPunch  bool
		at       time.Time
		offset   int16
		cpf      string
		coletor  string
		hash     string
		versao   int16
		gravado  *time.Time
		offline  bool
		scanArgs = []any{&nsr, &isPunch, &at, &offset, &cpf, &coletor, &hash, &versao, &gravado, &offline}
	)
	for rows.Next() {
		if err := rows.Scan(scanArgs...); err != nil {
			return last, prev, n, err
		}
		if nsr != core.NextNSR(last) {
			return last, prev, n, fmt.Errorf("%w: NSR %d after %d (a gap or a repetition)", errBroken, nsr, last)
		}
		if isPunch {
			m := core.Marcacao{NSR: nsr, Horario: at, OffsetMinutes: int(offset), CPF: cpf, Coletor: coletor,
				Versao: int(versao), OffLine: offline}
			if gravado != nil {
				m.Gravacao = *gravado
			}
			if err := core.VerifyMarcacao(m, prev, hash); err != nil {
				return last, prev, n, fmt.Errorf("%w: NSR %d: %v", errBroken, nsr, err)
			}
			prev = hash
		}
		last = nsr
		n++
	}
	if err := rows.Err(); err != nil {
		return last, prev, n, err
	}
	switch {
	case end.head && (last != end.nsr || prev != end.hash):
		return last, prev, n, fmt.Errorf("%w: the chain head (NSR %d) is not the last record (NSR %d)", errBroken, end.nsr, last)
	case last != end.nsr:
		return last, prev, n, fmt.Errorf("%w: no record with NSR %d (a gap)", errBroken, core.NextNSR(last))
	}
	return last, prev, n, nil
}

// save records how far the audit got, and the break if there was one.
func (a *Auditor) save(ctx context.Context, c ledger.Chain, last int64, hash string, brk error) error {
	var quebra *int64
	var msg *string
	if brk != nil {
		at := last + 1
		quebra, msg = &at, new(brk.Error())
		a.log.Error("chain audit: broken chain", "empresaId", c.EmpresaID, "estabelecimento", c.EstabelecimentoID, "nsr", at, "err", brk)
	}
	var h *string
	if hash != "" {
		h = &hash
	}
	// The transaction is read-only: the verdict is written apart.
	// A company's first audit reads its chain from NSR 1: it counts as a
	// review (revisada_em), set on the row's creation only.
	_, err := a.db.Exec(ctx, `INSERT INTO auditorias_cadeia (empresa_id, estabelecimento_id, ultimo_nsr, ultimo_hash,
			verificado_em, nsr_quebra, erro, revisada_em)
		VALUES ($1, $7, $2, $3, $4, $5, $6, $4)
		ON CONFLICT (empresa_id, estabelecimento_id) DO UPDATE SET ultimo_nsr = $2, ultimo_hash = $3, verificado_em = $4,
			nsr_quebra = $5, erro = $6`, c.EmpresaID, last, h, a.clock.Now(), quebra, msg, c.EstabelecimentoID)
	return err
}

// Checkpoint is how far the audit verified a company's chain.
type Checkpoint struct {
	NSR          int64      // the last record verified (0: none)
	Hash         string     // the hash of the last punch up to NSR ("" before the first)
	Quebra       int64      // the first NSR that does not verify (0: no break found)
	VerificadoEm *time.Time // when the audit last went over the chain (nil: never)
	review       reviewState
}

// reviewState is where the review of the records behind the checkpoint
// stands: under way up to nsr (whose last punch hash is hash), and when
// the last one ended (nil: never).
type reviewState struct {
	underWay bool
	nsr      int64
	hash     string
	endedAt  *time.Time
}

// ReadChainCheckpoint returns chain c's checkpoint, read through q (the
// pool, or the audit's own transaction); never audited: the zero
// Checkpoint.
func ReadChainCheckpoint(ctx context.Context, q database.RowQuerier, c ledger.Chain) (Checkpoint, error) {
	var cp Checkpoint
	var hash, reviewHash *string
	var quebra, reviewNSR *int64
	var at time.Time
	err := q.QueryRow(ctx, `SELECT ultimo_nsr, ultimo_hash::text, nsr_quebra, verificado_em,
			revisao_nsr, revisao_hash::text, revisada_em
		FROM auditorias_cadeia WHERE empresa_id = $1 AND estabelecimento_id = $2`, c.EmpresaID, c.EstabelecimentoID).
		Scan(&cp.NSR, &hash, &quebra, &at, &reviewNSR, &reviewHash, &cp.review.endedAt)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Checkpoint{}, nil
	case err != nil:
		return cp, fmt.Errorf("chainaudit: checkpoint: %w", err)
	}
	cp.Hash, cp.VerificadoEm = deref(hash), &at
	if quebra != nil {
		cp.Quebra = *quebra
	}
	if reviewNSR != nil {
		cp.review.underWay, cp.review.nsr, cp.review.hash = true, *reviewNSR, deref(reviewHash)
	}
	return cp, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
