package main

import (
	"bytes"
	"io"
	"sync"
)

// maxLine is the longest line kept whole; longer ones are cut.
const maxLine = 64 << 10

// syncWriter serializes whole lines from many processes onto one writer.
type syncWriter struct {
	mu  sync.Mutex
	out io.Writer
}

func (s *syncWriter) writeLine(prefix, line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(append(append(append([]byte{}, prefix...), line...), '\n')) //nolint:errcheck // nowhere to report to
}

// lineWriter is a process's stdout or stderr: it writes each line it is
// given to a syncWriter, prefixed with "[name] ".
type lineWriter struct {
	out    *syncWriter
	prefix []byte
	buf    []byte // a partial line
}

func newLineWriter(out *syncWriter, name string) *lineWriter {
	return &lineWriter{out: out, prefix: []byte("[" + name + "] ")}
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 && len(w.buf) < maxLine {
			break
		}
		if i < 0 || i > maxLine {
			i = maxLine
		}
		w.out.writeLine(w.prefix, bytes.TrimSuffix(w.buf[:i], []byte("\r")))
		if i < len(w.buf) && w.buf[i] == '\n' {
			i++
		}
		w.buf = w.buf[i:]
	}
	w.buf = append(w.buf[:0:0], w.buf...) // let the consumed front go
	return len(p), nil
}

// flush writes a last line that has no newline.
func (w *lineWriter) flush() {
	if len(w.buf) > 0 {
		w.out.writeLine(w.prefix, w.buf)
		w.buf = nil
	}
}
