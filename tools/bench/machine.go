package bench

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Machine is what the figures were measured on.
type Machine struct {
	CPUs       int     `json:"nproc"`
	CPUModel   string  `json:"cpu"`
	MemoryMiB  int     `json:"memoriaMiB"`
	Kernel     string  `json:"kernel"`
	Go         string  `json:"go"`
	PostgreSQL string  `json:"postgresql"`
	LoadAvg    float64 `json:"cargaMedia1min"`
}

func machine(ctx context.Context, db *pgxpool.Pool) Machine {
	m := Machine{CPUs: runtime.NumCPU(), Go: runtime.Version(), LoadAvg: loadAvg()}
	if out, err := exec.Command("nproc").Output(); err == nil {
		m.CPUs, _ = strconv.Atoi(strings.TrimSpace(string(out)))
	}
	m.CPUModel = procField("/proc/cpuinfo", "model name")
	if kb, err := strconv.Atoi(strings.Fields(procField("/proc/meminfo", "MemTotal") + " 0")[0]); err == nil {
		m.MemoryMiB = kb / 1024
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	_ = db.QueryRow(ctx, `SELECT version()`).Scan(&m.PostgreSQL)
	return m
}

// procField is the value of the first "name: value" line of a /proc file.
func procField(path, name string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, ok := strings.Cut(s.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// loadAvg is the 1-minute load average: on a shared machine it says how
// busy the others were while a figure was taken.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return f
}

// gitCommit is HEAD and whether the tree has uncommitted changes.
func gitCommit(root string) (string, bool) {
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "desconhecido", false
	}
	status, _ := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output()
	return strings.TrimSpace(string(out)), len(strings.TrimSpace(string(status))) > 0
}
