// Package metrics keeps a service's Prometheus registry: Go runtime and
// process collectors plus RED metrics (rate, errors, duration) per route.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is one service's registry and its HTTP instruments.
type Metrics struct {
	Registry *prometheus.Registry
	service  string
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// New builds a registry for service. Every series carries a constant
// "service" label so dashboards can tell the five services apart.
func New(service string) *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	labels := prometheus.Labels{"service": service}
	m := &Metrics{
		Registry: reg,
		service:  service,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name:        "http_requests_total",
			Help:        "HTTP requests served, by listener, route template, method and status code.",
			ConstLabels: labels,
		}, []string{"listener", "route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:        "http_request_duration_seconds",
			Help:        "Time to serve an HTTP request, by listener, route template and method.",
			ConstLabels: labels,
			Buckets:     []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"listener", "route", "method"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// ObserveRequest records one served request. route must be the route
// template (e.g. /funcionarios/:id), never the raw path, to keep the
// number of series bounded.
func (m *Metrics) ObserveRequest(listener, route, method string, status int, elapsed time.Duration) {
	m.requests.WithLabelValues(listener, route, method, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(listener, route, method).Observe(elapsed.Seconds())
}

// MustRegister adds collectors (a pool's stats, a service's own
// instruments) to the registry, their series labelled with the service
// like the HTTP ones. Like prometheus.MustRegister it panics when a series
// would be registered twice: a wiring mistake, found by the first test.
func (m *Metrics) MustRegister(cs ...prometheus.Collector) {
	prometheus.WrapRegistererWith(prometheus.Labels{"service": m.service}, m.Registry).MustRegister(cs...)
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
}
