package tokens

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/clock"
)

// ErrUnknownRefresh means the refresh token is unknown, expired or revoked;
// the three are not told apart.
var ErrUnknownRefresh = errors.New("tokens: unknown refresh token")

// ErrReplayedRefresh is an ErrUnknownRefresh that was a token its session
// had already rotated away; the session is revoked.
var ErrReplayedRefresh = fmt.Errorf("%w: replayed after rotation, session revoked", ErrUnknownRefresh)

// refreshBytes is the entropy of a refresh token's secret: 256 bits;
// familyBytes that of its family id: 128 bits.
const (
	refreshBytes = 32
	familyBytes  = 16
)

// MaxRefreshLen bounds what is hashed and looked up; our tokens have 66
// characters, anything much longer cannot be one.
const MaxRefreshLen = 128

// RefreshStore keeps refresh tokens in Redis and rotates them on use (RFC
// 9700, section 4.14.2). A token is "<family>.<secret>": the family is
// the login session, fixed at login; the secret changes at every refresh.
// Redis holds one record per family with the SHA-256 of its one current
// token, so a dump of Redis hands out no usable token (the secret has 256
// random bits, so a fast unsalted hash is enough). A token of a live
// family that is not its current one was already rotated: someone replays
// it, the thief or the victim, and the whole family is revoked. Keys,
// under Prefix:
//
//	rt:<sha256(family)>   hash: role, sub, empresaId, funcionarioId, exp (ms), cur (sha256 of the current token); TTL = the session's life
//	rt:sub:<role>:<id>    sorted set of the subject's family hashes, scored by expiry
//	rt:empresa:<id>       sorted set of the family hashes of the company's and its employees' sessions
//
// Rotation keeps the session's expiry: a session lasts TTL from its login
// however often it refreshes. Tokens issued before rotation existed have
// no dot; their family is the token itself and their record has no cur.
//
// The sorted sets make revoking everything of a company or an employee
// cost O(its sessions) instead of a SCAN of the keyspace. The scripts build
// some key names themselves, so the store needs a single Redis (not
// Cluster), which is what ponto runs.
type RefreshStore struct {
	RDB    *redis.Client
	Prefix string
	TTL    time.Duration
	// Clock dates the sessions' expiries and checks them.
	Clock *clock.Clock
	// MaxPerSubject caps the live sessions of one account; the oldest is
	// revoked when a login goes past it, so a client looping on login
	// cannot grow Redis without bound.
	MaxPerSubject int
}

func (s *RefreshStore) familyKey(hash string) string { return s.Prefix + "rt:" + hash }
func (s *RefreshStore) subjectKey(sub string) string { return s.Prefix + "rt:sub:" + sub }
func (s *RefreshStore) empresaKey(id int64) string {
	return s.Prefix + "rt:empresa:" + strconv.FormatInt(id, 10)
}

func hashString(v string) string {
	sum := sha256.Sum256([]byte(v))
	return hex.EncodeToString(sum[:])
}

// parsed is a presented token's family hash and own hash; ok is false for
// a string that cannot be one of our tokens.
type parsed struct {
	family, token string
	ok            bool
}

func parseToken(token string) parsed {
	if token == "" || len(token) > MaxRefreshLen {
		return parsed{}
	}
	family, _, found := strings.Cut(token, ".")
	if !found {
		family = token // issued before rotation: its own family
	}
	return parsed{family: hashString(family), token: hashString(token), ok: true}
}

func randomString(n int) string {
	raw := make([]byte, n)
	_, _ = rand.Read(raw) // never fails since Go 1.24
	return base64.RawURLEncoding.EncodeToString(raw)
}

// sessionID is the session id of a family's hash.
func sessionID(familyHash string) string { return familyHash[:32] }

// Live reports whether the token's session exists (current token or not).
func (s *RefreshStore) Live(ctx context.Context, token string) (bool, error) {
	p := parseToken(token)
	if !p.ok {
		return false, nil
	}
	n, err := s.RDB.Exists(ctx, s.familyKey(p.family)).Result()
	if err != nil {
		return false, fmt.Errorf("tokens: look up refresh token: %w", err)
	}
	return n == 1, nil
}

