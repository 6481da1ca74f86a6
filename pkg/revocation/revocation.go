// Package revocation ends access at once when its reason ends: when a
// company deactivates an employee or an admin blocks a company, auth
// records a "not before" time for that subject in Redis, and every
// service refuses the subject's access tokens issued up to then, on the
// next request, although they have not expired yet.
//
// The record is a sorted set (member: the subject, score: the Unix second
// up to which its tokens are void) that every service copies into memory
// and keeps current two ways: a Redis Pub/Sub message on every revocation
// (applied as soon as it arrives, well before the client's next request),
// and a full reload every few seconds that heals messages lost while a
// connection was down. Checking a request is then a map lookup: no Redis
// call on the hot path. While Redis is unreachable the last copy holds.
package revocation

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
)

// key is the sorted set of the revocations under a deployment's prefix
// (redisclient.Config.KeyPrefix); the channel announcing each new one has
// the same name.
func key(prefix string) string { return prefix + "revocations" }

const (
	// Retention is how long a revocation is kept: longer than any access
	// token lives (15 minutes by default), after which the tokens it voids
	// have expired anyway.
	Retention = 24 * time.Hour
	// DefaultReload is how often a Watcher reloads the whole set.
	DefaultReload = 5 * time.Second
)

// Kinds of subject: an account (Funcionario, Empresa) or one login
// session (Sessao, ended by its logout: the access tokens' sid claim).
const (
	Funcionario = "funcionario"
	Empresa     = "empresa"
	Sessao      = "sessao"
)

// subject is a revoked account, its kind and id, or a session, its sid.
type subject struct {
	kind string
	id   int64
	sid  string
}

func (s subject) String() string {
	if s.kind == Sessao {
		return s.kind + ":" + s.sid
	}
	return s.kind + ":" + strconv.FormatInt(s.id, 10)
}

func parseSubject(s string) (subject, bool) {
	kind, id, ok := strings.Cut(s, ":")
	if ok && kind == Sessao {
		return subject{kind: kind, sid: id}, validSID(id)
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if !ok || err != nil || (kind != Funcionario && kind != Empresa) {
		return subject{}, false
	}
	return subject{kind: kind, id: n}, true
}

// validSID bounds what a session id may be: 16 to 64 hex digits.
func validSID(sid string) bool {
	if len(sid) < 16 || len(sid) > 64 {
		return false
	}
	for _, r := range sid {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

// Revoke voids every access token of the subject (kind Funcionario or
// Empresa) issued up to at, in every service. Revoking an Empresa voids
// its employees' tokens too.
func Revoke(ctx context.Context, rdb redis.Cmdable, prefix, kind string, id int64, at time.Time) error {
	s := subject{kind: kind, id: id}
	if _, ok := parseSubject(s.String()); !ok || id <= 0 || kind == Sessao {
		return fmt.Errorf("revocation: bad subject %s", s)
	}
	return revoke(ctx, rdb, prefix, s, at)
}

// RevokeSession voids every access token of the login session sid (the
// tokens' sid claim), in every service: a logout.
func RevokeSession(ctx context.Context, rdb redis.Cmdable, prefix, sid string, at time.Time) error {
	if !validSID(sid) {
		return fmt.Errorf("revocation: bad session id")
	}
	return revoke(ctx, rdb, prefix, subject{kind: Sessao, sid: sid}, at)
}

func revoke(ctx context.Context, rdb redis.Cmdable, prefix string, s subject, at time.Time) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		// GT: a later revocation is never replaced by an earlier one.
		p.ZAddGT(ctx, key(prefix), redis.Z{Score: float64(at.Unix()), Member: s.String()})
		p.ZRemRangeByScore(ctx, key(prefix), "-inf", "("+strconv.FormatInt(at.Add(-Retention).Unix(), 10))
		p.Publish(ctx, key(prefix), s.String()+" "+strconv.FormatInt(at.Unix(), 10))
		return nil
	})
	if err != nil {
		return fmt.Errorf("revocation: %s: %w", s, err)
	}
	return nil
}

// Watcher is a service's copy of the revocations.
type Watcher struct {
	rdb *redis.Client
	key string
	log *slog.Logger

	mu      sync.RWMutex
	revoked map[subject]int64
}

