// Command cluster starts and stops ponto's development Kubernetes cluster
// (tools/cluster): make cluster, make cluster-down.
//
//	go run ./tools/cmd/cluster up     # start it (built by tools/cluster/build.sh)
//	go run ./tools/cmd/cluster down   # stop it, leaving the host as it was
//	go run ./tools/cmd/cluster image <service> <image>
//	                                  # build a service's image archive and
//	                                  # import it into the running cluster
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ponto/ponto/tools/cluster"
)

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, log, os.Args[1:]); err != nil {
		log.Error("cluster", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, log *slog.Logger, args []string) error {
	usage := errors.New("usage: cluster up | down | image <service> <image>")
	if len(args) == 0 || (args[0] == "image") != (len(args) == 3) || (args[0] != "image" && len(args) != 1) {
		return usage
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	version, err := kubernetesVersion(ctx, root)
	if err != nil {
		return err
	}
	l := cluster.NewLayout(root, version)
	switch args[0] {
	case "up":
		return cluster.Up(ctx, log, l)
	case "down":
		return cluster.Down(ctx, log, l)
	case "image":
		archive, err := cluster.ServiceImage(ctx, l, args[1], args[2], "dev")
		if err != nil {
			return err
		}
		log.Info("image written", "image", args[2], "archive", archive)
		return nil
	}
	return usage
}

// kubernetesVersion is the version the build module pins.
func kubernetesVersion(ctx context.Context, root string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Version}}", "k8s.io/kubernetes")
	cmd.Dir = filepath.Join(root, "tools", "cluster", "build", "kubernetes")
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("kubernetes version of tools/cluster/build/kubernetes: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// repoRoot is the directory holding go.work, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.work not found above the working directory")
		}
		dir = parent
	}
}
