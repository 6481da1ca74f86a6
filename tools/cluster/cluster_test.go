package cluster

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// The image archive holds the binary as its entrypoint, for this
// machine's platform, under the given name, as containerd will read it.
func TestBinaryImage(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "pause")
	if err := os.WriteFile(bin, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "pause.tar")
	if err := BinaryImage(bin, PauseImage, archive, "-v"); err != nil {
		t.Fatal(err)
	}
	tag, err := name.NewTag(PauseImage)
	if err != nil {
		t.Fatal(err)
	}
	img, err := tarball.ImageFromPath(archive, &tag)
	if err != nil {
		t.Fatalf("reading the archive back: %v", err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	got := []string{cfg.OS, cfg.Architecture, cfg.Config.User}
	got = append(append(got, cfg.Config.Entrypoint...), cfg.Config.Cmd...)
	if diff := cmp.Diff([]string{"linux", runtime.GOARCH, "65532:65532", "/pause", "-v"}, got); diff != "" {
		t.Errorf("image config (-want +got):\n%s", diff)
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers = %d (%v), want 1", len(layers), err)
	}
}

// kube-proxy exits when its configuration file is rewritten: a second
// writeFiles with nothing changed touches no file.
func TestWriteFilesKeepsUnchangedFiles(t *testing.T) {
	l := Layout{Root: t.TempDir(), Bin: t.TempDir(), State: t.TempDir()}
	if err := writeFiles(l); err != nil {
		t.Fatal(err)
	}
	file := l.path("kube-proxy", "config.yaml")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	if err := writeFiles(l); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if !info.ModTime().Equal(old) {
		t.Errorf("kube-proxy's configuration rewritten (modified %s, want %s)", info.ModTime(), old)
	}
}
