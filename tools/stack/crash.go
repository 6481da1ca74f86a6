package stack

import "syscall"

// KillService crashes one running service: SIGKILL to its process group,
// so no shutdown code runs (no drain, no deferred commit), as when a node
// dies or the kernel's OOM killer strikes. It returns once the process is
// reaped; the exit does not count as a failure of the stack, and
// StartService brings the service back.
func (s *Stack) KillService(name string) error {
	p, err := s.running(name)
	if err != nil {
		return err
	}
	p.stopped.Store(true)
	p.signal(syscall.SIGKILL)
	<-p.done
	s.out.printf("stack", "%s morto (SIGKILL)", name)
	return nil
}
