package signature

import (
	"context"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ponto/ponto/pkg/httpserver"
)

// WarnDays is how close to its expiry the certificate makes readiness
// warn.
const WarnDays = 30

// Gauge exports signing_certificate_days_left, the days until the
// certificate in use expires, read at each scrape.
func (s *Signer) Gauge(constLabels prometheus.Labels) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name:        "signing_certificate_days_left",
		Help:        "Days until the certificate that signs the AFD and PDFs expires (negative: expired).",
		ConstLabels: constLabels,
	}, s.DaysLeft)
}

// Check is the readiness entry "certificado": a warning (the service
// stays ready, since every replica shares the certificate and refusing
// traffic would not renew it) when fewer than WarnDays days are left, or
// when it has expired.
func (s *Signer) Check() httpserver.Check {
	return httpserver.Check{Name: "certificado", Ping: func(context.Context) error {
		switch d := s.DaysLeft(); {
		case d < 0:
			return httpserver.Warning(fmt.Sprintf("certificado de assinatura expirado (%s)", s.Certificate().Subject()))
		case d < WarnDays:
			return httpserver.Warning(fmt.Sprintf("certificado de assinatura expira em %d dias", int(d)))
		}
		return nil
	}}
}
