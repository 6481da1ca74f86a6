// Package page reads and bounds the pagination parameters of list routes:
// ?pagina=1&tamanho=20 (1-based page, page size at most MaxSize).
package page

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
)

const (
	// DefaultSize is the page size when none is asked for.
	DefaultSize = 20
	// MaxSize bounds what one request can make the database read.
	MaxSize = 100
	// MaxPage bounds OFFSET, which the database walks row by row.
	MaxPage = 10000
)

// Page is a validated page request.
type Page struct {
	Number int `json:"pagina"`
	Size   int `json:"tamanho"`
}

// Offset is the SQL OFFSET of the page.
func (p Page) Offset() int { return (p.Number - 1) * p.Size }

// Limit is the SQL LIMIT of the page.
func (p Page) Limit() int { return p.Size }

// Result is the envelope every paginated answer uses.
type Result[T any] struct {
	Itens   []T `json:"itens"`
	Pagina  int `json:"pagina"`
	Tamanho int `json:"tamanho"`
	Total   int `json:"total"`
}

// NewResult wraps items of page p out of total; a nil slice is sent as [].
func NewResult[T any](items []T, p Page, total int) Result[T] {
	if items == nil {
		items = []T{}
	}
	return Result[T]{Itens: items, Pagina: p.Number, Tamanho: p.Size, Total: total}
}

// FromQuery reads pagina and tamanho; anything out of bounds is a 400.
func FromQuery(c *fiber.Ctx) (Page, error) {
	p := Page{Number: 1, Size: DefaultSize}
	fields := map[string]string{}
	if s := c.Query("pagina"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxPage {
			fields["pagina"] = "deve ser um inteiro entre 1 e " + strconv.Itoa(MaxPage)
		}
		p.Number = n
	}
	if s := c.Query("tamanho"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxSize {
			fields["tamanho"] = "deve ser um inteiro entre 1 e " + strconv.Itoa(MaxSize)
		}
		p.Size = n
	}
	if len(fields) > 0 {
		return Page{}, domainerr.Invalid(fields)
	}
	return p, nil
}
