// Package objectstore connects the media service to its S3-compatible
// object storage (MinIO) with minio-go, and keeps its bucket present.
package objectstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Config is the storage part of the media configuration, read from
// MINIO_ENDPOINT, MINIO_ACCESS_KEY, MINIO_SECRET_KEY, MINIO_BUCKET and
// MINIO_USE_SSL.
type Config struct {
	Endpoint  string `conf:"default:127.0.0.1:9000,help:host:port of the S3 API"`
	AccessKey string `conf:"required,mask"`
	SecretKey string `conf:"required,mask"`
	Bucket    string `conf:"default:ponto-fotos"`
	Region    string `conf:"default:us-east-1"`
	UseSSL    bool   `conf:"default:false"`
}

// Validate rejects an empty endpoint or bucket name.
func (c *Config) Validate() error {
	if c.Endpoint == "" || c.Bucket == "" {
		return errors.New("endpoint and bucket must be set")
	}
	return nil
}

// Store is a client bound to one bucket.
type Store struct {
	Client *minio.Client
	Bucket string
	region string
}

// Open builds the client; it does not contact the server.
func Open(cfg Config) (*Store, error) {
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: cfg.UseSSL,
		Region: cfg.Region,
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
