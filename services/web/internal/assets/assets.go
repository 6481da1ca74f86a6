// Package assets serves the embedded static files (CSS, JavaScript) under
// names that carry a hash of their content, so browsers may cache them for
// a year: a changed file gets a new name and the pages link the new one.
package assets

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"
)

//go:embed static
var files embed.FS

// Prefix is where the assets are served.
const Prefix = "/static/"

type file struct {
	data        []byte
	contentType string
}

// Assets are the embedded files by their hashed names.
type Assets struct {
	byHashed map[string]file
	hashed   map[string]string // "app.js" → "/static/app.3f2a9c1b.js"
}

// Load reads and names every embedded file.
func Load() (*Assets, error) {
	a := &Assets{byHashed: map[string]file{}, hashed: map[string]string{}}
	err := fs.WalkDir(files, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		name := strings.TrimPrefix(p, "static/")
		ext := path.Ext(name)
		h := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
		ct := mime.TypeByExtension(ext)
		if ct == "" {
			ct = "application/octet-stream"
		}
		a.byHashed[h] = file{data: data, contentType: ct}
		a.hashed[name] = Prefix + h
		return nil
	})
	return a, err
}

// Path is the URL of the embedded file name ("app.js"); an unknown name
// is a programming error that the pages' tests catch.
func (a *Assets) Path(name string) string {
	if p, ok := a.hashed[name]; ok {
		return p
	}
	panic("assets: unknown file " + name)
}

// Handler serves GET /static/<hashed name>: immutable for a year.
func (a *Assets) Handler(c *fiber.Ctx) error {
	f, ok := a.byHashed[c.Params("file")]
	if !ok {
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Status(fiber.StatusNotFound).SendString("não encontrado")
	}
	c.Set(fiber.HeaderContentType, f.contentType)
	c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	return c.Send(f.data)
}
