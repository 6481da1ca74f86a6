package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/tools/stack"
)

// dbURL is the admin URL pointed at database name.
func dbURL(admin, name string) string {
	u, err := url.Parse(admin)
	if err != nil {
		return admin
	}
	u.Path = "/" + name
	return u.String()
}

func dropDatabase(ctx context.Context, admin, name string) error {
	return execSQL(ctx, admin, `DROP DATABASE IF EXISTS `+pgx.Identifier{name}.Sanitize()+` WITH (FORCE)`)
}

func execSQL(ctx context.Context, url, sql string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, sql)
	return err
}

// migrateTimekeeping runs "<bin>/timekeeping migrate" on url: the floor's
// table is the service's own, indexes and triggers included.
func migrateTimekeeping(ctx context.Context, binDir, url, workDir string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "timekeeping"), "migrate")
	cmd.Env = append(os.Environ(), "DB_URL="+url, "LOG_LEVEL=warn")
	cmd.Dir = workDir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("timekeeping migrate: %w\n%s", err, out.String())
	}
	return nil
}

// deleteRedisKeys removes every key of the run, which the stack puts
// under its own prefix: auth's (codes, refresh tokens, rate counters) and
// the other services' (the employee changes' stream, revocations, rate
// counters).
func deleteRedisKeys(ctx context.Context, addr, prefix string) error {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	return redisclient.DeletePrefix(ctx, rdb, prefix)
}

// emptyBucket removes the bench's photos and their bucket.
func emptyBucket(ctx context.Context, o stack.Options) error {
	mc, err := minio.New(net.JoinHostPort("127.0.0.1", strconv.Itoa(o.MinIOPort)), &minio.Options{
		Creds: credentials.NewStaticV4(o.MinIOAccessKey, o.MinIOSecretKey, ""),
	})
	if err != nil {
		return err
	}
	if ok, err := mc.BucketExists(ctx, o.MinIOBucket); err != nil || !ok {
		return err
	}
	objects := mc.ListObjects(ctx, o.MinIOBucket, minio.ListObjectsOptions{Recursive: true})
	for e := range mc.RemoveObjects(ctx, o.MinIOBucket, objects, minio.RemoveObjectsOptions{}) {
		if e.Err != nil {
			return e.Err
		}
	}
	return mc.RemoveBucket(ctx, o.MinIOBucket)
}

func portOf(hostport string) int {
	_, p, _ := net.SplitHostPort(hostport)
	n, _ := strconv.Atoi(p)
	return n
}

// stackLog receives the stack's output. Successful requests' access-log
// lines are dropped (at thousands a second they would fill the disk and
// say nothing); everything else goes to the run's stack.log, and the
// last lines are kept to explain a failure.
type stackLog struct {
	mu   sync.Mutex
	w    io.Writer
	last []string
	next int
}

const tailLines = 60

func newStackLog(w io.Writer) *stackLog { return &stackLog{w: w, last: make([]string, 0, tailLines)} }

func (l *stackLog) Write(p []byte) (int, error) {
	line := string(p)
	if strings.Contains(line, `"msg":"request"`) &&
		(strings.Contains(line, `"status":2`) || strings.Contains(line, `"status":3`)) {
		return len(p), nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.last) < tailLines {
		l.last = append(l.last, line)
	} else {
		l.last[l.next] = line
		l.next = (l.next + 1) % tailLines
	}
	return l.w.Write(p)
}

func (l *stackLog) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(append(append([]string{}, l.last[l.next:]...), l.last[:l.next]...), "")
}
