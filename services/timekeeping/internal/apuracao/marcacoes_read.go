package apuracao

import (
	"encoding/binary"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// marcacoesTypes are the types of reportsql.Marcacoes' columns, in order.
var marcacoesTypes = [...]uint32{pgtype.Int8OID, pgtype.DateOID, pgtype.Int8OID, pgtype.Int8OID, pgtype.TextOID,
	pgtype.TimestamptzOID, pgtype.Int2OID, pgtype.BoolOID, pgtype.TextOID, pgtype.TimestamptzOID}

var errColumn = errors.New("unexpected column")

// readMarcacoes reads the punches, the bulk of a report's rows. In
// PostgreSQL's binary format (pgx's, unless the pool is set to the simple
// protocol) it decodes them straight from the wire; otherwise it scans
// them. Kept for its figure: 45 against 95 ms of CPU for 90,728 punches
// (BenchmarkReadMarcacoes, -count 5 medians), a third of timekeeping's
// CPU per department report.
func readMarcacoes(rows pgx.Rows, r Registro) error {
	if !binaryColumns(rows.FieldDescriptions()) {
		return scanMarcacoes(rows, r)
	}
	for rows.Next() {
		v := rows.RawValues()
		if len(v) != len(marcacoesTypes) || len(v[0]) != 8 || len(v[1]) != 4 || len(v[2]) != 8 || len(v[3]) != 8 ||
			len(v[5]) != 8 || len(v[6]) != 2 || len(v[7]) != 1 || (v[9] != nil && len(v[9]) != 8) {
			return errColumn
		}
		registro := int64(binary64(v[5])) + microsAte2000
		solicitado := registro
		if v[8] != nil && v[9] != nil {
			solicitado = int64(binary64(v[9])) + microsAte2000
		}
		dia := int64(int32(binary32(v[1]))) + unixDia2000
		r.Marcacao(int64(binary64(v[0])), MarcacaoLida{ID: int64(binary64(v[2])), NSR: int64(binary64(v[3])), Tipo: v[4],
			Jornada: time.Unix(dia*86400, 0).UTC(), Registro: time.UnixMicro(registro).UTC(),
			Efetivo: time.UnixMicro(efetivo(registro, v[8], solicitado)).UTC(), Fuso: int16(binaryUint16(v[6])),
			Status: v[8], Fora: v[7][0] == 1})
	}
	return nil
}

// efetivo is a punch's effective time: the approved adjustment's
// (solicitado), else the original, truncated to the minute as the AFD
// writes punches.
func efetivo(registro int64, status []byte, solicitado int64) int64 {
	t := registro
	if string(status) == statusAprovado {
		t = solicitado
	}
	return t - ((t%microsPorMinuto)+microsPorMinuto)%microsPorMinuto
}

// binaryColumns tells whether the punches' columns are the expected types,
// each in the binary format (text is the same in both).
func binaryColumns(fds []pgconn.FieldDescription) bool {
	if len(fds) != len(marcacoesTypes) {
		return false
	}
	for i, fd := range fds {
		if fd.DataTypeOID != marcacoesTypes[i] || (fd.Format != pgx.BinaryFormatCode && fd.DataTypeOID != pgtype.TextOID) {
			return false
		}
	}
	return true
}

// scanMarcacoes is readMarcacoes through pgx's scanning.
func scanMarcacoes(rows pgx.Rows, r Registro) error {
	for rows.Next() {
		var funcionario int64
		var tipo string
		var status *string
		var solicitado *time.Time
		m := MarcacaoLida{}
		if err := rows.Scan(&funcionario, &m.Jornada, &m.ID, &m.NSR, &tipo, &m.Registro, &m.Fuso, &m.Fora, &status,
			&solicitado); err != nil {
			return err
		}
		m.Tipo = []byte(tipo)
		registro := m.Registro.UnixMicro()
		s := registro
		if status != nil {
			m.Status = []byte(*status)
			if solicitado != nil {
				s = solicitado.UnixMicro()
			}
		}
		m.Efetivo = time.UnixMicro(efetivo(registro, m.Status, s)).UTC()
		r.Marcacao(funcionario, m)
	}
	return nil
}

func binary64(b []byte) uint64     { return binary.BigEndian.Uint64(b) }
func binary32(b []byte) uint32     { return binary.BigEndian.Uint32(b) }
func binaryUint16(b []byte) uint16 { return binary.BigEndian.Uint16(b) }
