package employee

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"

	"github.com/ponto/ponto/pkg/changefeed"
	"github.com/ponto/ponto/pkg/domainerr"
)

// CacheSize bounds the clock-in cache. An entry is at most about 4 KiB
// (the record rendered as PublicJSON is less), so a full cache holds under
// 75 MiB, within a pod's 256 MiB. Past that the least recently used are
// dropped: a replica that sees more than 20,000 employees within the
// entries' life fetches the least active again.
const CacheSize = 20_000

// Feed tells whether every change of the employee service made more than
// within ago is known: a changefeed.Watcher, whose changes the cache
// Forgets.
type Feed interface {
	Current(within time.Duration) bool
}

// clockSkew widens a change's time when deciding which records it makes
// stale: the relay that stamped it runs on another machine.
const clockSkew = 5 * time.Second

// Cached answers Funcionario from memory after one successful call to the
// employee service. It serves the clock-in only: every punch needs the
// employee, and a record rarely changes.
//
// How long a record is served: up to its TTL (short: 30 s by default)
// always, and up to its max age (hours) while the feed of the employee
// service's changes is current (Feed), which forgets a changed record
// within about a second and a half (Forget, pkg/changefeed). So the
// employees of a shift change, who punched hours before, are mostly
// known, and a dead feed brings the cache back to its TTL.
//
// Staleness: a change made in the employee service (new name, CPF,
// schedule or zone) reaches clock-ins about a second and a half later
// while the feed is current, at most one TTL later otherwise. Within that
// window the AFD type-5 alteration record for a new name or CPF is written
// with the first punch after the record is forgotten. A deactivated
// employee's tokens are revoked at once (pkg/revocation), whatever the
// cache holds. Routes that must see the current record (the absence,
// receipt, timesheet and report) call Client directly.
//
// Only successes are kept: a 404 or a failure is asked again on the next
// punch. Misses are fetched in batches: one call at a time asks for every
// employee missed while the previous call was out (Client.Funcionarios),
// so concurrent misses for one employee make one call, and a burst of
// first punches (a shift starting) costs one request per batch rather than
// one per punch. The work schedules that come with the records are kept
// too, by company, and each call names those of its employees' companies
// (known), which the employee service then neither reads nor sends.
type Cached struct {
	client  *Client
	entries *expirable.LRU[cacheKey, entry] // nil: cache disabled
	ttl     time.Duration
	feed    Feed // nil: entries live ttl

	mu       sync.Mutex
	waiting  map[int64][]waiter // by employee id, not yet asked for
	fetching bool
	// changes are the feed's recent changes (Forget).
	changes changeSet
	// schedules are the work schedules fetched with records, by company
	// and id: a fetch names those of its employees' companies, and the
	// employee service leaves them out of its answer (known).
	schedules schedules
	now       func() time.Time
}

// schedules are cached work schedules by company and id; each is served
// as long as a record fetched with it would be (fresh).
type schedules struct {
	byCompany map[int64]map[int64]schedule
	n         int
}

// schedule is a cached schedule and when the fetch that brought it began.
type schedule struct {
	e  *Escala
	at time.Time
}

// maxSchedules bounds the schedules kept: past it, they are all
// forgotten and fetched again as needed.
const maxSchedules = CacheSize

// cacheKey names a record by its company and id, so a token of another
// company never finds it (Client answers it 404).
type cacheKey struct{ empresaID, id int64 }

// entry is a cached record and when the call that fetched it began: a
// change published after that moment may have missed it.
type entry struct {
	f  Funcionario
	at time.Time
}

// waiter is a miss waiting for the next fetch.
type waiter struct {
	ctx       context.Context
	empresaID int64
	answer    chan fetched // buffered: the fetch never waits for it
}

type fetched struct {
	f   Funcionario
	err error
}

// fetchTimeout bounds one batched call; it outlives the requests waiting
// on it, which may give up earlier.
const fetchTimeout = 10 * time.Second

