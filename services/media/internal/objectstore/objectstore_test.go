package objectstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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
	if code := minio.ToErrorResponse(err).Code; code != "SignatureDoesNotMatch" {
		t.Fatalf("want SignatureDoesNotMatch with a wrong secret, got %v", err)
	}
}
