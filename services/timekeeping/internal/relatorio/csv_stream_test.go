package relatorio

import (
	"bytes"
	"io"
	"testing"
	"time"
)

// The streamed CSV, computed one employee at a time and read in small
// pieces, is the golden file byte for byte.
func TestCSVStreamGolden(t *testing.T) {
	t.Parallel()
	r := newTestReport(t, 8, 11)
	s := newCSVStream(Relatorio{Departamento: Departamento{ID: 7, Nome: "=Operações"}, Inicio: testInicio.Format(time.DateOnly),
		Fim: testFim.Format(time.DateOnly)}, r.resultado(t, r.consulta(len(r.funcs))), 0, len(r.funcs))
	var got []byte
	buf := make([]byte, 7)
	for {
		n, err := s.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	wantGolden(t, "relatorio.csv", got, []byte("\r\n"))
}

// Written (as fasthttp sends a chunked answer: WriteTo), the streamed CSV
// is the same golden file, in writes of at least csvChunk bytes but the
// last.
func TestCSVStreamWrittenInChunks(t *testing.T) {
	t.Parallel()
	r := newTestReport(t, 8, 11)
	s := newCSVStream(Relatorio{Departamento: Departamento{ID: 7, Nome: "=Operações"}, Inicio: testInicio.Format(time.DateOnly),
		Fim: testFim.Format(time.DateOnly)}, r.resultado(t, r.consulta(len(r.funcs))), 0, len(r.funcs))
	var w chunks
	n, err := s.WriteTo(&w)
	if err != nil || n != int64(len(w.all)) {
		t.Fatalf("WriteTo: %d bytes, %v; wrote %d", n, err, len(w.all))
	}
	wantGolden(t, "relatorio.csv", w.all, []byte("\r\n"))

	// A department big enough for several chunks, written and read.
	big := newTestReport(t, 200, 11)
	var written chunks
	if _, err := newCSVStream(Relatorio{}, big.resultado(t, big.consulta(len(big.funcs))), 0, len(big.funcs)).WriteTo(&written); err != nil {
		t.Fatal(err)
	}
	if len(written.sizes) < 2 {
		t.Fatalf("%d bytes in %d writes; want several chunks", len(written.all), len(written.sizes))
	}
	for i, size := range written.sizes[:len(written.sizes)-1] {
		if size < csvChunk {
			t.Errorf("write %d of %d: %d bytes, under %d", i+1, len(written.sizes), size, csvChunk)
		}
	}
	read, err := io.ReadAll(struct{ io.Reader }{newCSVStream(Relatorio{}, big.resultado(t, big.consulta(len(big.funcs))), 0, len(big.funcs))})
	if err != nil || !bytes.Equal(read, written.all) {
		t.Fatalf("read %d bytes (%v), written %d: not the same", len(read), err, len(written.all))
	}
}

// chunks records what each Write got.
type chunks struct {
	all   []byte
	sizes []int
}

func (c *chunks) Write(p []byte) (int, error) {
	c.all = append(c.all, p...)
	c.sizes = append(c.sizes, len(p))
	return len(p), nil
}

// A failure while computing the streamed CSV ends it with an error, so
// that the server breaks the connection rather than end a short answer,
// read or written.
func TestCSVStreamFailure(t *testing.T) {
	s := newCSVStream(Relatorio{}, nil, 0, 1) // no computation: computing fails
	_, err := io.ReadAll(struct{ io.Reader }{s})
	if err == nil || err == io.EOF {
		t.Fatalf("err %v, want the failure", err)
	}
	s = newCSVStream(Relatorio{}, nil, 0, 1)
	if _, err := s.WriteTo(io.Discard); err == nil {
		t.Fatal("WriteTo ended without the failure")
	}
}
