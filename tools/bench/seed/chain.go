package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// punchHash is the record core's hash of a punch (core.Hash, rule
// version versao), so that the seeded history chains exactly as the
// service chains its own punches, and VerifyChains checks both with the
// service's own rule.
func punchHash(nsr int64, at time.Time, offsetMinutes int, cpf12, coletor, anterior string, versao int) (string, error) {
	return core.Hash(core.Marcacao{NSR: nsr, Horario: at, OffsetMinutes: offsetMinutes, CPF: cpf12, Coletor: coletor,
		Versao: versao}, anterior)
}

// cpf12 is a CPF's digits, zero-padded to 12 (core.CPF12).
func cpf12(cpf string) string { return core.CPF12(cpf) }

// ChainReport says what VerifyChains checked.
type ChainReport struct {
	Companies int   `json:"empresas"`
	Punches   int64 `json:"marcacoes"`
}

// VerifyChains checks every chain (one per company's establishment) in
// the timekeeping database:
// NSRs 1..n without gaps (over punches and, when the table exists, the
// AFD type-5 records of empregados_rep), each punch's hash recomputed from
// its stored fields and the previous punch's hash, and the chain head
// (cadeias) on the last record. It returns the first break it finds.
func VerifyChains(ctx context.Context, db *pgxpool.Pool) (ChainReport, error) {
	type chain struct{ Empresa, Estabelecimento int64 }
	rows, _ := db.Query(ctx, `SELECT empresa_id, estabelecimento_id FROM cadeias ORDER BY 1, 2`)
	chains, err := pgx.CollectRows(rows, pgx.RowToStructByPos[chain])
	if err != nil {
		return ChainReport{}, fmt.Errorf("cadeias: %w", err)
	}
	var rep ChainReport
	for i, c := range chains {
		n, err := verifyChain(ctx, db, c.Empresa, c.Estabelecimento)
		if err != nil {
			return rep, err
		}
		if i == 0 || chains[i-1].Empresa != c.Empresa {
			rep.Companies++
		}
		rep.Punches += n
	}
	return rep, nil
}

func verifyChain(ctx context.Context, db *pgxpool.Pool, empresaID, estabelecimentoID int64) (int64, error) {
	// With the AFD's type-5 records, NSRs run over both tables; only
	// punches carry (and chain) a hash.
	sql := `SELECT nsr, true, horario_registro, fuso_minutos, cpf, coletor, hash, hash_versao
			FROM registros_ponto WHERE empresa_id = $1 AND estabelecimento_id = $2
			UNION ALL
			SELECT nsr, false, gravado_em, fuso_minutos, cpf, '', '', 0 FROM empregados_rep WHERE empresa_id = $1 AND estabelecimento_id = $2
			UNION ALL
			SELECT nsr, false, gravado_em, fuso_minutos, '', '', '', 0 FROM empresas_rep WHERE empresa_id = $1 AND estabelecimento_id = $2
			UNION ALL
			SELECT nsr, false, gravado_em, fuso_minutos, '', '', '', 0 FROM eventos_rep WHERE empresa_id = $1 AND estabelecimento_id = $2
			ORDER BY 1`
	rows, err := db.Query(ctx, sql, empresaID, estabelecimentoID)
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
		versao     int16
	)
	for rows.Next() {
		if err := rows.Scan(&nsr, &isPunch, &at, &fuso, &cpf, &coletor, &hash, &versao); err != nil {
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
		if want, err := punchHash(nsr, at, int(fuso), cpf, coletor, anterior, int(versao)); err != nil || hash != want {
			return 0, fmt.Errorf("empresa %d: hash do NSR %d não confere com o encadeamento", empresaID, nsr)
		}
		anterior = hash
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	var ultimo int64
	var head *string
	if err := db.QueryRow(ctx, `SELECT ultimo_nsr, ultimo_hash::text FROM cadeias WHERE empresa_id = $1 AND estabelecimento_id = $2`,
		empresaID, estabelecimentoID).Scan(&ultimo, &head); err != nil {
		return 0, err
	}
	if ultimo != n || (punches > 0 && (head == nil || *head != anterior)) {
		return 0, fmt.Errorf("empresa %d: cabeça da cadeia (NSR %d) não é o último registro (NSR %d)", empresaID, ultimo, n)
	}
	return punches, nil
}
