package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/config"
	"github.com/ponto/ponto/services/media/internal/foto"
)

func TestFiveMiBIsTheLimit(t *testing.T) {
	h := start(t, false)
	ana := h.funcionario(empresaA, anaID)
	// A JPEG padded after its end marker to exactly 5 MiB is accepted (the
	// decoder stops at EOI; re-encoding drops the padding)...
	jpg := jpegBytes(t, halves(64, 64))
	exact := append(jpg, make([]byte, foto.MaxUploadBytes-len(jpg))...)
	f := h.uploaded(h.upload(ana, anaID, "grande.jpg", "image/jpeg", exact), empresaA, anaID)
	if f.TamanhoBytes > 64<<10 {
		t.Errorf("the padding was stored: %d bytes", f.TamanhoBytes)
	}
	// ...one byte more is not.
	a := h.upload(ana, anaID, "grande.jpg", "image/jpeg", append(exact, 0))
	if a.status != http.StatusRequestEntityTooLarge || a.errorCode(t) != "grande_demais" {
		t.Errorf("5 MiB + 1: %d %s", a.status, a.body)
	}
	if h.employees.updateCount() != 1 {
		t.Errorf("%d updates, want 1", h.employees.updateCount())
	}
}

// TestHugeUploadIsCutOff sends 256 MiB over a raw connection, declared
// up front (Content-Length) and streamed (chunked), and checks that the
// service answers 413 without taking it in: the sender could push only a
// fraction of it before the connection was refused, and the process
// allocated far less than the upload's size meanwhile (the server reads
// at most HTTP_BODY_LIMIT of a chunked body, none of a declared one).
func TestHugeUploadIsCutOff(t *testing.T) {
	h := start(t, false)
	token := h.funcionario(empresaA, anaID)
	const size = 256 << 20
	for _, chunked := range []bool{false, true} {
		t.Run(fmt.Sprintf("chunked=%v", chunked), func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			status, sent := rawUpload(t, h.public, token, size, chunked)
			runtime.ReadMemStats(&after)
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("sent %d of %d bytes; allocated %d bytes meanwhile", sent, size, allocated)
			if status != http.StatusRequestEntityTooLarge {
				t.Errorf("status %d, want 413", status)
			}
			if sent > size/8 {
				t.Errorf("the server took %d of %d bytes before refusing", sent, size)
			}
			if allocated > size/8 {
				t.Errorf("the process allocated %d bytes for a refused %d-byte upload", allocated, size)
			}
		})
	}
	if keys := h.objects(); len(keys) != 0 || h.employees.updateCount() != 0 {
		t.Errorf("refused uploads left %v and %d updates", keys, h.employees.updateCount())
	}
}

// rawUpload writes a multipart upload of size bytes (a JPEG start and
// zeros) to addr while reading the answer, and returns the status and how
// many bytes the connection accepted before the server closed it.
func rawUpload(t *testing.T, base, token string, size int64, chunked bool) (int, int64) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(60 * time.Second))

	const boundary = "limite-de-teste"
	head := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"foto\"; filename=\"enorme.jpg\"\r\n" +
		"Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0"
	framing := "Content-Length: " + fmt.Sprint(size)
	if chunked {
		framing = "Transfer-Encoding: chunked"
	}
	req := "POST /funcionarios/100/foto HTTP/1.1\r\nHost: media\r\nAuthorization: Bearer " + token +
		"\r\nContent-Type: multipart/form-data; boundary=" + boundary + "\r\n" + framing + "\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}

	var sent atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		body := io.MultiReader(strings.NewReader(head), io.LimitReader(zeros{}, size-int64(len(head))))
		buf := make([]byte, 64<<10)
		for {
			n, _ := io.ReadFull(body, buf)
			if n == 0 {
				break
			}
			if chunked {
				if _, err := fmt.Fprintf(conn, "%x\r\n", n); err != nil {
					return
				}
			}
			if _, err := conn.Write(buf[:n]); err != nil {
				return
			}
			if chunked {
				if _, err := io.WriteString(conn, "\r\n"); err != nil {
					return
				}
			}
			sent.Add(int64(n))
		}
		if chunked {
			io.WriteString(conn, "0\r\n\r\n")
		}
	}()

	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v (after %d bytes sent)", err, sent.Load())
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(body, []byte(`"grande_demais"`)) {
		t.Errorf("answer body %s", body)
	}
	conn.Close()
	<-done
	return resp.StatusCode, sent.Load()
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestConfigDefaultsAndRefusals(t *testing.T) {
	env := func(t *testing.T) {
		t.Setenv("MINIO_ACCESS_KEY", "ponto")
		t.Setenv("MINIO_SECRET_KEY", "segredo-que-nao-aparece")
	}
	env(t)
	cfg := newConfig()
	if _, err := config.Parse(&cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.BodyLimit != foto.MaxBodyBytes || cfg.EmployeeInternalURL != "http://127.0.0.1:9083" ||
		cfg.Photo.MaxConcurrent != 2 || cfg.Photo.CacheMaxAge != 5*time.Minute || cfg.Minio.MaxRetries != 3 {
		t.Errorf("defaults: %+v", cfg)
	}
	if out := config.String(&cfg); strings.Contains(out, "segredo-que-nao-aparece") {
		t.Error("the MinIO secret was printed")
	}
	for name, bad := range map[string]map[string]string{
		"body limit below a photo": {"HTTP_BODY_LIMIT": "1048576"},
		"employee url":             {"EMPLOYEE_INTERNAL_URL": "employee:9090"},
		"no concurrency":           {"PHOTO_MAX_CONCURRENT": "0"},
		"no secret":                {"MINIO_SECRET_KEY": ""},
	} {
		t.Run(name, func(t *testing.T) {
			env(t)
			for k, v := range bad {
				t.Setenv(k, v)
			}
			cfg := newConfig()
			if _, err := config.Parse(&cfg); err == nil {
				t.Errorf("%v accepted", bad)
			}
		})
	}
}
