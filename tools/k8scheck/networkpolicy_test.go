package k8scheck

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// documentedCallers reads docs/internal-api.md: for each service section
// ("## <service>"), the services named in the caller column of its route
// table. Words that are not services ("others") are ignored.
func documentedCallers(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "docs", "internal-api.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	callers := map[string]map[string]bool{}
	section := ""
	callerCol := -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "## ") {
			section, callerCol = strings.TrimSpace(strings.TrimPrefix(line, "## ")), -1
			continue
		}
		if !isService(section) || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if callerCol < 0 {
			for i, c := range cells {
				if strings.TrimSpace(c) == "caller" {
					callerCol = i
				}
			}
			continue
		}
		if callerCol >= len(cells) || strings.Trim(cells[callerCol], " -:") == "" {
			continue
		}
		for _, s := range serviceNames() {
			if mentions(cells[callerCol], s) {
				if callers[section] == nil {
					callers[section] = map[string]bool{}
				}
				callers[section][s] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for svc, set := range callers {
		out[svc] = sortedKeys(set)
	}
	if len(out) == 0 {
		t.Fatal("docs/internal-api.md: no caller found")
	}
	return out
}

func isService(name string) bool {
	for _, s := range serviceNames() {
		if s == name {
			return true
		}
	}
	return false
}

// mentions finds a service name as a whole word ("auth" is not in
// "authorization", "employee" not in "employees-x").
func mentions(text, service string) bool {
	re := regexp.MustCompile(`(^|[^a-z-])` + regexp.QuoteMeta(service) + `($|[^a-z-])`)
	return re.MatchString(strings.ToLower(text))
}

// policyPeers sorts the peers of a NetworkPolicy's rules by port name:
// "components" are this release's pods (by component label), "others"
// the peers outside the namespace (namespaceSelector, ipBlock).
type policyPeers struct {
	components map[string][]string
	others     map[string]int
}

func readPolicy(t *testing.T, np obj, ports map[any]string) (policyPeers, []string) {
	t.Helper()
	pp := policyPeers{components: map[string][]string{}, others: map[string]int{}}
	var problems []string
	for i, rule := range list(np, "spec", "ingress") {
		from := list(rule, "from")
		rulePorts := list(rule, "ports")
		if len(from) == 0 || len(rulePorts) == 0 {
			problems = append(problems, fmt.Sprintf("rule %d admits every source or every port (from %v, ports %v)", i, from, rulePorts))
			continue
		}
		for _, p := range rulePorts {
			port, ok := ports[get(p, "port")]
			if !ok {
				problems = append(problems, fmt.Sprintf("rule %d opens port %v, neither the public nor the internal one", i, get(p, "port")))
				continue
			}
			for _, peer := range from {
				labels := mapAt(peer, "podSelector", "matchLabels")
				switch {
				case get(peer, "namespaceSelector") == nil && get(peer, "ipBlock") == nil:
					if labels["app.kubernetes.io/instance"] != release || labels["app.kubernetes.io/component"] == nil {
						problems = append(problems, fmt.Sprintf("rule %d: in-namespace peer %v is not one component of the release", i, peer))
						continue
					}
					pp.components[port] = append(pp.components[port], fmt.Sprint(labels["app.kubernetes.io/component"]))
				default:
					pp.others[port]++
				}
			}
		}
	}
	for _, l := range pp.components {
		sort.Strings(l)
	}
	return pp, problems
}

// TestNetworkPolicies: a namespace-wide default deny; each service's
// internal port admits exactly the callers docs/internal-api.md names (which
// are exactly the services the chart gives its <SERVICE>_INTERNAL_URL);
// each public port admits the ingress controller, the services calling the
// API directly (web, WEB_API_ROUTES), and auth's also the services fetching
// its JWKS.
func TestNetworkPolicies(t *testing.T) {
	documented := documentedCallers(t)
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			objs := render(t, values)
			checkDefaultDeny(t, objs)
			configured := configuredCallers(t, objs)
			verifiers := jwksFetchers(t, objs)
			direct := apiCallers(t, objs)
			ports := map[any]string{"http": "public", 8080: "public", "internal": "internal", 9090: "internal"}
			for _, svc := range serviceNames() {
				np := find(objs, "NetworkPolicy", fullname(svc))
				if np == nil {
					t.Errorf("%s: no NetworkPolicy", svc)
					continue
				}
				if fmt.Sprint(get(np, "spec", "policyTypes")) != "[Ingress]" {
					t.Errorf("%s: policyTypes %v, want [Ingress]", svc, get(np, "spec", "policyTypes"))
				}
				pp, problems := readPolicy(t, np, ports)
				for _, p := range problems {
					t.Errorf("%s: %s", svc, p)
				}
				want := documented[svc]
				if got := pp.components["internal"]; strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("%s: internal port admits %v, docs/internal-api.md names the callers %v", svc, got, want)
				}
				if got := configured[svc]; strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("%s: the chart gives its internal URL to %v, docs/internal-api.md names the callers %v", svc, got, want)
				}
				wantPublic := direct[svc]
				if svc == "auth" {
					wantPublic = union(verifiers, wantPublic)
				}
				if got := pp.components["public"]; strings.Join(got, ",") != strings.Join(wantPublic, ",") {
					t.Errorf("%s: public port admits the pods of %v, want %v", svc, got, wantPublic)
				}
				if pp.others["public"] == 0 {
					t.Errorf("%s: public port does not admit the ingress controller", svc)
				}
			}
		})
	}
}

