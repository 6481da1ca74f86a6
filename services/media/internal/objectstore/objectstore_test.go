package objectstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/minio/minio-go/v7"

	"github.com/ponto/ponto/services/media/internal/objectstore"
)

// testConfig points at the MinIO server that `make test` starts
// (TEST_MINIO_*), with a bucket of the test's own.
func testConfig(t *testing.T) objectstore.Config {
	t.Helper()
	endpoint := os.Getenv("TEST_MINIO_ENDPOINT")
	if endpoint == "" {
		t.Fatal("TEST_MINIO_ENDPOINT is not set: run the tests with `make test`, which starts MinIO")
	}
	b := make([]byte, 6)
	rand.Read(b)
	return objectstore.Config{
		Endpoint:  endpoint,
		AccessKey: os.Getenv("TEST_MINIO_ACCESS_KEY"),
		SecretKey: os.Getenv("TEST_MINIO_SECRET_KEY"),
		Bucket:    "test-" + hex.EncodeToString(b),
		Region:    "us-east-1",
	}
}

func TestEnsureBucketAndPing(t *testing.T) {
	ctx := context.Background()
	store, err := objectstore.Open(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Client.RemoveBucket(context.Background(), store.Bucket) })

	if err := store.Ping(ctx); err == nil {
		t.Fatal("ping succeeded before the bucket exists")
	}
	for range 2 { // idempotent
		if err := store.EnsureBucket(ctx); err != nil {
			t.Fatalf("ensure bucket: %v", err)
		}
	}
	if err := store.Ping(ctx); err != nil {
		t.Fatalf("ping after ensure: %v", err)
	}
	if ok, err := store.Client.BucketExists(ctx, store.Bucket); err != nil || !ok {
		t.Fatalf("bucket not on the server: %v %v", ok, err)
	}
}

func TestPingFailsWhenServerUnreachable(t *testing.T) {
	cfg := testConfig(t)
	cfg.Endpoint = "127.0.0.1:1"
	store, err := objectstore.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Ping(context.Background()); err == nil {
		t.Fatal("ping succeeded against a closed port")
	}
}

func TestWrongCredentialsRefused(t *testing.T) {
	cfg := testConfig(t)
	cfg.SecretKey = "not-the-secret"
	store, err := objectstore.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	err = store.EnsureBucket(context.Background())
	// EnsureBucket wraps the S3 error; minio.ToErrorResponse does not unwrap.
	var resp minio.ErrorResponse
	if !errors.As(err, &resp) || resp.Code != "SignatureDoesNotMatch" {
		t.Fatalf("want SignatureDoesNotMatch with a wrong secret, got %v", err)
	}
}

func TestPutOpenRemove(t *testing.T) {
	ctx := context.Background()
	store, err := objectstore.Open(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.EnsureBucket(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Client.RemoveBucket(context.Background(), store.Bucket) })

	const key = "empresas/1/funcionarios/2/abc.jpg"
	if err := store.Put(ctx, key, "image/jpeg", []byte("conteúdo")); err != nil {
		t.Fatal(err)
	}
	r, obj, err := store.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	r.Close()
	if err != nil || string(b) != "conteúdo" || obj.Size != int64(len("conteúdo")) || obj.ContentType != "image/jpeg" {
		t.Errorf("read back %q (%+v), %v", b, obj, err)
	}

	// Removing is idempotent; a removed object is ErrNotFound.
	for range 2 {
		if err := store.Remove(ctx, key, "empresas/1/nunca-existiu.jpg"); err != nil {
			t.Fatalf("remove: %v", err)
		}
	}
	if _, _, err := store.Open(ctx, key); !errors.Is(err, objectstore.ErrNotFound) {
		t.Errorf("open after remove: %v, want ErrNotFound", err)
	}
}
