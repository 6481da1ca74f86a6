package cluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// holderScript runs as the holder, the process whose mount namespace
// (private, inside NetNS) every cluster process joins: the kubelet's
// sysctls read as it wants (files bound over /proc/sys), and what the
// node mounts or writes outside State (the containers' network
// namespaces, containerd's sockets, the CNI cache, pod logs) lands on
// tmpfs that ends with the namespace.
const holderScript = `set -eu
for f in "$STATE"/sysctl/*; do
	mount --bind "$f" "/proc/sys/$(basename "$f" | tr . /)"
done
# A mount point missing on the host is made, and listed for Down to
# remove (empty: the tmpfs over it is gone with the namespace).
for d in /run/netns /run/containerd /var/lib/cni /var/log/pods /var/log/containers; do
	if [ ! -d "$d" ]; then
		mkdir -p "$d"
		echo "$d" >>"$STATE/run/made-dirs"
	fi
done
mount -t tmpfs -o mode=0755 tmpfs /run/netns
mount -t tmpfs -o mode=0711 tmpfs /run/containerd
mount -t tmpfs -o mode=0755 tmpfs /var/lib/cni
mount -t tmpfs -o mode=0755 tmpfs /var/log/pods
mount -t tmpfs -o mode=0755 tmpfs /var/log/containers
touch "$STATE/run/holder.ready"
exec sleep infinity
`

// pidFile is where a daemon's process ID is kept.
func (l Layout) pidFile(name string) string { return l.path("run", name+".pid") }

// logFile is a daemon's log.
func (l Layout) logFile(name string) string { return l.path("logs", name+".log") }

// readPID is a daemon's process ID while it runs, else 0.
func (l Layout) readPID(name string) int {
	b, err := os.ReadFile(l.pidFile(name))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || syscall.Kill(pid, 0) != nil {
		return 0
	}
	return pid
}

// startHolder starts the holder in NetNS unless it runs, and waits for its
// mounts.
func startHolder(ctx context.Context, l Layout) (int, error) {
	if pid := l.readPID("holder"); pid != 0 {
		return pid, nil
	}
	// Not `ip netns exec`: it mounts a sysfs of the namespace over /sys,
	// hiding the cgroup hierarchies the kubelet needs.
	cmd := exec.Command("unshare", "--mount", "--propagation", "private",
		"nsenter", "--net=/run/netns/"+NetNS, "sh", "-c", holderScript)
	cmd.Env = append(os.Environ(), "STATE="+l.State)
	// Only a marker of this start counts (the log keeps the earlier ones'):
	// a process entering the holder's namespaces before it is in them
	// would land in the host's.
	ready := l.path("run", "holder.ready")
	if err := os.Remove(ready); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	pid, err := daemon(l, "holder", cmd)
	if err != nil {
		return 0, err
	}
	err = waitFor(ctx, 10*time.Second, "holder", l, func() error {
		if exists(ready) {
			return nil
		}
		return errors.New("mounts not ready")
	})
	return pid, err
}

// startDaemon starts the built component name (or program, when it is an
// absolute path) with args inside the holder's namespaces, unless it runs.
func startDaemon(l Layout, holder int, name, program string, args ...string) error {
	if l.readPID(name) != 0 {
		return nil
	}
	if !filepath.IsAbs(program) {
		program = l.bin(program)
	}
	nsenter := append([]string{"--target", strconv.Itoa(holder), "--mount", "--net", "--", program}, args...)
	_, err := daemon(l, name, exec.Command("nsenter", nsenter...))
	return err
}

// daemon starts cmd in a session of its own (it outlives make cluster),
// its output appended to its log, and records its process ID.
func daemon(l Layout, name string, cmd *exec.Cmd) (int, error) {
	for _, dir := range []string{l.path("logs"), l.path("run")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 0, err
		}
	}
	log, err := os.OpenFile(l.logFile(name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return 0, err
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Release()
	return pid, os.WriteFile(l.pidFile(name), []byte(strconv.Itoa(pid)+"\n"), 0o644)
}

// waitFor polls ready until it passes, the daemon name dies or timeout
// passes; the error carries the daemon's log tail.
func waitFor(ctx context.Context, timeout time.Duration, name string, l Layout, ready func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := ready()
		if err == nil {
			return nil
		}
		if l.readPID(name) == 0 {
			return fmt.Errorf("%s exited: %v\n%s", name, err, tail(l.logFile(name), 30))
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %s: %v\n%s", name, timeout, err, tail(l.logFile(name), 30))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// tail is the last n lines of file.
func tail(file string, n int) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// inNode runs a command inside the holder's namespaces and returns its
// output.
func inNode(ctx context.Context, holder int, program string, args ...string) ([]byte, error) {
	full := append([]string{"--target", strconv.Itoa(holder), "--mount", "--net", "--", program}, args...)
	out, err := exec.CommandContext(ctx, "nsenter", full...).CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w\n%s", program, strings.Join(args, " "), err, out)
	}
	return out, nil
}
