package afd

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

// Empregado appends a type-5 record.
func (w *Writer) Empregado(e Empregado) error {
	l, err := Linha5(e)
	if err != nil {
		return err
	}
	if err := w.order(e.NSR); err != nil {
		return err
	}
	w.trailer[5]++
	return w.line(l)
}

// Marcacao appends a type-7 record with its stored hash.
func (w *Writer) Marcacao(m Marcacao, hash string) error {
	l, err := Linha7(m, hash)
	if err != nil {
		return err
	}
	if err := w.order(m.NSR); err != nil {
		return err
	}
	w.trailer[7]++
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

// Count is how many records of type t were written.
func (w *Writer) Count(t int) int { return w.trailer[t] }

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
