package cluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cgroupFS is where the cgroup hierarchies are mounted.
const cgroupFS = "/sys/fs/cgroup"

// stopOrder: the kubelet first (it would restart what stops), the
// holder last (its mount namespace ends with its last process).
var stopOrder = []string{"kube-proxy", "kubelet", "containerd", "kube-scheduler", "kube-controller-manager",
	"kube-apiserver", "etcd"}

// Down stops every process of the cluster (the daemons, containerd's
// shims, the containers, the holder), removes its cgroups, the veth pair
// and NetNS. What State holds (certificates, etcd's data, images) stays,
// so that the next Up starts in seconds. Safe to run when nothing runs.
func Down(ctx context.Context, log *slog.Logger, l Layout) error {
	var errs []error
	for _, name := range stopOrder {
		if pid := l.readPID(name); pid != 0 {
			stop(pid)
			log.Info("stopped", "component", name, "pid", pid)
		}
		_ = os.Remove(l.pidFile(name))
	}
	// The shims and anything else left in the network namespace.
	for _, pid := range netnsPIDs(ctx) {
		stop(pid)
	}
	if err := removeCgroups(); err != nil {
		errs = append(errs, err)
	}
	if pid := l.readPID("holder"); pid != 0 {
		stop(pid)
	}
	_ = os.Remove(l.pidFile("holder"))
	if err := removeMadeDirs(l); err != nil {
		errs = append(errs, err)
	}
	if run(ctx, "ip", "link", "show", HostVeth) == nil {
		if err := run(ctx, "ip", "link", "del", HostVeth); err != nil {
			errs = append(errs, err)
		}
	}
	if out, _ := exec.CommandContext(ctx, "ip", "netns", "list").Output(); hasWord(string(out), NetNS) {
		if err := run(ctx, "ip", "netns", "del", NetNS); err != nil {
			errs = append(errs, err)
		}
	}
	if err := undoNetnsMount(ctx, l); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// undoNetnsMount removes what Up's `ip netns add` made of netnsDir (see
// noteNetnsMount), once no named network namespace is left in it.
func undoNetnsMount(ctx context.Context, l Layout) error {
	file := l.path("run", "made-netns")
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if out, _ := exec.CommandContext(ctx, "ip", "netns", "list").Output(); strings.TrimSpace(string(out)) != "" {
		return nil // another user's namespaces: theirs to clean
	}
	made := strings.Fields(string(b))
	if slices.Contains(made, "mount") {
		if err := run(ctx, "umount", netnsDir); err != nil {
			return err
		}
	}
	if slices.Contains(made, "dir") {
		if err := os.Remove(netnsDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Remove(file)
}

// stop sends SIGTERM, then SIGKILL after five seconds, and waits for the
// process to be gone.
func stop(pid int) {
	_ = syscall.Kill(pid, syscall.SIGTERM)
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			deadline = time.Now().Add(time.Hour)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// alive: the process exists and is not a zombie waiting for its parent.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func netnsPIDs(ctx context.Context) []int {
	out, err := exec.CommandContext(ctx, "ip", "netns", "pids", NetNS).Output()
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}

// removeCgroups kills every process left in the cluster's cgroups (the
// containers, each in namespaces of its own) and removes the cgroups,
// deepest first, in every hierarchy.
func removeCgroups() error {
	var dirs []string
	hierarchies, _ := os.ReadDir(cgroupFS)
	for _, h := range hierarchies {
		root := filepath.Join(cgroupFS, h.Name(), CgroupRoot)
		if !exists(root) {
			continue
		}
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, path)
			}
			return nil
		})
	}
	for _, dir := range dirs {
		for _, pid := range cgroupPIDs(dir) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	// Deepest first: a cgroup with children cannot go.
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	var errs []error
	for _, dir := range dirs {
		var err error
		for range 50 { // the killed processes take a moment to leave
			if err = os.Remove(dir); err == nil || errors.Is(err, fs.ErrNotExist) {
				err = nil
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func cgroupPIDs(dir string) []int {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// removeMadeDirs removes the host directories the holder made as mount
// points (listed in run/made-dirs), deepest first, if empty.
func removeMadeDirs(l Layout) error {
	file := l.path("run", "made-dirs")
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	dirs := strings.Fields(string(b))
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	var errs []error
	for _, d := range slices.Compact(dirs) {
		if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		return os.Remove(file)
	}
	return errors.Join(errs...)
}