func checkDefaultDeny(t *testing.T, objs []obj) {
	t.Helper()
	for _, np := range byKind(objs, "NetworkPolicy") {
		sel := mapAt(np, "spec", "podSelector")
		if sel != nil && len(sel) == 0 && get(np, "spec", "ingress") == nil &&
			fmt.Sprint(get(np, "spec", "policyTypes")) == "[Ingress]" {
			return
		}
	}
	t.Error("no default-deny NetworkPolicy (podSelector {}, policyTypes [Ingress], no rule)")
}

// configuredCallers: for each service, the services whose ConfigMap sets
// its <SERVICE>_INTERNAL_URL.
func configuredCallers(t *testing.T, objs []obj) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, caller := range serviceNames() {
		data := mapAt(find(objs, "ConfigMap", fullname(caller)), "data")
		for _, callee := range serviceNames() {
			v := strings.ToUpper(strings.ReplaceAll(callee, "-", "_")) + "_INTERNAL_URL"
			if url, ok := data[v]; ok {
				out[callee] = append(out[callee], caller)
				if want := fmt.Sprintf("http://%s:9090", fullname(callee)); url != want {
					t.Errorf("%s: %s=%v, want %s", caller, v, url, want)
				}
			}
		}
	}
	for _, l := range out {
		sort.Strings(l)
	}
	return out
}

// jwksFetchers: the services whose ConfigMap sets JWT_JWKS_URL, which must
// be auth's public JWKS.
func jwksFetchers(t *testing.T, objs []obj) []string {
	t.Helper()
	var out []string
	want := fmt.Sprintf("http://%s:8080/.well-known/jwks.json", fullname("auth"))
	for _, svc := range serviceNames() {
		if url, ok := mapAt(find(objs, "ConfigMap", fullname(svc)), "data")["JWT_JWKS_URL"]; ok {
			out = append(out, svc)
			if url != want {
				t.Errorf("%s: JWT_JWKS_URL=%v, want %s", svc, url, want)
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestDocumentedCallersParse(t *testing.T) {
	got := documentedCallers(t)
	// The auth section must at least name company-billing (company block)
	// and employee (deactivation): the parser reads the caller column.
	if !strings.Contains(strings.Join(got["auth"], ","), "company-billing") {
		t.Errorf("auth callers %v: company-billing not found", got["auth"])
	}
	if mentions("authorization", "auth") || !mentions("auth, others", "auth") || !mentions("company-billing (block)", "company-billing") {
		t.Error("mentions does not match whole service names")
	}
}