// NewCached puts a cache of at most size records, each kept for ttl, in
// front of client; a ttl of zero (or less) disables it, every call going to
// the employee service.
func NewCached(client *Client, ttl time.Duration, size int) *Cached {
	return NewFollowing(client, ttl, size, nil, 0)
}

// NewFollowing is NewCached whose records also live up to maxAge while
// feed is current; the feed's changes must reach Forget. A nil feed, or a
// maxAge not above ttl, is NewCached.
func NewFollowing(client *Client, ttl time.Duration, size int, feed Feed, maxAge time.Duration) *Cached {
	c := &Cached{client: client, ttl: ttl, waiting: map[int64][]waiter{}, now: time.Now}
	if ttl <= 0 {
		return c
	}
	life := ttl
	if feed != nil && maxAge > ttl {
		c.feed, life = feed, maxAge
	}
	c.entries = expirable.NewLRU[cacheKey, entry](size, nil, life)
	return c
}

// get is the cached record of k while it may be served (fresh).
func (c *Cached) get(k cacheKey) (Funcionario, bool) {
	e, ok := c.entries.Get(k)
	if !ok || !c.fresh(e.at) {
		return Funcionario{}, false
	}
	return e.f, true
}

// fresh tells whether what a fetch that began at at brought may be
// served: within its TTL, or within its max age (the entries' life)
// while the feed is current.
func (c *Cached) fresh(at time.Time) bool {
	return c.now().Sub(at) < c.ttl || (c.feed != nil && c.feed.Current(c.ttl))
}

// Forget drops the records the changes of the employee service may have
// made stale: those fetched before a change (give or take the machines'
// clocks) of its employee, of every employee of its company when it
// names none, of everyone when it names no company; and the kept
// schedules of a company changed, or all of them. The changes are also
// remembered for as long as a fetch may last, so that a record fetched
// before a change and arriving after it is not kept (answer).
func (c *Cached) Forget(changes ...changefeed.Change) {
	if c.entries == nil || len(changes) == 0 {
		return
	}
	var batch changeSet
	batch.add(changes, time.Time{})
	c.mu.Lock()
	c.changes.add(changes, c.now())
	c.schedules.forget(batch)
	c.mu.Unlock()
	if !batch.all.IsZero() {
		c.entries.Purge()
		return
	}
	// A company's change means a pass over every record, which covers
	// the employees' changes too; without one, only theirs are looked up.
	keys := slices.Collect(maps.Keys(batch.employees))
	if len(batch.companies) > 0 {
		keys = c.entries.Keys()
	}
	for _, k := range keys {
		if e, ok := c.entries.Peek(k); ok && batch.stale(k, e.at) {
			c.entries.Remove(k)
		}
	}
}

// changeSet is the latest change of each employee and company, and of
// everything.
type changeSet struct {
	employees map[cacheKey]time.Time
	companies map[int64]time.Time
	all       time.Time
}

// add keeps changes, and forgets those older than a fetch may last before
// now (a zero now forgets nothing).
func (s *changeSet) add(changes []changefeed.Change, now time.Time) {
	if s.employees == nil {
		s.employees, s.companies = map[cacheKey]time.Time{}, map[int64]time.Time{}
	}
	later := func(a, b time.Time) time.Time {
		if b.After(a) {
			return b
		}
		return a
	}
	for _, ch := range changes {
		switch {
		case ch.EmpresaID == 0:
			s.all = later(s.all, ch.At)
		case ch.FuncionarioID == 0:
			s.companies[ch.EmpresaID] = later(s.companies[ch.EmpresaID], ch.At)
		default:
			k := cacheKey{ch.EmpresaID, ch.FuncionarioID}
			s.employees[k] = later(s.employees[k], ch.At)
		}
	}
	if now.IsZero() {
		return
	}
	cutoff := now.Add(-fetchTimeout - 2*clockSkew)
	maps.DeleteFunc(s.employees, func(_ cacheKey, at time.Time) bool { return at.Before(cutoff) })
	maps.DeleteFunc(s.companies, func(_ int64, at time.Time) bool { return at.Before(cutoff) })
}

