package cluster

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"github.com/ponto/ponto/tools/routes"
)

// BinaryImage writes to file an image archive (docker save's format,
// which containerd imports) named ref, holding the static binary at
// /<base name> as its entrypoint, run as an unprivileged user: images
// made with no registry and no Docker daemon.
func BinaryImage(binary, ref, file string, args ...string) error {
	data, err := os.ReadFile(binary)
	if err != nil {
		return err
	}
	target := "/" + filepath.Base(binary)
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		if err := tw.WriteHeader(&tar.Header{Name: target[1:], Mode: 0o755, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
		if err := tw.Close(); err != nil {
			return nil, err
		}
		return io.NopCloser(&buf), nil
	})
	if err != nil {
		return err
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", runtime.GOARCH
	cfg.Config = v1.Config{Entrypoint: []string{target}, Cmd: args, User: "65532:65532"}
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		return err
	}
	tag, err := name.NewTag(ref, name.StrictValidation)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return tarball.WriteToFile(file, tag, img)
}

// importPause builds the pause program and its image, once, and imports
// the image into containerd unless it holds it.
func importPause(ctx context.Context, l Layout, holder int) error {
	out, err := inNode(ctx, holder, "ctr", "--address", "/run/containerd/containerd.sock", "-n", "k8s.io", "images", "ls", "-q")
	if err != nil {
		return err
	}
	if hasWord(string(out), PauseImage) {
		return nil
	}
	dir := filepath.Join(filepath.Dir(l.State), "images")
	bin, archive := filepath.Join(dir, "pause"), filepath.Join(dir, "pause.tar")
	if !exists(archive) {
		build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./tools/cluster/pause")
		build.Dir, build.Env = l.Root, append(os.Environ(), "CGO_ENABLED=0")
		if b, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build pause: %w: %s", err, b)
		}
		if err := BinaryImage(bin, PauseImage, archive); err != nil {
			return err
		}
	}
	_, err = inNode(ctx, holder, "ctr", "--address", "/run/containerd/containerd.sock", "-n", "k8s.io", "images", "import", archive)
	return err
}

// ServiceImage builds ponto's service (services/<service>) as a static
// binary with the time zone database inside (the image has no other
// file), writes its image archive named ref under the cache and, when the
// cluster runs, imports it into the node's containerd: the image builder
// of a cluster with no registry (Skaffold's custom builder can call it,
// push: false). It returns the archive's path.
func ServiceImage(ctx context.Context, l Layout, service, ref, version string) (string, error) {
	if !slices.Contains(routes.Services, service) {
		return "", fmt.Errorf("unknown service %q (known: %s)", service, strings.Join(routes.Services, ", "))
	}
	dir := filepath.Join(filepath.Dir(l.State), "images", service)
	bin, archive := filepath.Join(dir, "service"), filepath.Join(dir, "image.tar")
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-tags", "timetzdata",
		"-ldflags", "-s -w -X main.build="+version, "-o", bin, ".")
	build.Dir, build.Env = filepath.Join(l.Root, "services", service), append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w: %s", service, err, b)
	}
	if err := BinaryImage(bin, ref, archive); err != nil {
		return "", err
	}
	holder := l.readPID("holder")
	if holder == 0 {
		return archive, nil
	}
	_, err := inNode(ctx, holder, "ctr", "--address", "/run/containerd/containerd.sock", "-n", "k8s.io", "images", "import", archive)
	return archive, err
}
