package login

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Code deliveries run after the 202 is sent, so the answer takes the same
// time whether the e-mail exists (lookup, Redis, SMTP) or not: timing must
// not enumerate accounts either.
const (
	backgroundSlots   = 64               // deliveries in flight at once
	backgroundTimeout = 30 * time.Second // deadline of one delivery
)

type background struct {
	log     *slog.Logger
	slots   chan struct{}
	timeout time.Duration
	wg      sync.WaitGroup
}

func newBackground(log *slog.Logger, slots int, timeout time.Duration) *background {
	return &background{log: log, slots: make(chan struct{}, slots), timeout: timeout}
}

// run starts job unless every slot is busy, in which case the job is
// dropped and logged: the client was told 202 either way and may ask
// again, while an unbounded backlog would let a flood of requests pile up
// goroutines. ctx keeps the request's trace but not its cancellation.
func (b *background) run(ctx context.Context, name string, job func(context.Context)) {
	select {
	case b.slots <- struct{}{}:
	default:
		b.log.ErrorContext(ctx, "login: background job dropped, all slots busy", "job", name)
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer func() { <-b.slots }()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.timeout)
		defer cancel()
		job(ctx)
	}()
}

func (b *background) drain(timeout time.Duration) {
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(timeout):
		b.log.Warn("login: shutdown with code deliveries still running")
	}
}
