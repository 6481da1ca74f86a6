package seed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// punchHash is the hash of services/timekeeping/internal/afd.Hash:
//
//	hex(SHA-256(Prefix7(punch) + previous hash))
//
// Prefix7 is the AFD type-7 record's first 73 characters: NSR (9 digits),
// "7", the punch minute and the recording second in the company's UTC
// offset, the CPF as 12 digits, the collector and "0" (on-line).
//
// The tools module cannot import that package (Go's internal rule stops at
// the timekeeping module), so this mirrors it. It cannot drift unnoticed:
// VerifyChains recomputes, with this function, every hash of the chains
// after the benchmark, including the hashes the service wrote itself on
// top of the seeded history, and any difference fails the run.
func punchHash(nsr int64, at time.Time, offsetMinutes int, cpf12, coletor, anterior string) string {
	local := at.In(time.FixedZone("", offsetMinutes*60))
	prefix := fmt.Sprintf("%09d7%s%s%s%s0", nsr,
		local.Format("2006-01-02T15:04:00-0700"), cpf12, local.Format("2006-01-02T15:04:05-0700"), coletor)
	sum := sha256.Sum256([]byte(prefix + anterior))
	return hex.EncodeToString(sum[:])
}

// cpf12 is a CPF's digits, zero-padded to 12 (afd.CPF12).
func cpf12(cpf string) string {
	var b strings.Builder
	for _, r := range cpf {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	d := b.String()
	if len(d) < 12 {
		d = strings.Repeat("0", 12-len(d)) + d
	}
	return d
}

// ChainReport says what VerifyChains checked.
type ChainReport struct {
	Companies int   `json:"empresas"`
	Punches   int64 `json:"marcacoes"`
}

// VerifyChains checks every company's chain in the timekeeping database:
// NSRs 1..n without gaps (over punches and, when the table exists, the
// AFD type-5 records of empregados_rep), each punch's hash recomputed from
// its stored fields and the previous punch's hash, and the chain head
// (cadeias) on the last record. It returns the first break it finds.
func VerifyChains(ctx context.Context, db *pgxpool.Pool) (ChainReport, error) {
	var ids []int64
	rows, _ := db.Query(ctx, `SELECT empresa_id FROM cadeias ORDER BY empresa_id`)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return ChainReport{}, fmt.Errorf("cadeias: %w", err)
	}
	var rep ChainReport
	for _, id := range ids {
		n, err := verifyChain(ctx, db, id)
		if err != nil {
			return rep, err
		}
		rep.Companies++
		rep.Punches += n
	}
	return rep, nil
}

func verifyChain(ctx context.Context, db *pgxpool.Pool, empresaID int64) (int64, error) {
	// With the AFD's type-5 records, NSRs run over both tables; only
	// punches carry (and chain) a hash.
	sql := `SELECT nsr, true, horario_registro, fuso_minutos, cpf, coletor, hash
		FROM registros_ponto WHERE empresa_id = $1 ORDER BY nsr`
	var rep bool
	if err := db.QueryRow(ctx, `SELECT to_regclass('empregados_rep') IS NOT NULL`).Scan(&rep); err != nil {
		return 0, err
	}
	if rep {
		sql = `SELECT nsr, true, horario_registro, fuso_minutos, cpf, coletor, hash
			FROM registros_ponto WHERE empresa_id = $1
			UNION ALL
			SELECT nsr, false, gravado_em, fuso_minutos, cpf, '', '' FROM empregados_rep WHERE empresa_id = $1
			ORDER BY 1`
	}
	rows, err := db.Query(ctx, sql, empresaID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var (
		n, punches int64
		anterior   string
		nsr        int64
		isPunch    bool
		at         time.Time
		fuso       int16
		cpf        string
		coletor    string
		hash       string
	)
	for rows.Next() {
		if err := rows.Scan(&nsr, &isPunch, &at, &fuso, &cpf, &coletor, &hash); err != nil {
			return 0, err
		}
		n++
		if nsr != n {
			return 0, fmt.Errorf("empresa %d: NSR %d onde se esperava %d (lacuna ou repetição)", empresaID, nsr, n)
		}
		if !isPunch {
			continue
		}
		punches++
		if want := punchHash(nsr, at, int(fuso), cpf, coletor, anterior); hash != want {
			return 0, fmt.Errorf("empresa %d: hash do NSR %d não confere com o encadeamento", empresaID, nsr)
		}
		anterior = hash
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	var ultimo int64
	var head *string
	if err := db.QueryRow(ctx, `SELECT ultimo_nsr, ultimo_hash::text FROM cadeias WHERE empresa_id = $1`,
		empresaID).Scan(&ultimo, &head); err != nil {
		return 0, err
	}
	if ultimo != n || (punches > 0 && (head == nil || *head != anterior)) {
		return 0, fmt.Errorf("empresa %d: cabeça da cadeia (NSR %d) não é o último registro (NSR %d)", empresaID, ultimo, n)
	}
	return punches, nil
}
