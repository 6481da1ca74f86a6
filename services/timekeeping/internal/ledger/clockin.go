package ledger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ponto/ponto/pkg/domainerr"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// Clock-ins are written in batches (group commit). A company's punches
// must be numbered and chained one after the other, under its chain head's
// row lock; writing them one transaction each made that lock, and the
// commit's WAL flush, the cost of every punch (docs/performance.md). A
// lane instead takes every punch that arrived while its previous batch was
// being written and records them all in one transaction of two round
// trips: the chain heads, NSRs, hashes and statements are shared by the
// batch. Under no load a batch is one punch; under load it grows by
// itself, and so does what each commit carries.
//
// Companies are spread over the lanes by id, so a company's punches always
// meet in the same lane of a replica; lanes write in parallel. Between
// replicas the row lock still orders a company's punches, and a batch
// locks its companies in id order, so batches never deadlock.
const (
	// lanes is how many batches a replica writes at once, each on one
	// database connection. One: with four, batches under the spread
	// benchmark were a quarter of the size and PostgreSQL spent 0.40 ms of
	// CPU per punch instead of 0.22 (docs/performance.md).
	lanes = 1
	// maxBatch bounds the punches of one transaction.
	maxBatch = 128
	// batchTimeout bounds one batch's transaction: it outlives the
	// requests that queued it, which may give up earlier.
	batchTimeout = 10 * time.Second
)

// MaxEarlier bounds the earlier punches a clock-in answers with.
const MaxEarlier = 20

var errKeyReused = domainerr.Conflict("idempotencia_divergente",
	"Idempotency-Key já usada em outra marcação com dados diferentes")

// Marcacao is a clock-in to record.
type Marcacao struct {
	EmpresaID int64
	// EstabelecimentoID is the chain's establishment (Chain), 0 for the
	// principal one.
	EstabelecimentoID int64
	FuncionarioID     int64
	CPF               string
	// Nome is the employee's name, which the AFD's type-5 record carries.
	Nome           string
	Localizacao    string
	IdempotencyKey *string
	// Local is the geofence check of the position (nil when the company
	// has no work place).
	Local *Geofence
	// Coletor is the AFD's collector code the client sent (01 to 05).
	Coletor string
	// Zone is the employee's time zone and Escala his schedule: together
	// they decide the punch's workday (core.Jornada) and offset.
	Zone   *time.Location
	Escala *core.Escala
	// Offline is set for a punch recorded off-line and sent later (Anexo
	// IX item 5): nil for one made now.
	Offline *Offline
}

// Offline is what an off-line punch adds: the device's time of the punch
// (the server's recording time is the batch's), the device key that
// signed it, and whether its clock moved since its last on-line contact
// (core.AvaliarOffline: a punch for treatment).
type Offline struct {
	Horario       time.Time
	DispositivoID int64
	Divergente    bool
}

// punchTime is when p was made: the device's time if off-line, else now.
func (p Marcacao) punchTime(now time.Time) time.Time {
	if p.Offline != nil {
		return p.Offline.Horario
	}
	return now
}

// Geofence is where a punch fell against the company's work places: the
// nearest one, the distance to it, and whether it was outside all of them.
type Geofence struct {
	LocalTrabalhoID int64
	DistanciaMetros int
	Fora            bool
}

// ClockIn records p and returns it with the employee's earlier punches of
// its workday (at most MaxEarlier, oldest first); replayed is true when
// p's Idempotency-Key was already used by this employee, in which case the
// first punch is returned and nothing is written.
//
// The punch joins its company's lane and is written with the batch that
// lane writes next (record). Waiting ends with ctx: a punch whose request
// gave up before its batch took the chain heads is not written.
func (s *Ledger) ClockIn(ctx context.Context, p Marcacao) (Row, []*Row, bool, error) {
	c := &call{ctx: ctx, p: p, done: make(chan outcome, 1), queued: time.Now()}
	s.lanes[uint64(p.EmpresaID)%lanes].submit(s, c)
	var o outcome
	select {
	case o = <-c.done:
	case <-ctx.Done():
		return Row{}, nil, false, fmt.Errorf("ledger: waiting for the chain: %w", ctx.Err())
	}
	if o.err != nil {
		return Row{}, nil, false, o.err
	}
	if !o.replayed {
		return o.r, o.earlier, false, nil
	}
	if deref(o.r.Localizacao) != p.Localizacao {
		return Row{}, nil, false, errKeyReused
	}
	if o.twin {
		// The punch was recorded by an earlier batch: read what preceded it.
		var err error
		if o.earlier, err = earlierOf(ctx, s.db, o.r, MaxEarlier); err != nil {
			return Row{}, nil, false, err
		}
	}
	return o.r, o.earlier, true, nil
}

