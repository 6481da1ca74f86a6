package stack

import "syscall"

// sysProcAttr puts each child in its own process group, so a terminal's
// Ctrl-C reaches only the stack (which then stops children in order) and
// a stop signal reaches the child's own children too. Pdeathsig makes the
// kernel send SIGTERM if the stack dies without cleaning up.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
