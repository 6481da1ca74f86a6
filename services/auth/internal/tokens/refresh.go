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
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrUnknownRefresh means the refresh token is unknown, expired or revoked;
// the three are not told apart.
var ErrUnknownRefresh = errors.New("tokens: unknown refresh token")

// refreshBytes is the entropy of a refresh token: 256 bits.
const refreshBytes = 32

// MaxRefreshLen bounds what is hashed and looked up; our tokens have 43
// characters, anything much longer cannot be one.
const MaxRefreshLen = 128

// RefreshStore keeps refresh tokens in Redis. Only the SHA-256 of a token
// is stored, so a dump of Redis hands out no usable token (the token has
// 256 random bits, so a fast unsalted hash is enough). Keys, under Prefix:
//
//	rt:<sha256>           hash: role, sub, empresaId, funcionarioId, exp (ms); TTL = the token's life
//	rt:sub:<role>:<id>    sorted set of the subject's token hashes, scored by expiry
//	rt:empresa:<id>       sorted set of the hashes of the company's and its employees' tokens
//
// The sorted sets make revoking everything of a company or an employee
// cost O(its tokens) instead of a SCAN of the keyspace. The scripts build
// some key names themselves, so the store needs a single Redis (not
// Cluster), which is what ponto runs.
type RefreshStore struct {
	RDB    *redis.Client
	Prefix string
	TTL    time.Duration
	// MaxPerSubject caps the live refresh tokens of one account; the
	// oldest is revoked when a login goes past it, so a client looping on
	// login cannot grow Redis without bound.
	MaxPerSubject int
}

func (s *RefreshStore) tokenKey(hash string) string  { return s.Prefix + "rt:" + hash }
func (s *RefreshStore) subjectKey(sub string) string { return s.Prefix + "rt:sub:" + sub }
func (s *RefreshStore) empresaKey(id int64) string {
	return s.Prefix + "rt:empresa:" + strconv.FormatInt(id, 10)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// createScript stores the token hash and adds it to its indexes, pruning
// expired members, moving each index's expiry to its latest member and
// evicting the subject's oldest tokens past the cap.
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

// Create makes a new refresh token for id and returns it; only its hash
// is stored.
func (s *RefreshStore) Create(ctx context.Context, id Identity) (string, error) {
	raw := make([]byte, refreshBytes)
	_, _ = rand.Read(raw) // never fails since Go 1.24
	token := base64.RawURLEncoding.EncodeToString(raw)
	hash := hashToken(token)

	now := time.Now()
	exp := now.Add(s.TTL)
	keys := []string{s.tokenKey(hash), s.subjectKey(id.Subject)}
	if id.EmpresaID > 0 {
		keys = append(keys, s.empresaKey(id.EmpresaID))
	}
	args := []any{
		hash, s.TTL.Milliseconds(), now.UnixMilli(), exp.UnixMilli(), s.MaxPerSubject, s.Prefix + "rt:",
		"role", id.Role, "sub", id.Subject,
		"empresaId", id.EmpresaID, "funcionarioId", id.FuncionarioID, "exp", exp.UnixMilli(),
	}
	if err := createScript.Run(ctx, s.RDB, keys, args...).Err(); err != nil {
		return "", fmt.Errorf("tokens: store refresh token: %w", err)
	}
	return token, nil
}

// Lookup returns the identity behind a live refresh token, or
// ErrUnknownRefresh.
func (s *RefreshStore) Lookup(ctx context.Context, token string) (Identity, error) {
	if token == "" || len(token) > MaxRefreshLen {
		return Identity{}, ErrUnknownRefresh
	}
	f, err := s.RDB.HGetAll(ctx, s.tokenKey(hashToken(token))).Result()
	if err != nil {
		return Identity{}, fmt.Errorf("tokens: look up refresh token: %w", err)
	}
	if len(f) == 0 {
		return Identity{}, ErrUnknownRefresh
	}
	// Redis expires the key with the token; the stored expiry is checked
	// as well so a key whose TTL got lost (a restore, a bad PERSIST) never
	// makes a token immortal.
	exp, _ := strconv.ParseInt(f["exp"], 10, 64)
	if time.Now().UnixMilli() >= exp {
		return Identity{}, ErrUnknownRefresh
	}
	empresaID, _ := strconv.ParseInt(f["empresaId"], 10, 64)
	funcionarioID, _ := strconv.ParseInt(f["funcionarioId"], 10, 64)
	return Identity{Role: f["role"], Subject: f["sub"], EmpresaID: empresaID, FuncionarioID: funcionarioID}, nil
}

// revokeScript deletes one token and takes it out of its indexes.
var revokeScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], 'sub', 'empresaId')
if not f[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', ARGV[1] .. f[1], ARGV[3])
if f[2] and f[2] ~= '0' then redis.call('ZREM', ARGV[2] .. f[2], ARGV[3]) end
return 1
`)

// Revoke deletes one refresh token. An unknown token is not an error:
// logging out twice is fine.
func (s *RefreshStore) Revoke(ctx context.Context, token string) error {
	if token == "" || len(token) > MaxRefreshLen {
		return nil
	}
	hash := hashToken(token)
	err := revokeScript.Run(ctx, s.RDB, []string{s.tokenKey(hash)},
		s.Prefix+"rt:sub:", s.Prefix+"rt:empresa:", hash).Err()
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
