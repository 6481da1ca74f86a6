package outbox

import "github.com/prometheus/client_golang/prometheus"

// relayMetrics are the relay's instruments. A growing pending count or
// lag means timekeeping is not taking the events; failures say why.
type relayMetrics struct {
	pending   prometheus.Gauge
	lag       prometheus.Gauge
	delivered prometheus.Counter
	failures  *prometheus.CounterVec
}

func newRelayMetrics(origem string) relayMetrics {
	labels := prometheus.Labels{"origem": origem}
	gauge := func(name, help string) prometheus.Gauge {
		return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, ConstLabels: labels, Help: help})
	}
	m := relayMetrics{
		pending: gauge("outbox_pending_events", "REP events written but not yet accepted by timekeeping."),
		lag:     gauge("outbox_lag_seconds", "Age of the oldest pending REP event (0 when none is pending)."),
		delivered: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "outbox_delivered_total", ConstLabels: labels,
			Help: "REP events accepted by timekeeping (200).",
		}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "outbox_delivery_failures_total", ConstLabels: labels,
			Help: "Failed REP event deliveries by reason: indisponivel, fora_de_ordem, rejeitado, resposta_invalida, banco.",
		}, []string{"reason"}),
	}
	for _, r := range []string{ReasonUnavailable, ReasonOutOfOrder, ReasonRejected, ReasonBadAnswer, ReasonDatabase} {
		m.failures.WithLabelValues(r) // every series exists from the start, at 0
	}
	return m
}
