//go:build unix && !linux

package stack

import "syscall"

// sysProcAttr: only Linux has Pdeathsig; elsewhere the process group
// still lets the stack stop each child with what it started.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