// Watch loads the revocations under the deployment's key prefix and keeps
// them current until ctx ends.
func Watch(ctx context.Context, rdb *redis.Client, prefix string, log *slog.Logger, reload time.Duration) *Watcher {
	w := &Watcher{rdb: rdb, key: key(prefix), log: log, revoked: map[subject]int64{}}
	sub := rdb.Subscribe(ctx, w.key)
	if err := w.load(ctx); err != nil {
		log.WarnContext(ctx, "revocation: first load failed; retrying in the background", "err", err.Error())
	}
	go w.listen(sub)
	go func() {
		<-ctx.Done()
		_ = sub.Close() // ends listen
	}()
	go w.reloadEvery(ctx, reload)
	return w
}

// load replaces the copy with the whole set.
func (w *Watcher) load(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	min := strconv.FormatInt(time.Now().Add(-Retention).Unix(), 10)
	zs, err := w.rdb.ZRangeByScoreWithScores(ctx, w.key, &redis.ZRangeBy{Min: min, Max: "+inf"}).Result()
	if err != nil {
		return err
	}
	fresh := make(map[subject]int64, len(zs))
	for _, z := range zs {
		if s, ok := parseSubject(fmt.Sprint(z.Member)); ok {
			fresh[s] = int64(z.Score)
		}
	}
	w.mu.Lock()
	// A message applied while the set was being read is kept.
	for s, at := range w.revoked {
		if at > fresh[s] {
			fresh[s] = at
		}
	}
	w.revoked = fresh
	w.mu.Unlock()
	return nil
}

// listen applies each announced revocation; go-redis resubscribes by
// itself after a lost connection.
func (w *Watcher) listen(sub *redis.PubSub) {
	for msg := range sub.Channel() {
		name, at, ok := strings.Cut(msg.Payload, " ")
		s, okS := parseSubject(name)
		t, err := strconv.ParseInt(at, 10, 64)
		if !ok || !okS || err != nil {
			continue
		}
		w.set(s, t)
	}
}

func (w *Watcher) set(s subject, at int64) {
	w.mu.Lock()
	if at > w.revoked[s] {
		w.revoked[s] = at
	}
	w.mu.Unlock()
}

func (w *Watcher) reloadEvery(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = DefaultReload
	}
	clock.Every(ctx, every, func() {
		if err := w.load(ctx); err != nil && ctx.Err() == nil {
			w.log.DebugContext(ctx, "revocation: reload failed; keeping the last copy", "err", err.Error())
		}
	})
}

// Revoked reports whether a token of the caller issued at iat (Unix
// seconds) is void: its employee or its company was revoked at or after
// that second.
func (w *Watcher) Revoked(claims *jwtauth.Claims) bool {
	var iat int64
	if claims.IssuedAt != nil {
		iat = claims.IssuedAt.Unix()
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	if len(w.revoked) == 0 {
		return false
	}
	if claims.EmpresaID > 0 {
		if at, ok := w.revoked[subject{kind: Empresa, id: claims.EmpresaID}]; ok && iat <= at {
			return true
		}
	}
	if claims.FuncionarioID > 0 {
		if at, ok := w.revoked[subject{kind: Funcionario, id: claims.FuncionarioID}]; ok && iat <= at {
			return true
		}
	}
	return false
}

// sessionEnded reports whether the token's session was logged out.
func (w *Watcher) sessionEnded(claims *jwtauth.Claims) bool {
	if claims.SessionID == "" {
		return false
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	_, ok := w.revoked[subject{kind: Sessao, sid: claims.SessionID}]
	return ok
}

// NotBefore is the last second up to which the tokens of the employee or
// the company were voided (0: never). auth issues new tokens after it.
func (w *Watcher) NotBefore(empresaID, funcionarioID int64) int64 {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return max(w.revoked[subject{kind: Empresa, id: empresaID}], w.revoked[subject{kind: Funcionario, id: funcionarioID}])
}

// errRevoked answers a token whose access ended. 403, not 401: the token
// is genuine, its holder may no longer act (a new login is refused too).
var errRevoked = domainerr.Forbidden("acesso_revogado", "acesso revogado: funcionário desativado ou empresa bloqueada")

// errSessionEnded answers a token of a session its holder logged out of:
// 401, the client logs in again.
var errSessionEnded = domainerr.Unauthenticated("sessao_encerrada", "sessão encerrada; entre novamente")

// Guard is the jwtauth.Guard that refuses revoked tokens and those of a
// session logged out of.
func (w *Watcher) Guard(_ *fiber.Ctx, claims *jwtauth.Claims) error {
	if w.Revoked(claims) {
		return errRevoked
	}
	if w.sessionEnded(claims) {
		return errSessionEnded
	}
	return nil
}