// SessionOf is the session id of a refresh token ("" when malformed).
func SessionOf(token string) string {
	p := parseToken(token)
	if !p.ok {
		return ""
	}
	return sessionID(p.family)
}

// newToken is a fresh token of family.
func newToken(family string) string { return family + "." + randomString(refreshBytes) }

// createScript stores the family record and adds it to its indexes,
// pruning expired members, moving each index's expiry to its latest
// member and evicting the subject's oldest sessions past the cap.
var createScript = redis.NewScript(`
local member, ttl, now, exp, cap, tprefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), ARGV[6]
redis.call('HSET', KEYS[1], unpack(ARGV, 7))
redis.call('PEXPIRE', KEYS[1], ttl)
for i = 2, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  redis.call('ZADD', KEYS[i], exp, member)
  local last = redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', KEYS[i], last[2])
end
local extra = redis.call('ZCARD', KEYS[2]) - cap
if extra > 0 then
  local old = redis.call('ZPOPMIN', KEYS[2], extra)
  for j = 1, #old, 2 do redis.call('DEL', tprefix .. old[j]) end
end
return 1
`)

// Create starts a new session (a family) for id and returns its first
// refresh token; only hashes are stored.
func (s *RefreshStore) Create(ctx context.Context, id Identity) (string, error) {
	family := randomString(familyBytes)
	token := newToken(family)
	famHash := hashString(family)

	now := s.Clock.Now()
	exp := now.Add(s.TTL)
	keys := []string{s.familyKey(famHash), s.subjectKey(id.Subject)}
	if id.EmpresaID > 0 {
		keys = append(keys, s.empresaKey(id.EmpresaID))
	}
	args := []any{
		famHash, s.TTL.Milliseconds(), now.UnixMilli(), exp.UnixMilli(), s.MaxPerSubject, s.Prefix + "rt:",
		"role", id.Role, "sub", id.Subject,
		"empresaId", id.EmpresaID, "funcionarioId", id.FuncionarioID, "exp", exp.UnixMilli(),
		"cur", hashString(token),
	}
	if err := createScript.Run(ctx, s.RDB, keys, args...).Err(); err != nil {
		return "", fmt.Errorf("tokens: store refresh token: %w", err)
	}
	return token, nil
}

// Lookup returns the identity behind the current token of a live
// session, or ErrUnknownRefresh. A token its session already rotated away
// revokes the session before the answer.
func (s *RefreshStore) Lookup(ctx context.Context, token string) (Identity, error) {
	p := parseToken(token)
	if !p.ok {
		return Identity{}, ErrUnknownRefresh
	}
	f, err := s.RDB.HGetAll(ctx, s.familyKey(p.family)).Result()
	if err != nil {
		return Identity{}, fmt.Errorf("tokens: look up refresh token: %w", err)
	}
	if len(f) == 0 {
		return Identity{}, ErrUnknownRefresh
	}
	if cur := f["cur"]; cur != p.token && (cur != "" || p.family != p.token) {
		if err := s.Revoke(ctx, token); err != nil {
			return Identity{}, err
		}
		return Identity{}, ErrReplayedRefresh
	}
	// Redis expires the key with the session; the stored expiry is
	// checked as well so a key whose TTL got lost (a restore, a bad
	// PERSIST) never makes a token immortal.
	exp, _ := strconv.ParseInt(f["exp"], 10, 64)
	if s.Clock.Now().UnixMilli() >= exp {
		return Identity{}, ErrUnknownRefresh
	}
	empresaID, _ := strconv.ParseInt(f["empresaId"], 10, 64)
	funcionarioID, _ := strconv.ParseInt(f["funcionarioId"], 10, 64)
	return Identity{Role: f["role"], Subject: f["sub"], EmpresaID: empresaID, FuncionarioID: funcionarioID,
		SessionID: sessionID(p.family)}, nil
}

