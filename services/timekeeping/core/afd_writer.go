package core

import (
	"bytes"
	"fmt"

	"golang.org/x/text/encoding/charmap"
)

// Writer builds an AFD in memory: the header first, then records in NSR
// order, then Close writes the trailer and the signature line.
type Writer struct {
	buf     bytes.Buffer
	trailer Trailer
	lastNSR int64
}

// NewWriter starts a file with header h.
func NewWriter(h Cabecalho) (*Writer, error) {
	w := &Writer{}
	l, err := Linha1(h)
	if err != nil {
		return nil, err
	}
	return w, w.line(l)
}

// Empresa appends a type-2 record.
func (w *Writer) Empresa(e Empresa) error {
	return w.record(2, e.NSR, func() (string, error) { return Linha2(e) })
}

// AjusteRelogio appends a type-4 record.
func (w *Writer) AjusteRelogio(a AjusteRelogio) error {
	return w.record(4, a.NSR, func() (string, error) { return Linha4(a) })
}

// Empregado appends a type-5 record.
func (w *Writer) Empregado(e Empregado) error {
	return w.record(5, e.NSR, func() (string, error) { return Linha5(e) })
}

// Evento appends a type-6 record.
func (w *Writer) Evento(e Evento) error {
	return w.record(6, e.NSR, func() (string, error) { return Linha6(e) })
}

// Marcacao appends a type-7 record with its stored hash.
func (w *Writer) Marcacao(m Marcacao, hash string) error {
	return w.record(7, m.NSR, func() (string, error) { return Linha7(m, hash) })
}

// record appends the record of type t and NSR nsr that render makes,
// counting it for the trailer.
func (w *Writer) record(t int, nsr int64, render func() (string, error)) error {
	l, err := render()
	if err != nil {
		return err
	}
	if err := w.order(nsr); err != nil {
		return err
	}
	w.trailer[t]++
	return w.line(l)
}

// Close writes the trailer and the signature line and returns the file.
func (w *Writer) Close() ([]byte, error) {
	if err := w.line(Linha9(w.trailer)); err != nil {
		return nil, err
	}
	if err := w.line(LinhaAssinatura()); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// order refuses a record out of NSR order: the file must be sorted.
func (w *Writer) order(nsr int64) error {
	if nsr <= w.lastNSR {
		return fmt.Errorf("afd: NSR %d after %d", nsr, w.lastNSR)
	}
	w.lastNSR = nsr
	return nil
}

func (w *Writer) line(s string) error {
	b, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte(s))
	if err != nil {
		return fmt.Errorf("afd: not ISO-8859-1: %w", err)
	}
	w.buf.Write(b)
	w.buf.WriteString("\r\n")
	return nil
}
