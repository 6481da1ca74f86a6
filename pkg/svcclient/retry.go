package svcclient

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// retryPolicy retries connection failures and the statuses a peer or its
// proxy sends while restarting or overloaded. Only the reads client has a
// non-zero RetryMax, so writes never get here twice.
func retryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		return !isTimeout(err), nil
	}
	switch resp.StatusCode {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true, nil
	}
	return false, nil
}

// isTimeout spots an attempt that ran out of time. It is not retried: the
// peer is slow rather than gone, more load would not help, and the caller's
// own deadline is better spent failing fast.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// backoff is retryablehttp's exponential backoff, capped even when the
// peer sends a long Retry-After: a caller serving a request cannot wait.
func backoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	return min(retryablehttp.DefaultBackoff(lo, hi, attempt, resp), hi)
}