// stale tells whether a record of k fetched at at may predate a change.
// Forgetting everything is the replica's own decision, on its own clock.
func (s *changeSet) stale(k cacheKey, at time.Time) bool {
	before := func(change time.Time) bool { return !change.IsZero() && at.Before(change.Add(clockSkew)) }
	return at.Before(s.all) || before(s.companies[k.empresaID]) || before(s.employees[k])
}

// Funcionario is Client.Funcionario through the cache. A cached record
// has its PublicJSON rendered and no login-code hash, and is shared with
// other callers.
func (c *Cached) Funcionario(ctx context.Context, empresaID, id int64) (Funcionario, error) {
	if c.entries == nil {
		return c.client.Funcionario(ctx, empresaID, id)
	}
	if f, ok := c.get(cacheKey{empresaID, id}); ok {
		return f, nil
	}
	w := waiter{ctx: ctx, empresaID: empresaID, answer: make(chan fetched, 1)}
	c.mu.Lock()
	c.waiting[id] = append(c.waiting[id], w)
	start := !c.fetching
	c.fetching = true
	c.mu.Unlock()
	if start {
		go c.fetch()
	}
	select {
	case r := <-w.answer:
		return r.f, r.err
	case <-ctx.Done():
		// The fetch goes on for the others, and keeps what it gets.
		return Funcionario{}, domainerr.Unavailable("employee", ctx.Err())
	}
}

// fetch asks for the waiting employees, MaxFuncionarios at a time, until
// none is waiting.
func (c *Cached) fetch() {
	for {
		c.mu.Lock()
		if len(c.waiting) == 0 {
			c.fetching = false
			c.mu.Unlock()
			return
		}
		batch := make(map[int64][]waiter, min(len(c.waiting), MaxFuncionarios))
		for id, ws := range c.waiting {
			if len(batch) == MaxFuncionarios {
				break
			}
			batch[id] = ws
			delete(c.waiting, id)
		}
		c.mu.Unlock()
		c.answer(batch)
	}
}

// answer fetches batch's employees and answers their waiters: a waiter
// whose company is the record's gets it (and the cache keeps it), another
// company's or an unknown employee is a 404, a failure goes to all.
func (c *Cached) answer(batch map[int64][]waiter) {
	ids := make([]int64, 0, len(batch))
	var first context.Context
	for id, ws := range batch {
		// One whose record came into the cache since it missed (the
		// previous fetch) is answered from there.
		if f, ok := c.served(id, ws); ok {
			c.answerAll(ws, f)
			continue
		}
		ids = append(ids, id)
		first = ws[0].ctx
	}
	if len(ids) == 0 {
		return
	}
	// The call runs without the cancellation of the requests waiting (one
	// leaving would fail the others) but with a trace of one of them.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(first), fetchTimeout)
	defer cancel()
	known := c.knownSchedules(batch, ids)
	at := c.now()
	found, err := c.client.Funcionarios(ctx, ids, slices.Collect(maps.Keys(known)))
	for _, id := range ids {
		f, ok := found[id]
		ferr, fetchedAt := err, at
		if ferr == nil && ok {
			fetchedAt, ferr = c.giveSchedule(&f, known, at)
		}
		if ferr == nil && ok {
			f, ferr = f.rendered()
		}
		for _, w := range batch[id] {
			switch {
			case ferr != nil:
				w.answer <- fetched{err: ferr}
			case !ok || f.EmpresaID != w.empresaID:
				w.answer <- fetched{err: errFuncionarioNotFound}
			default:
				c.keep(cacheKey{f.EmpresaID, id}, entry{f: f, at: fetchedAt})
				w.answer <- fetched{f: f}
			}
		}
	}
}

