package stack

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
)

// prefixWidth fits the longest name, company-billing, so that every
// child's lines line up: "auth            | ...".
const prefixWidth = 15

// maxLine bounds a line kept in memory; a longer one is cut in pieces
// rather than letting a child without newlines grow the buffer forever.
const maxLine = 64 << 10

// output serialises whole lines from every child onto one writer.
type output struct {
	mu sync.Mutex
	w  io.Writer
}

func newOutput(w io.Writer) *output { return &output{w: w} }

func prefix(name string) string { return fmt.Sprintf("%-*s | ", prefixWidth, name) }

func (o *output) line(prefix string, text []byte) {
	text = bytes.TrimSuffix(text, []byte("\r"))
	o.mu.Lock()
	defer o.mu.Unlock()
	// A failing terminal must not stop the stack; the line is lost.
	_, _ = fmt.Fprintf(o.w, "%s%s\n", prefix, text)
}

// printf writes a message of the stack itself (or of a named part of it).
func (o *output) printf(name, format string, args ...any) {
	for l := range strings.SplitSeq(fmt.Sprintf(format, args...), "\n") {
		o.line(prefix(name), []byte(l))
	}
}

// writer returns an io.Writer that prefixes each line with name.
func (o *output) writer(name string) *lineWriter {
	return &lineWriter{out: o, prefix: prefix(name)}
}

// lineWriter collects a child's bytes into lines, so that lines of two
// children never interleave mid-line.
type lineWriter struct {
	out    *output
	prefix string
	mu     sync.Mutex
	buf    []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	rest := l.buf
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		l.out.line(l.prefix, rest[:i])
		rest = rest[i+1:]
	}
	for len(rest) >= maxLine {
		l.out.line(l.prefix, rest[:maxLine])
		rest = rest[maxLine:]
	}
	l.buf = append(l.buf[:0], rest...)
	return len(p), nil
}

// Flush writes a last line that had no newline.
func (l *lineWriter) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		l.out.line(l.prefix, l.buf)
		l.buf = l.buf[:0]
	}
}