// chain is the chain p is appended to.
func (p Marcacao) chain() Chain {
	return Chain{EmpresaID: p.EmpresaID, EstabelecimentoID: p.EstabelecimentoID}
}

// call is a punch waiting in a lane.
type call struct {
	ctx  context.Context
	p    Marcacao
	done chan outcome // buffered: the lane never waits for the caller
	// jornada is the punch's workday when the batch read the chain heads.
	jornada time.Time
	// queued is when the call joined its lane (the batch-wait metric).
	queued time.Time
}

// outcome is what the lane answers a call. earlier points into the
// batch's rows, which nothing changes once the batch is committed: the
// answers render them without the lane copying them first. For a replay
// of a punch from an earlier batch (twin), the caller reads earlier.
type outcome struct {
	r        Row
	earlier  []*Row
	replayed bool
	twin     bool
	err      error
}

// lane queues punches and writes them in batches, one at a time. Its
// writer goroutine exists only while there is something to write.
type lane struct {
	mu      sync.Mutex
	queue   []*call
	writing bool
}

func (l *lane) submit(s *Ledger, c *call) {
	l.mu.Lock()
	l.queue = append(l.queue, c)
	start := !l.writing
	l.writing = true
	l.mu.Unlock()
	if start {
		go l.write(s)
	}
}

// write records the queue's punches batch after batch until it is empty.
func (l *lane) write(s *Ledger) {
	for {
		l.mu.Lock()
		n := min(len(l.queue), maxBatch)
		if n == 0 {
			l.queue, l.writing = nil, false
			l.mu.Unlock()
			return
		}
		batch := slices.Clone(l.queue[:n])
		l.queue = l.queue[n:]
		l.mu.Unlock()
		s.record(batch)
	}
}

// record writes one batch and answers each of its calls. A batch fails as
// a whole; when PostgreSQL refused it (a constraint, say), the punches are
// tried again one by one, so that one bad punch cannot fail the others.
func (s *Ledger) record(batch []*call) {
	live := batch[:0]
	for _, c := range batch {
		if err := c.ctx.Err(); err != nil {
			c.done <- outcome{err: err}
			continue
		}
		live = append(live, c)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(live[0].ctx), batchTimeout)
	defer cancel()
	start := time.Now()
	outs, err := s.commit(ctx, live)
	if err == nil {
		s.tellBatch(live, outs, start)
	}
	var pgErr *pgconn.PgError
	s.observe(live, err, errors.As(err, &pgErr))
	if err != nil && len(live) > 1 && errors.As(err, &pgErr) {
		for _, c := range live {
			s.record([]*call{c})
		}
		return
	}
	for i, c := range live {
		if err != nil {
			c.done <- outcome{err: err}
		} else {
			c.done <- outs[i]
		}
	}
}

// Availability follows whether punches can be written
// (disponibilidade.Monitor): the AFD's type-6 records.
type Availability interface {
	Refused(empresas []int64, at time.Time)
	Written(at time.Time)
}

// WatchAvailability has the store tell a of every batch written, and of
// every batch refused because the database could not be reached.
func (s *Ledger) WatchAvailability(a Availability) { s.availability = a }

// observe tells the availability watcher how a batch went: written, or
// refused by a database that did not answer (PostgreSQL's own refusals,
// such as a constraint, say nothing of availability).
func (s *Ledger) observe(calls []*call, err error, refusedByPostgres bool) {
	if s.availability == nil || refusedByPostgres {
		return
	}
	now := s.clock.Now()
	if err == nil {
		s.availability.Written(now)
		return
	}
	empresas := make([]int64, 0, len(calls))
	for _, c := range calls {
		empresas = append(empresas, c.p.EmpresaID)
	}
	s.availability.Refused(empresas, now)
}
