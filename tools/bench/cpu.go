package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/tools/routes"
)

// CPU time per request, by process, is the figure that explains a ratio:
// it does not move with the machine's load the way req/s does, and it
// says where a request's cost goes. It is read from /proc (user + system
// time) at the start and the end of the measured part.

// clockTick is USER_HZ, the unit of /proc/<pid>/stat's times: 100 on
// every Linux this runs on.
const clockTick = 100

// procCPU is a process's user+system CPU time so far; 0 when it is gone
// or /proc is not there.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; fields after it are
	// counted from its closing parenthesis. utime and stime are fields
	// 14 and 15.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTick
}

// cpuSample is the CPU time of the processes a workload involves.
type cpuSample map[string]time.Duration

// sampleCPU reads the services, the benchmark itself (load generator and
// gateway), the PostgreSQL backends serving the run's databases and the
// Redis server.
func (r *runner) sampleCPU(ctx context.Context) cpuSample {
	out := cpuSample{"bench": procCPU(os.Getpid())}
	pids := r.stack.PIDs()
	for i, name := range routes.Services {
		if i < len(pids) {
			out[name] = procCPU(pids[i])
		}
	}
	var total time.Duration
	for _, d := range backendsCPU(ctx, r.pools["timekeeping"], r.stack.DatabaseNames()) {
		total += d
	}
	out["postgres"] = total
	if r.redisPID > 0 {
		// The whole server: the run's own traffic, and whatever else
		// this machine sends it meanwhile.
		out["redis"] = procCPU(r.redisPID)
	}
	return out
}

// backendsCPU is the CPU time of the backends connected to each service's
// database (dbs: database by service), by service. A backend that started
// during the measurement counts its whole life; one that ended counts
// nothing: the pools keep theirs open, so both are rare.
func backendsCPU(ctx context.Context, db *pgxpool.Pool, dbs map[string]string) map[string]time.Duration {
	service := make(map[string]string, len(dbs))
	names := make([]string, 0, len(dbs))
	for svc, name := range dbs {
		service[name] = svc
		names = append(names, name)
	}
	rows, _ := db.Query(ctx, `SELECT pid, datname FROM pg_stat_activity WHERE datname = ANY($1)`, names)
	out := map[string]time.Duration{}
	var pid int32
	var datname string
	if _, err := pgx.ForEachRow(rows, []any{&pid, &datname}, func() error {
		out[service[datname]] += procCPU(int(pid))
		return nil
	}); err != nil {
		return nil
	}
	return out
}

// CPUPerOp is a workload's CPU milliseconds per operation by process.
type CPUPerOp map[string]float64

// total is the CPU of every process.
func (c CPUPerOp) total() float64 {
	t := 0.0
	for _, v := range c {
		t += v
	}
	return t
}

// perOp turns two samples around n operations into milliseconds per op,
// leaving out processes that spent nothing.
func perOp(before, after cpuSample, n int64) CPUPerOp {
	if n <= 0 {
		return nil
	}
	out := CPUPerOp{}
	for k, a := range after {
		if d := a - before[k]; d > 0 {
			out[k] = float64(d.Microseconds()) / 1000 / float64(n)
		}
	}
	return out
}

// redisPID is the Redis server's process id, from INFO server; 0 when it
// cannot be read (then Redis' CPU is not counted).
func redisPID(ctx context.Context, addr string) int {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	info, err := rdb.Info(ctx, "server").Result()
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			pid, _ := strconv.Atoi(v)
			return pid
		}
	}
	return 0
}
