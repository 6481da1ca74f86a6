package k8scheck

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// envVar is one variable of a service's configuration, as its --help
// prints it in the ENVIRONMENT section.
type envVar struct {
	Name     string
	Required bool   // "required" or "notzero": the service refuses to start without it
	Default  string // as printed; masked defaults keep their host
}

// serviceConfig is what a service reads from its environment.
type serviceConfig map[string]envVar

var (
	configsOnce sync.Once
	configs     map[string]serviceConfig
	configsErr  error
)

// serviceConfigs builds the five services (one go build, like the local
// stack) and reads each one's --help: the services grow while this test
// lives, so the truth is taken from them, never from a list kept here.
func serviceConfigs(t *testing.T) map[string]serviceConfig {
	t.Helper()
	root := repoRoot(t)
	configsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "k8scheck-bin-")
		if err != nil {
			configsErr = err
			return
		}
		defer os.RemoveAll(dir)
		args := []string{"build", "-o", dir + string(filepath.Separator)}
		for _, s := range serviceNames() {
			args = append(args, "./services/"+s)
		}
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			configsErr = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			return
		}
		configs = map[string]serviceConfig{}
		for _, s := range serviceNames() {
			out, err := exec.Command(filepath.Join(dir, s), "--help").CombinedOutput()
			if err != nil {
				configsErr = fmt.Errorf("%s --help: %v\n%s", s, err, out)
				return
			}
			cfg, err := parseHelp(string(out))
			if err != nil {
				configsErr = fmt.Errorf("%s --help: %w", s, err)
				return
			}
			configs[s] = cfg
		}
	})
	if configsErr != nil {
		t.Fatal(configsErr)
	}
	return configs
}

// envLineRE matches one line of the ENVIRONMENT section of
// ardanlabs/conf's usage: two spaces, the variable, its <type>, then
// optionally "(opt,opt,default: value)" and the help text, columns
// separated by at least two spaces.
var envLineRE = regexp.MustCompile(`^  ([A-Za-z_][A-Za-z0-9_]*)\s+<[^>]*>(?:\s+\((.*?)\))?(?:\s{2,}.*)?$`)

// parseHelp reads the ENVIRONMENT section of a service's --help.
func parseHelp(help string) (serviceConfig, error) {
	cfg := serviceConfig{}
	in := false
	sc := bufio.NewScanner(strings.NewReader(help))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " ")
		switch {
		case line == "ENVIRONMENT":
			in = true
			continue
		case !in || line == "":
			continue
		}
		m := envLineRE.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("ENVIRONMENT line not understood: %q", line)
		}
		v := envVar{Name: m[1]}
		opts := m[2]
		if i := strings.Index(opts, "default: "); i >= 0 {
			v.Default = opts[i+len("default: "):]
			opts = opts[:i]
		}
		for _, o := range strings.Split(opts, ",") {
			if o == "required" || o == "notzero" {
				v.Required = true
			}
		}
		cfg[v.Name] = v
	}
	if len(cfg) == 0 {
		return nil, fmt.Errorf("no ENVIRONMENT section in:\n%s", help)
	}
	return cfg, sc.Err()
}

func TestParseHelp(t *testing.T) {
	help := `Usage: x [options...] [arguments...]

OPTIONS
      --db-url  <string>  (default: xxxxxx:xxxxxx://postgres@127.0.0.1:5432/postgres?sslmode=disable)

ENVIRONMENT
  AUTH_SMTP_FROM     <string>    (default: ponto <nao-responda@ponto.local>)  sender (a, b)
  DB_URL             <string>    (default: xxxxxx:xxxxxx://postgres@127.0.0.1:5432/postgres?sslmode=disable)  
  STRIPE_SECRET_KEY  <string>    (required)                                                                   
  AUTH_CODE_SECRET   <string>                                                 required when AUTH_SMTP_ADDR is set
  MAX                <int>       (notzero,default: 3)                         
`
	cfg, err := parseHelp(help)
	if err != nil {
		t.Fatal(err)
	}
	want := serviceConfig{
		"AUTH_SMTP_FROM":    {Name: "AUTH_SMTP_FROM", Default: "ponto <nao-responda@ponto.local>"},
		"DB_URL":            {Name: "DB_URL", Default: "xxxxxx:xxxxxx://postgres@127.0.0.1:5432/postgres?sslmode=disable"},
		"STRIPE_SECRET_KEY": {Name: "STRIPE_SECRET_KEY", Required: true},
		"AUTH_CODE_SECRET":  {Name: "AUTH_CODE_SECRET"},
		"MAX":               {Name: "MAX", Required: true, Default: "3"},
	}
	if len(cfg) != len(want) {
		t.Fatalf("got %d variables, want %d: %+v", len(cfg), len(want), cfg)
	}
	for k, w := range want {
		if cfg[k] != w {
			t.Errorf("%s: got %+v, want %+v", k, cfg[k], w)
		}
	}
	if _, err := parseHelp("ENVIRONMENT\n  garbage line\n"); err == nil {
		t.Error("a line that is not a variable was accepted")
	}
}
