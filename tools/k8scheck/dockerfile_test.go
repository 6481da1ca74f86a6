package k8scheck

import (
	"bufio"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	Cmd  string // upper case: FROM, COPY, RUN...
	Args string
}

func dockerfile(t *testing.T) []instruction {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "deploy", "docker", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []instruction
	var cur strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			cur.WriteString(strings.TrimSuffix(line, "\\") + " ")
			continue
		}
		cur.WriteString(line)
		cmd, args, _ := strings.Cut(cur.String(), " ")
		out = append(out, instruction{Cmd: strings.ToUpper(cmd), Args: strings.TrimSpace(args)})
		cur.Reset()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDockerfilePaths: every COPY source exists for every service, every
// module of go.work has its go.mod copied (the workspace must load), and the
// final image is a distroless or scratch one running as a non-root user.
func TestDockerfilePaths(t *testing.T) {
	root := repoRoot(t)
	ins := dockerfile(t)
	copied := map[string]bool{}
	for _, svc := range serviceNames() {
		for _, in := range ins {
			if in.Cmd != "COPY" || strings.Contains(in.Args, "--from=") {
				continue
			}
			fields := strings.Fields(strings.ReplaceAll(in.Args, "${SERVICE}", svc))
			for _, src := range fields[:len(fields)-1] {
				if strings.HasPrefix(src, "--") {
					continue
				}
				if _, err := os.Stat(filepath.Join(root, src)); err != nil {
					t.Errorf("SERVICE=%s: COPY source %s: %v", svc, src, err)
				}
				copied[filepath.Clean(src)] = true
			}
		}
	}
	for _, mod := range workspaceModules(t) {
		if !copied[filepath.Join(mod, "go.mod")] {
			t.Errorf("go.work uses %s but the Dockerfile does not copy %s/go.mod", mod, mod)
		}
	}
	var final, user, entrypoint string
	for _, in := range ins {
		switch in.Cmd {
		case "FROM":
			final, user, entrypoint = in.Args, "", ""
		case "USER":
			user = in.Args
		case "ENTRYPOINT":
			entrypoint = in.Args
		}
	}
	if !strings.Contains(final, "distroless") && final != "scratch" {
		t.Errorf("final stage FROM %q: want distroless (or scratch)", final)
	}
	if !regexp.MustCompile(`^[1-9][0-9]*(:[1-9][0-9]*)?$`).MatchString(user) {
		t.Errorf("final stage USER %q: want a numeric non-root user", user)
	}
	if !strings.HasPrefix(entrypoint, "[") {
		t.Errorf("ENTRYPOINT %q: want the exec form (no shell in the image)", entrypoint)
	}
}

func workspaceModules(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "use ("):
			in = true
		case in && line == ")":
			in = false
		case in && line != "":
			mods = append(mods, filepath.Clean(line))
		case strings.HasPrefix(line, "use "):
			mods = append(mods, filepath.Clean(strings.TrimSpace(strings.TrimPrefix(line, "use "))))
		}
	}
	if len(mods) == 0 {
		t.Fatal("go.work: no module")
	}
	return mods
}

// TestDockerfileBuildsStaticBinary runs the Dockerfile's go build command,
// as written, for one service (output redirected), and checks the binary
// is static and starts.
func TestDockerfileBuildsStaticBinary(t *testing.T) {
	const svc = "timekeeping"
	var build string
	for _, in := range dockerfile(t) {
		if in.Cmd == "RUN" && strings.Contains(in.Args, "go build") {
			build = in.Args
		}
	}
	if build == "" {
		t.Fatal("no RUN with go build in the Dockerfile")
	}
	// Drop the RUN flags (--mount=...): they are BuildKit's, not the shell's.
	for strings.HasPrefix(build, "--") {
		_, build, _ = strings.Cut(build, " ")
		build = strings.TrimSpace(build)
	}
	if !strings.Contains(build, "CGO_ENABLED=0") || !strings.Contains(build, "GOWORK=off") {
		t.Errorf("the build command does not set CGO_ENABLED=0 and GOWORK=off: %s", build)
	}
	out := filepath.Join(t.TempDir(), svc)
	oFlag := regexp.MustCompile(`-o\s+\S+`)
	if !oFlag.MatchString(build) {
		t.Fatalf("no -o in the build command: %s", build)
	}
	build = oFlag.ReplaceAllLiteralString(build, "-o "+out)
	cmd := exec.Command("sh", "-c", build)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "SERVICE="+svc, "VERSION=k8scheck")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, b)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has an ELF interpreter: it is dynamically linked")
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v (%v)", libs, err)
	}
	if b, err := exec.Command(out, "--help").CombinedOutput(); err != nil || !strings.Contains(string(b), "ENVIRONMENT") {
		t.Errorf("%s --help: %v\n%s", svc, err, b)
	}
}

