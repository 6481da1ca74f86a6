package codes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrInvalid means the code is wrong, expired, used up or was never sent;
// callers answer the same 401 for all of them.
var ErrInvalid = errors.New("codes: invalid code")

// Store keeps at most one live code per e-mail, under
// Prefix + "code:" + sha256(lower-case e-mail), as a hash {h, fid, tries}
// whose TTL is the code's validity. No e-mail and no code is stored in
// clear.
type Store struct {
	RDB      *redis.Client
	Prefix   string
	Secret   []byte
	TTL      time.Duration
	MaxTries int
}

// Issued is a new code: Code goes to the employee by e-mail, Hash is what
// is stored (and what the employee record shows as codeVerify).
type Issued struct {
	Code string
	Hash string
}

// emailKey names the code of an e-mail; e-mails compare case-insensitively.
func emailKey(email string) string {
	sum := sha256.Sum256([]byte(email))
	return hex.EncodeToString(sum[:])
}

func (s *Store) key(ek string) string { return s.Prefix + "code:" + ek }

// Issue makes a new code for the employee funcionarioID reached at email
// (already normalised), replacing any earlier one with fresh tries.
func (s *Store) Issue(ctx context.Context, email string, funcionarioID int64) (Issued, error) {
	ek := emailKey(email)
	code := newCode()
	hash := hasher{s.Secret}.hash(ek, code)
	key := s.key(ek)
	_, err := s.RDB.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, key)
		p.HSet(ctx, key, "h", hash, "fid", funcionarioID, "tries", s.MaxTries)
		p.PExpire(ctx, key, s.TTL)
		return nil
	})
	if err != nil {
		return Issued{}, fmt.Errorf("codes: store: %w", err)
	}
	return Issued{Code: code, Hash: hash}, nil
}

// checkScript compares the stored HMAC with the presented one. A match
// returns the employee id and leaves the code in place (Consume takes it);
// a miss spends a try and deletes the code on the last one. Both run
// inside Redis, so concurrent wrong guesses cannot share a try.
var checkScript = redis.NewScript(`
local h = redis.call('HGET', KEYS[1], 'h')
if not h then return -1 end
if h == ARGV[1] then return tonumber(redis.call('HGET', KEYS[1], 'fid')) end
if redis.call('HINCRBY', KEYS[1], 'tries', -1) <= 0 then redis.call('DEL', KEYS[1]) end
return -1
`)

// consumeScript deletes the code only if it is still the one presented:
// of two logins racing with the same code, exactly one gets 1.
var consumeScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'h') == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`)

// Check returns the employee the code was sent to (0: any employment of
// the e-mail, which several share), or ErrInvalid (a wrong code costs a
// try). The code stays usable until Consume, so that a
// failure between the two (the employee service down) does not burn it.
func (s *Store) Check(ctx context.Context, email, code string) (int64, error) {
	ek := emailKey(email)
	fid, err := checkScript.Run(ctx, s.RDB, []string{s.key(ek)}, hasher{s.Secret}.hash(ek, code)).Int64()
	if err != nil {
		return 0, fmt.Errorf("codes: check: %w", err)
	}
	if fid < 0 {
		return 0, ErrInvalid
	}
	return fid, nil
}

// Consume uses the code up; ErrInvalid when another request already did,
// or a new code replaced it, since Check.
func (s *Store) Consume(ctx context.Context, email, code string) error {
	ek := emailKey(email)
	n, err := consumeScript.Run(ctx, s.RDB, []string{s.key(ek)}, hasher{s.Secret}.hash(ek, code)).Int64()
	if err != nil {
		return fmt.Errorf("codes: consume: %w", err)
	}
	if n != 1 {
		return ErrInvalid
	}
	return nil
}

// TTLText renders the validity for the e-mail, e.g. "10 minutos".
func TTLText(d time.Duration) string {
	if m := int(d.Round(time.Minute) / time.Minute); m >= 1 {
		if m == 1 {
			return "1 minuto"
		}
		return strconv.Itoa(m) + " minutos"
	}
	if s := int(d.Round(time.Second) / time.Second); s > 1 {
		return strconv.Itoa(s) + " segundos"
	}
	return "1 segundo"
}
