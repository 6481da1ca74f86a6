package relatorio

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
func (f *Fatos) readMarcacoes(rows pgx.Rows) error {
	if !binaryColumns(rows.FieldDescriptions()) {
		return f.scanMarcacoes(rows)
	}
	for rows.Next() {
		v := rows.RawValues()
		if len(v) != len(marcacoesTypes) || len(v[0]) != 8 || len(v[1]) != 4 || len(v[2]) != 8 || len(v[3]) != 8 ||
			len(v[5]) != 8 || len(v[6]) != 2 || len(v[7]) != 1 || (v[9] != nil && len(v[9]) != 8) {
			return errColumn
		}
		funcionario := int64(binary64(v[0]))
		m := marca{id: int64(binary64(v[2])), nsr: int64(binary64(v[3])), tipo: intern(&f.tipos, v[4]),
			registro: int64(binary64(v[5])) + microsAte2000, dia: int32(binary32(v[1])) + unixDia2000,
			fuso: int16(binaryUint16(v[6])), fora: v[7][0] == 1}
		var solicitado int64
		if v[8] != nil {
			m.status = intern(&f.status, v[8])
			if v[9] != nil {
				solicitado = int64(binary64(v[9])) + microsAte2000
			}
		}
		m.efetivo = efetivo(m.registro, m.status, solicitado)
		f.add(m, funcionario)
	}
	return nil
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
func (f *Fatos) scanMarcacoes(rows pgx.Rows) error {
	for rows.Next() {
		var funcionario int64
		var jornada, registro time.Time
		var tipo string
		var status *string
		var solicitado *time.Time
		m := marca{}
		if err := rows.Scan(&funcionario, &jornada, &m.id, &m.nsr, &tipo, &registro, &m.fuso, &m.fora, &status,
			&solicitado); err != nil {
			return err
		}
		m.dia, m.registro, m.tipo = unixDia(jornada), registro.UnixMicro(), intern(&f.tipos, []byte(tipo))
		var s int64
		if status != nil {
			m.status = intern(&f.status, []byte(*status))
			if solicitado != nil {
				s = solicitado.UnixMicro()
			}
		}
		m.efetivo = efetivo(m.registro, m.status, s)
		f.add(m, funcionario)
	}
	return nil
}

func binary64(b []byte) uint64     { return binary.BigEndian.Uint64(b) }
func binary32(b []byte) uint32     { return binary.BigEndian.Uint32(b) }
func binaryUint16(b []byte) uint16 { return binary.BigEndian.Uint16(b) }
