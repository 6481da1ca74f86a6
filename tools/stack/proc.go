package stack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// waitDelay bounds how long Wait keeps copying output after a child
// exits, in case something it left behind still holds the pipe.
const waitDelay = 2 * time.Second

// proc is one child process whose output goes to the stack's output.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{} // closed once the child has exited and been reaped
	err  error         // Wait's result, readable after done
	// stopped: its exit was asked for (Stack.StopService), not a failure.
	stopped atomic.Bool
}

// environ is what every child inherits: the stack's own environment
// (PATH, HOME, OTEL_* ...); a spec's env is appended and, as exec keeps
// the last value of a repeated variable, wins.
func environ() []string { return os.Environ() }

// spec describes a child to start.
type spec struct {
	name string
	bin  string
	args []string
	env  []string // added to (and overriding) the stack's environment
	dir  string
}

func (s spec) command(out *output) *exec.Cmd {
	cmd := exec.Command(s.bin, s.args...)
	cmd.Env = append(environ(), s.env...)
	cmd.Dir = s.dir
	w := out.writer(s.name)
	// The same comparable writer for both: exec then uses one pipe and
	// one copier, so stdout and stderr lines keep their order.
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = sysProcAttr()
	cmd.WaitDelay = waitDelay
	return cmd
}

// startProc starts a long-running child and reaps it in the background.
func startProc(out *output, s spec) (*proc, error) {
	cmd := s.command(out)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("iniciar %s: %w", s.name, err)
	}
	p := &proc{name: s.name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		cmd.Stdout.(*lineWriter).Flush()
		close(p.done)
	}()
	return p, nil
}

// runProc runs a child to completion (go build, migrate). Cancelling ctx
// kills its whole process group, compiler processes included.
func runProc(ctx context.Context, out *output, s spec) error {
	p, err := startProc(out, s)
	if err != nil {
		return err
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		p.signal(syscall.SIGKILL)
		<-p.done
		return ctx.Err()
	}
	return p.err
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// signal sends sig to the child's process group (its pid, thanks to
// Setpgid), reaching anything it started as well. A child already reaped
// is left alone: its pid may belong to someone else by now.
func (p *proc) signal(sig syscall.Signal) {
	if p.exited() {
		return
	}
	if err := syscall.Kill(-p.pid(), sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		_ = p.cmd.Process.Signal(sig)
	}
}

// stopProcs sends SIGTERM to every child at once, gives them timeout in
// total to exit, then SIGKILLs the process group of each one still
// running. It returns the names of those it had to kill.
func stopProcs(procs []*proc, timeout time.Duration) (killed []string) {
	for _, p := range procs {
		p.signal(syscall.SIGTERM)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for _, p := range procs {
		select {
		case <-p.done:
		case <-ctx.Done():
			p.signal(syscall.SIGKILL)
			<-p.done
			killed = append(killed, p.name)
		}
	}
	return killed
}

// exitError describes how a child ended, in words for the log.
func exitError(err error) string {
	if err == nil {
		return "código 0"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "sinal " + ws.Signal().String()
		}
		return fmt.Sprintf("código %d", ee.ExitCode())
	}
	return err.Error()
}
