// Package objectstore connects the media service to its S3-compatible
// object storage (MinIO) with minio-go, keeps its bucket present, and
// stores, streams and removes objects in it.
package objectstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/ponto/ponto/pkg/domainerr"
)

// Config is the storage part of the media configuration, read from
// MINIO_ENDPOINT, MINIO_ACCESS_KEY, MINIO_SECRET_KEY, MINIO_BUCKET,
// MINIO_REGION, MINIO_USE_SSL and MINIO_MAX_RETRIES.
type Config struct {
	Endpoint  string `conf:"default:127.0.0.1:9000,help:host:port of the S3 API"`
	AccessKey string `conf:"required,mask"`
	SecretKey string `conf:"required,mask"`
	Bucket    string `conf:"default:ponto-fotos"`
	Region    string `conf:"default:us-east-1"`
	UseSSL    bool   `conf:"default:false"`
	// MaxRetries bounds minio-go's attempts per call (its own default is
	// 10 with exponential backoff, which would outlast a request's
	// deadline when MinIO is down; a quick 503 serves clients better).
	MaxRetries int `conf:"default:3,help:attempts per storage call (1 = no retry)"`
}

// Validate rejects an empty endpoint, bucket or credential.
func (c *Config) Validate() error {
	if c.Endpoint == "" || c.Bucket == "" {
		return errors.New("endpoint and bucket must be set")
	}
	if c.AccessKey == "" || c.SecretKey == "" {
		return errors.New("access key and secret key must not be empty")
	}
	if c.MaxRetries < 0 {
		return errors.New("MaxRetries must not be negative")
	}
	return nil
}

// ErrNotFound means the object does not exist.
var ErrNotFound = errors.New("objectstore: object not found")

// Store is a client bound to one bucket.
type Store struct {
	Client *minio.Client
	Bucket string
	region string
}

// Open builds the client; it does not contact the server.
func Open(cfg Config) (*Store, error) {
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:      credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure:     cfg.UseSSL,
		Region:     cfg.Region,
		MaxRetries: cfg.MaxRetries,
	})
	if err != nil {
		return nil, fmt.Errorf("objectstore: %w", err)
	}
	return &Store{Client: c, Bucket: cfg.Bucket, region: cfg.Region}, nil
}

// EnsureBucket creates the bucket unless it exists. Two replicas racing to
// create it both succeed.
func (s *Store) EnsureBucket(ctx context.Context) error {
	exists, err := s.Client.BucketExists(ctx, s.Bucket)
	if err != nil {
		return fmt.Errorf("objectstore: bucket %q: %w", s.Bucket, err)
	}
	if exists {
		return nil
	}
	err = s.Client.MakeBucket(ctx, s.Bucket, minio.MakeBucketOptions{Region: s.region})
	if resp := minio.ToErrorResponse(err); resp.Code == "BucketAlreadyOwnedByYou" || resp.Code == "BucketAlreadyExists" {
		return nil
	}
	if err != nil {
		return fmt.Errorf("objectstore: create bucket %q: %w", s.Bucket, err)
	}
	return nil
}

// KeepBucket retries EnsureBucket until it succeeds or ctx ends, so the
// service can start before MinIO does; readiness stays 503 meanwhile.
func (s *Store) KeepBucket(ctx context.Context, log *slog.Logger, every time.Duration) {
	for {
		err := s.EnsureBucket(ctx)
		if err == nil {
			log.InfoContext(ctx, "bucket ready", "bucket", s.Bucket)
			return
		}
		log.WarnContext(ctx, "bucket not ready yet", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

// Ping is the readiness check: the server answers and the bucket exists.
func (s *Store) Ping(ctx context.Context) error {
	exists, err := s.Client.BucketExists(ctx, s.Bucket)
	if err != nil {
		return fmt.Errorf("objectstore: %w", err)
	}
	if !exists {
		return fmt.Errorf("objectstore: bucket %q missing", s.Bucket)
	}
	return nil
}

// Object describes a stored object.
type Object struct {
	Key         string
	Size        int64
	ContentType string
	ETag        string
}

// Put stores data under key with its content type, replacing any object
// already there.
func (s *Store) Put(ctx context.Context, key, contentType string, data []byte) error {
	_, err := s.Client.PutObject(ctx, s.Bucket, key, bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{ContentType: contentType})
	if err != nil {
		return unavailable(fmt.Errorf("objectstore: put %q: %w", key, err))
	}
	return nil
}

// Open starts reading the object at key. The caller must close the reader;
// ctx governs the whole read, so it must outlive the call when the reader
// is consumed later (e.g. while a response streams). A missing object is
// ErrNotFound.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, Object, error) {
	obj, err := s.Client.GetObject(ctx, s.Bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, Object{}, unavailable(fmt.Errorf("objectstore: get %q: %w", key, err))
	}
	// GetObject is lazy: Stat sends the request and reports a missing key.
	info, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, Object{}, notFoundOr(key, err)
	}
	return obj, Object{Key: key, Size: info.Size, ContentType: info.ContentType, ETag: info.ETag}, nil
}

// Remove deletes the objects at keys. Removing a missing object succeeds
// (S3 semantics), so a retried clean-up is harmless. Every key is tried;
// the errors are joined.
func (s *Store) Remove(ctx context.Context, keys ...string) error {
	var errs []error
	for _, key := range keys {
		if err := s.Client.RemoveObject(ctx, s.Bucket, key, minio.RemoveObjectOptions{}); err != nil {
			errs = append(errs, fmt.Errorf("objectstore: remove %q: %w", key, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return unavailable(err)
	}
	return nil
}

// unavailable is how a failure of MinIO leaves the store: whether it did
// not answer or answered with an error, the photo cannot be read or
// written now, and the client may retry.
func unavailable(err error) error { return domainerr.Unavailable("minio", err) }

func notFoundOr(key string, err error) error {
	if code := minio.ToErrorResponse(err).Code; code == "NoSuchKey" || code == "NotFound" {
		return fmt.Errorf("%w: %q", ErrNotFound, key)
	}
	return unavailable(fmt.Errorf("objectstore: stat %q: %w", key, err))
}
