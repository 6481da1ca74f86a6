// Package servertest runs an httpserver.Server on free loopback ports for
// a test and calls it, so that every service's harness serves and asks
// its routes the same way. It is imported only from _test.go files.
package servertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/httpserver"
)

// Listen opens a listener on a free 127.0.0.1 port.
func Listen(t testing.TB) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Running is a server serving on loopback until Stop or the end of the
// test.
type Running struct {
	// Public and Internal are the listeners' base URLs
	// ("http://127.0.0.1:port").
	Public, Internal string

	srv  *httpserver.Server
	stop context.CancelFunc
	done chan struct{}
	err  error // what Serve returned, once done is closed
}

// Start serves srv on two free loopback ports. At the end of the test it
// shuts the server down, waits for it and reports an error Serve returned.
func Start(t testing.TB, srv *httpserver.Server) *Running {
	t.Helper()
	pub, in := Listen(t), Listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	r := &Running{
		Public: "http://" + pub.Addr().String(), Internal: "http://" + in.Addr().String(),
		srv: srv, stop: cancel, done: make(chan struct{}),
	}
	go func() {
		r.err = srv.Serve(ctx, pub, in)
		close(r.done)
	}()
	t.Cleanup(func() {
		// Concurrent calls can leave the client a connection it dialled
		// and never used; fasthttp counts a connection without a request
		// as idle only 5 s after it opened, and the shutdown waits for it
		// (a harness's 5 s ShutdownTimeout then fails). Closing the
		// client's idle connections lets the drain finish at once.
		http.DefaultClient.CloseIdleConnections()
		r.Stop()
		if err := r.Wait(); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return r
}

// Stop starts the shutdown, as SIGTERM does, and returns at once.
func (r *Running) Stop() { r.stop() }

// Done is closed when Serve has returned.
func (r *Running) Done() <-chan struct{} { return r.done }

// Wait waits for Serve to return and returns its error.
func (r *Running) Wait() error {
	<-r.done
	return r.err
}

// Answer is an HTTP answer read whole.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Bearer is the headers that carry token; none for "".
func Bearer(token string) map[string]string {
	h := map[string]string{}
	if token != "" {
		h["Authorization"] = "Bearer " + token
	}
	return h
}

// Call sends method to url and reads the answer. body is nil, an
// io.Reader sent as it is, a string sent as it is as JSON, or a value sent
// encoded as JSON; header is set last, so it may replace the Content-Type.
func Call(t testing.TB, method, url string, body any, header map[string]string) Answer {
	t.Helper()
	var rd io.Reader
	isJSON := true
	switch b := body.(type) {
	case nil:
		isJSON = false
	case io.Reader:
		rd, isJSON = b, false
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if isJSON {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return Do(t, req)
}

// Do sends req and reads the answer.
func Do(t testing.TB, req *http.Request) Answer {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return Answer{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// PostOversized posts body to url on a connection of its own and returns
// the answer's status. A server refusing a body over its limit answers
// and closes the connection without reading the rest, so an http.Client
// still writing the body may get "connection reset" instead of the
// answer; here the body is written beside the read, and failing to write
// all of it is expected.
func PostOversized(t testing.TB, url, contentType string, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", req.URL.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	head := "POST " + req.URL.RequestURI() + " HTTP/1.1\r\nHost: " + req.URL.Host + "\r\nContent-Type: " + contentType +
		"\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n"
	written := make(chan struct{})
	go func() {
		defer close(written)
		if _, err := io.WriteString(conn, head); err == nil {
			_, _ = conn.Write(body)
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	resp.Body.Close()
	conn.Close() // ends a write the server stopped reading
	<-written
	return resp.StatusCode
}
