package main

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ponto/ponto/services/timekeeping/internal/registro"
)

// clockInMetrics are the group commit's instruments: punches written,
// punches per batch, how long a punch waits in its lane for its batch to
// begin (the price of batching, paid under load), and how long a batch
// takes to commit (what every punch of it, and the batch behind it, waits
// on).
type clockInMetrics struct {
	written  prometheus.Counter
	size     prometheus.Histogram
	wait     prometheus.Histogram
	duration prometheus.Histogram
}

// batchBuckets are the waits' and the batches' buckets, in seconds.
var batchBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}

func newClockInMetrics() *clockInMetrics {
	return &clockInMetrics{
		written: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ponto_punches_written_total",
			Help: "Punches written by clock-ins (replays of an Idempotency-Key excluded).",
		}),
		size: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "ponto_clockin_batch_size",
			Help:    "Clock-ins committed per batch (group commit).",
			Buckets: prometheus.ExponentialBuckets(1, 2, 8), // 1 .. 128, the largest batch
		}),
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "ponto_clockin_batch_wait_seconds",
			Help:    "Time a clock-in waited in its lane before its batch began.",
			Buckets: batchBuckets,
		}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "ponto_clockin_batch_duration_seconds",
			Help:    "Time a committed clock-in batch took, from taking its companies' chain heads to its commit.",
			Buckets: batchBuckets,
		}),
	}
}

func (m *clockInMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.written, m.size, m.wait, m.duration}
}

// observe is registro's batch observer.
func (m *clockInMetrics) observe(b registro.Batch) {
	m.written.Add(float64(b.Written))
	m.size.Observe(float64(b.Size))
	m.duration.Observe(b.Took.Seconds())
	for _, w := range b.Waits {
		m.wait.Observe(w.Seconds())
	}
}
