package database

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Retry pacing of WaitReachable: a new pod's address may be admitted by
// the NetworkPolicy controller a second or so after it starts, and a
// database pod may still be starting; the pause doubles up to a second.
const (
	firstRetry = 50 * time.Millisecond
	maxRetry   = time.Second
	// attemptTimeout bounds one dial when the URL sets no connect_timeout
	// (a dropped SYN would otherwise hang for minutes).
	attemptTimeout = 5 * time.Second
)

// WaitReachable connects to url, retrying for up to wait while the server
// cannot be reached (refused, unroutable, timed out) or answers that it is
// starting up; an answer that will not change (bad password, no such
// database) returns at once. It is the first step of a migration, so that
// a job started just before its network or its database is ready does not
// fail a deploy. Zero wait tries once.
func WaitReachable(ctx context.Context, url string, wait time.Duration) error {
	cc, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("database: parse url: %w", err)
	}
	deadline := time.Now().Add(wait)
	pause := firstRetry
	for {
		conn, err := connectOnce(ctx, cc)
		if err == nil {
			return conn.Close(context.WithoutCancel(ctx))
		}
		if !transient(err) || time.Now().Add(pause).After(deadline) {
			return fmt.Errorf("database: unreachable after %s: %w", wait, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("database: waiting to connect: %w", context.Cause(ctx))
		case <-time.After(pause):
		}
		pause = min(2*pause, maxRetry)
	}
}

// transient tells a connection error worth retrying: any failure below
// PostgreSQL's protocol, or the server saying it is starting or shutting
// down (SQLSTATE class 57P: cannot_connect_now, admin_shutdown...).
func transient(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return strings.HasPrefix(pgErr.Code, "57P0")
	}
	return true
}

// connectOnce dials once, within attemptTimeout unless the URL says
// otherwise.
func connectOnce(ctx context.Context, cc *pgx.ConnConfig) (*pgx.Conn, error) {
	if cc.ConnectTimeout == 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, attemptTimeout)
		defer cancel()
	}
	return pgx.ConnectConfig(ctx, cc)
}
