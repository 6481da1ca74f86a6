package signature

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ponto/ponto/pkg/clock"
)

// Config names the certificate's files. Both empty: outputs are unsigned.
type Config struct {
	// CertFile is the PKCS#12 (.p12/.pfx) file of the A1 certificate.
	CertFile string `conf:"env:SIGNING_CERT_FILE,help:PKCS#12 file of the A1 certificate that signs the AFD and PDFs (empty: unsigned outputs)"`
	// PasswordFile holds its password (one line; a final newline is not
	// part of it). A file rather than a variable so that a renewal with a
	// new password is picked up without a restart too.
	PasswordFile string `conf:"env:SIGNING_CERT_PASSWORD_FILE,help:file holding the PKCS#12 password"`
	// ReloadInterval is how often both files are read again; a change of
	// their content loads the new certificate.
	ReloadInterval time.Duration `conf:"env:SIGNING_CERT_RELOAD_INTERVAL,default:30s,help:how often the certificate files are checked for a renewal"`
	// Required refuses to run without a certificate (production: the
	// Portaria wants every output signed).
	Required bool `conf:"env:SIGNING_REQUIRED,default:false,help:refuse to start without SIGNING_CERT_FILE"`
}

// Enabled tells whether a certificate is configured.
func (c Config) Enabled() bool { return c.CertFile != "" }

// Validate checks the settings' shape; Open checks the certificate.
func (c Config) Validate() error {
	if (c.CertFile == "") != (c.PasswordFile == "") {
		return fmt.Errorf("SIGNING_CERT_FILE and SIGNING_CERT_PASSWORD_FILE: set both or neither")
	}
	if c.Required && c.CertFile == "" {
		return fmt.Errorf("SIGNING_REQUIRED: no SIGNING_CERT_FILE given, and outputs must be signed")
	}
	if c.ReloadInterval <= 0 {
		return fmt.Errorf("SIGNING_CERT_RELOAD_INTERVAL %s: want a positive duration", c.ReloadInterval)
	}
	return nil
}

// Signer signs with the configured certificate, replacing it when its
// files change.
type Signer struct {
	cfg   Config
	log   *slog.Logger
	clock *clock.Clock
	cur   atomic.Pointer[Certificate]
	seen  [sha256.Size]byte // hash of the files behind cur
	bad   [sha256.Size]byte // hash of the last files refused, logged once
}

// Open loads the certificate of cfg, failing with the name of the
// variable at fault when it cannot sign (unreadable file, wrong password,
// expired, key not matching). clk tells whether the certificate is valid
// and dates the signatures.
func Open(cfg Config, log *slog.Logger, clk *clock.Clock) (*Signer, error) {
	s := &Signer{cfg: cfg, log: log, clock: clk}
	cert, sum, err := s.load()
	if err != nil {
		return nil, err
	}
	s.cur.Store(cert)
	s.seen = sum
	return s, nil
}

// load reads both files and parses them; errors name the variable.
func (s *Signer) load() (*Certificate, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	p12, err := os.ReadFile(s.cfg.CertFile)
	if err != nil {
		return nil, sum, fmt.Errorf("SIGNING_CERT_FILE: %w", err)
	}
	pw, err := os.ReadFile(s.cfg.PasswordFile)
	if err != nil {
		return nil, sum, fmt.Errorf("SIGNING_CERT_PASSWORD_FILE: %w", err)
	}
	password := strings.TrimSuffix(strings.TrimSuffix(string(pw), "\n"), "\r")
	sum = sha256.Sum256(append(append(p12, 0), pw...))
	cert, err := Parse(p12, password, s.clock.Now())
	switch {
	case err == nil:
		return cert, sum, nil
	case err == ErrPassword:
		return nil, sum, fmt.Errorf("SIGNING_CERT_PASSWORD_FILE: %w for SIGNING_CERT_FILE %s", err, s.cfg.CertFile)
	default:
		return nil, sum, fmt.Errorf("SIGNING_CERT_FILE %s: %w", s.cfg.CertFile, err)
	}
}

// Watch reads the files every ReloadInterval until ctx ends and switches
// to a new certificate when their content changed and it can sign. The
// files are read through their paths each time, so the symbolic links a
// Kubernetes Secret volume swaps on update are followed. A bad new file
// is logged and the current certificate kept.
func (s *Signer) Watch(ctx context.Context) {
	clock.Every(ctx, s.cfg.ReloadInterval, s.reload)
}

func (s *Signer) reload() {
	cert, sum, err := s.load()
	if sum == s.seen || sum == s.bad {
		return
	}
	if err != nil {
		s.bad = sum
		s.log.Error("signing certificate not reloaded; keeping the current one", "err", err)
		return
	}
	s.seen = sum
	s.cur.Store(cert)
	s.log.Info("signing certificate reloaded", "subject", cert.Subject(),
		"not_after", cert.Leaf.NotAfter.UTC().Format(time.RFC3339))
}

// Certificate is the certificate in use.
func (s *Signer) Certificate() *Certificate { return s.cur.Load() }

// SignDetached signs data with the certificate in use (see
// Certificate.SignDetached).
func (s *Signer) SignDetached(data []byte) ([]byte, error) { return s.Certificate().SignDetached(data) }

// DaysLeft is how long the certificate in use stays valid, in days.
func (s *Signer) DaysLeft() float64 { return s.Certificate().DaysLeft(s.clock.Now()) }