// TestDockerfileCopiesWhatEachServiceReplaces: a service builds outside
// the workspace through its go.mod's replace directives (pkg, and the
// internal APIs it serves or calls: services/<provider>/internalapi). The
// download layer must copy each replaced module's go.mod and go.sum
// before `go mod download`, and the sources layer the module itself
// before `go build`, for every SERVICE.
func TestDockerfileCopiesWhatEachServiceReplaces(t *testing.T) {
	root := repoRoot(t)
	ins := dockerfile(t)
	for _, svc := range serviceNames() {
		download, build := copiedBefore(ins, svc, "go mod download"), copiedBefore(ins, svc, "go build")
		dirs := replacedDirs(t, root, svc)
		if len(dirs) == 0 {
			t.Errorf("services/%s/go.mod replaces nothing: it cannot build outside the workspace", svc)
		}
		for _, dir := range dirs {
			for _, f := range []string{"go.mod", "go.sum"} {
				if !download[dir+"/"+f] {
					t.Errorf("SERVICE=%s: its go.mod replaces %s, whose %s the Dockerfile does not copy before `go mod download`", svc, dir, f)
				}
			}
			if !covered(build, dir) {
				t.Errorf("SERVICE=%s: its go.mod replaces %s, which the Dockerfile does not copy before `go build`", svc, dir)
			}
		}
	}
}

// copiedBefore is what the COPY instructions (not from another stage)
// bring in for SERVICE=svc before the first RUN whose command holds
// marker: each source, cleaned and slash-separated.
func copiedBefore(ins []instruction, svc, marker string) map[string]bool {
	out := map[string]bool{}
	for _, in := range ins {
		if in.Cmd == "RUN" && strings.Contains(in.Args, marker) {
			break
		}
		if in.Cmd != "COPY" || strings.Contains(in.Args, "--from=") {
			continue
		}
		fields := strings.Fields(strings.ReplaceAll(in.Args, "${SERVICE}", svc))
		for _, src := range fields[:len(fields)-1] {
			if !strings.HasPrefix(src, "--") {
				out[filepath.ToSlash(filepath.Clean(src))] = true
			}
		}
	}
	return out
}

// covered reports whether dir or a directory above it was copied.
func covered(copied map[string]bool, dir string) bool {
	for d := dir; d != "." && d != "/"; d = filepath.ToSlash(filepath.Dir(d)) {
		if copied[d] {
			return true
		}
	}
	return false
}

// replacedDirs are the local directories services/<svc>/go.mod replaces
// modules with, relative to the repository root.
func replacedDirs(t *testing.T, root, svc string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "services", svc, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^replace\s+\S+(?:\s+\S+)?\s+=>\s+(\.\S*)\s*$`)
	var dirs []string
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		dirs = append(dirs, filepath.ToSlash(filepath.Join("services", svc, m[1])))
	}
	return dirs
}

// TestEveryServiceBuildsOutsideTheWorkspace: the image builds each service
// with GOWORK=off, from its own go.mod and go.sum alone, so they must list
// every module its binary needs (go mod tidy in the service's directory).
func TestEveryServiceBuildsOutsideTheWorkspace(t *testing.T) {
	for _, svc := range serviceNames() {
		cmd := exec.Command("go", "list", "-deps", ".")
		cmd.Dir = filepath.Join(repoRoot(t), "services", svc)
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("services/%s: GOWORK=off go list -deps .: %v\n%s", svc, err, b)
		}
	}
}