// rotateScript replaces the session's current token hash, in one step:
// of two refreshes racing with the same token exactly one finds it
// current. The other, like any replay, deletes the session (as
// revokeScript). Returns 1 when rotated, 0 when the session is gone and
// -1 when the token was not the current one.
var rotateScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], 'sub', 'empresaId', 'cur')
if not f[1] then return 0 end
local cur = f[3] or ARGV[3]
if cur ~= ARGV[4] then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', ARGV[1] .. f[1], ARGV[3])
  if f[2] and f[2] ~= '0' then redis.call('ZREM', ARGV[2] .. f[2], ARGV[3]) end
  return -1
end
redis.call('HSET', KEYS[1], 'cur', ARGV[5])
return 1
`)

// Rotate makes token's successor in its session and returns it; the
// token stops working. ErrUnknownRefresh when token is not the session's
// current one any more (a concurrent refresh won; the session is revoked)
// or the session is gone.
func (s *RefreshStore) Rotate(ctx context.Context, token string) (string, error) {
	p := parseToken(token)
	if !p.ok {
		return "", ErrUnknownRefresh
	}
	// A pre-rotation token (no dot) is its own family id, so its
	// successor is "<old token>.<secret>" and finds the same record.
	family, _, _ := strings.Cut(token, ".")
	next := newToken(family)
	n, err := rotateScript.Run(ctx, s.RDB, []string{s.familyKey(p.family)},
		s.Prefix+"rt:sub:", s.Prefix+"rt:empresa:", p.family, p.token, hashString(next)).Int()
	if err != nil {
		return "", fmt.Errorf("tokens: rotate refresh token: %w", err)
	}
	switch n {
	case 1:
		return next, nil
	case -1:
		return "", ErrReplayedRefresh
	}
	return "", ErrUnknownRefresh
}

// revokeScript deletes one session and takes it out of its indexes.
var revokeScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], 'sub', 'empresaId')
if not f[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', ARGV[1] .. f[1], ARGV[3])
if f[2] and f[2] ~= '0' then redis.call('ZREM', ARGV[2] .. f[2], ARGV[3]) end
return 1
`)

// Revoke deletes the session token belongs to, whichever of its tokens
// it is. An unknown token is not an error: logging out twice is fine.
func (s *RefreshStore) Revoke(ctx context.Context, token string) error {
	p := parseToken(token)
	if !p.ok {
		return nil
	}
	err := revokeScript.Run(ctx, s.RDB, []string{s.familyKey(p.family)},
		s.Prefix+"rt:sub:", s.Prefix+"rt:empresa:", p.family).Err()
	if err != nil {
		return fmt.Errorf("tokens: revoke refresh token: %w", err)
	}
	return nil
}

// revokeAllScript deletes every token an index lists, then the index.
// Members of other indexes that pointed at them become stale and are
// pruned by expiry; a stale member only ever leads to deleting a key that
// is already gone.
var revokeAllScript = redis.NewScript(`
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, h in ipairs(members) do redis.call('DEL', ARGV[1] .. h) end
redis.call('DEL', KEYS[1])
return #members
`)

// RevokeEmpresa deletes every refresh token of the company and of its
// employees.
func (s *RefreshStore) RevokeEmpresa(ctx context.Context, empresaID int64) error {
	return s.revokeAll(ctx, s.empresaKey(empresaID))
}

// RevokeSubject deletes every refresh token of one account.
func (s *RefreshStore) RevokeSubject(ctx context.Context, subject string) error {
	return s.revokeAll(ctx, s.subjectKey(subject))
}

func (s *RefreshStore) revokeAll(ctx context.Context, index string) error {
	if err := revokeAllScript.Run(ctx, s.RDB, []string{index}, s.Prefix+"rt:").Err(); err != nil {
		return fmt.Errorf("tokens: revoke all: %w", err)
	}
	return nil
}
