package ledger

import "time"

// Batch is what a lane committed in one transaction: the punches it
// held, how many of them were new (the rest replayed an Idempotency-Key or
// their request gave up), how long each call waited in the lane before
// its batch began, and how long the batch took from then to its commit
// (every punch of the batch waits that long too, and the lane's next
// batch behind it).
type Batch struct {
	Size    int
	Written int
	Waits   []time.Duration
	Took    time.Duration
}

// ObserveBatches has f told of every committed batch (the service's
// metrics). Set it before the first clock-in; nil tells no one.
func (s *Ledger) ObserveBatches(f func(Batch)) { s.batches = f }

// tellBatch tells ObserveBatches's function of a committed batch that
// began at start.
func (s *Ledger) tellBatch(calls []*call, outs []outcome, start time.Time) {
	if s.batches == nil {
		return
	}
	b := Batch{Size: len(calls), Waits: make([]time.Duration, len(calls)), Took: time.Since(start)}
	for i, c := range calls {
		b.Waits[i] = start.Sub(c.queued)
		if outs[i].err == nil && !outs[i].replayed {
			b.Written++
		}
	}
	s.batches(b)
}