// knownSchedules are the fresh cached schedules of the companies of the
// waiters of ids, by id (at most MaxFuncionarios): the fetch names them
// and gives them to their employees.
func (c *Cached) knownSchedules(batch map[int64][]waiter, ids []int64) map[int64]schedule {
	c.mu.Lock()
	defer c.mu.Unlock()
	known := map[int64]schedule{}
	companies := make(map[int64]bool, len(ids)) // a company's schedules are walked once
	for _, id := range ids {
		for _, w := range batch[id] {
			if companies[w.empresaID] {
				continue
			}
			companies[w.empresaID] = true
			for escalaID, s := range c.schedules.byCompany[w.empresaID] {
				if len(known) == MaxFuncionarios {
					return known
				}
				if c.fresh(s.at) {
					known[escalaID] = s
				}
			}
		}
	}
	return known
}

// errScheduleMissing: the employee service left out a schedule the fetch
// did not name; it is not guessed (the workday depends on it).
var errScheduleMissing = errors.New("employee: the schedule of an employee was not in the answer")

// giveSchedule gives f the schedule the employee service answered with
// him (and keeps it), or the known one it left out; the record then dates
// from the earlier of its fetch and its schedule's.
func (c *Cached) giveSchedule(f *Funcionario, known map[int64]schedule, at time.Time) (time.Time, error) {
	if f.Escala != nil {
		c.keepSchedule(f.EmpresaID, f.Escala, at)
		return at, nil
	}
	if f.EscalaTrabalhoID == 0 { // none to give
		return at, nil
	}
	s, ok := known[f.EscalaTrabalhoID]
	if !ok {
		return at, domainerr.Unavailable("employee", errScheduleMissing)
	}
	f.Escala = s.e
	if s.at.Before(at) {
		return s.at, nil
	}
	return at, nil
}

// keep caches e unless a change told since its fetch began makes it
// stale already.
func (c *Cached) keep(k cacheKey, e entry) {
	// Under mu, so that Forget's changes are either seen here or, told
	// after, find the record in the cache.
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.changes.stale(k, e.at) {
		c.entries.Add(k, e)
	}
}

// keepSchedule caches company empresaID's schedule e fetched at at,
// unless a change of the company told since makes it stale already.
func (c *Cached) keepSchedule(empresaID int64, e *Escala, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.changes.stale(cacheKey{empresaID: empresaID}, at) {
		c.schedules.add(empresaID, e, at)
	}
}

func (s *schedules) add(empresaID int64, e *Escala, at time.Time) {
	if s.n >= maxSchedules {
		*s = schedules{}
	}
	if s.byCompany == nil {
		s.byCompany = map[int64]map[int64]schedule{}
	}
	of := s.byCompany[empresaID]
	if of == nil {
		of = map[int64]schedule{}
		s.byCompany[empresaID] = of
	}
	if _, ok := of[e.ID]; !ok {
		s.n++
	}
	of[e.ID] = schedule{e: e, at: at}
}

// forget drops the schedules of the companies batch changed (an
// employee's change leaves his company's schedules), or all of them.
func (s *schedules) forget(batch changeSet) {
	if !batch.all.IsZero() {
		*s = schedules{}
		return
	}
	for empresaID := range batch.companies {
		s.n -= len(s.byCompany[empresaID])
		delete(s.byCompany, empresaID)
	}
}

// served finds a cached record of employee id for every waiter in ws.
func (c *Cached) served(id int64, ws []waiter) (Funcionario, bool) {
	var f Funcionario
	for _, w := range ws {
		g, ok := c.get(cacheKey{w.empresaID, id})
		if !ok {
			return Funcionario{}, false
		}
		f = g
	}
	return f, true
}

func (c *Cached) answerAll(ws []waiter, f Funcionario) {
	for _, w := range ws {
		w.answer <- fetched{f: f}
	}
}
