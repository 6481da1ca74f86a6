package pages

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// The installable app (PWA): the manifest, a PNG icon drawn at start (no
// binary in the repository) and the service worker, which keeps the punch
// page, its script and styles for use off-line (docs/web.md).

// iconPNG is the 192 px icon, the same clock as icone.svg.
var iconPNG = drawIcon(192)

// drawIcon draws a white clock hand on the brand's blue disc.
func drawIcon(size int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	blue, white := color.NRGBA{0x08, 0x4a, 0x8c, 0xff}, color.NRGBA{0xff, 0xff, 0xff, 0xff}
	c, r := float64(size)/2, float64(size)/2
	w := float64(size) * 3 / 32 / 2 // half the SVG's stroke
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			px, py := float64(x)+.5, float64(y)+.5
			if math.Hypot(px-c, py-c) > r {
				continue
			}
			img.Set(x, y, blue)
			// The hands: from the centre up, and to the lower right.
			s := float64(size) / 32
			if near(px, py, 16*s, 7*s, 16*s, 16*s, w) || near(px, py, 16*s, 16*s, 22*s, 20*s, w) {
				img.Set(x, y, white)
			}
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img) // in memory: cannot fail
	return b.Bytes()
}

// near reports whether (px, py) is within w of the segment a-b.
func near(px, py, ax, ay, bx, by, w float64) bool {
	dx, dy := bx-ax, by-ay
	t := math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/(dx*dx+dy*dy)))
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy)) <= w
}

// manifest is /manifest.webmanifest.
func (p *Pages) manifest(c *fiber.Ctx) error {
	m := map[string]any{
		"name": "ponto — registro de ponto", "short_name": "ponto", "lang": "pt-BR",
		"start_url": "/ponto", "scope": "/", "display": "standalone",
		"background_color": "#f6f7f9", "theme_color": "#084a8c",
		"icons": []map[string]string{
			{"src": p.assets.Path("icone.svg"), "sizes": "any", "type": "image/svg+xml"},
			{"src": "/icone-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
		},
	}
	c.Set(fiber.HeaderContentType, "application/manifest+json")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.JSON(m, "application/manifest+json")
}

func (p *Pages) icon(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "image/png")
	c.Set(fiber.HeaderCacheControl, "public, max-age=86400")
	return c.Send(iconPNG)
}

// serviceWorker is /sw.js: its version is the hash of what it keeps, so a
// new script or style installs a new worker.
func (p *Pages) serviceWorker(c *fiber.Ctx) error {
	files := []string{p.assets.Path("app.js"), p.assets.Path("fila.js"), p.assets.Path("app.css"),
		p.assets.Path("icone.svg"), "/icone-192.png", "/manifest.webmanifest"}
	list, _ := json.Marshal(files)
	sum := sha256.Sum256(list)
	js := strings.NewReplacer("__VERSAO__", hex.EncodeToString(sum[:6]), "__ARQUIVOS__", string(list),
		"__FILA__", p.assets.Path("fila.js")).Replace(serviceWorkerJS)
	c.Set(fiber.HeaderContentType, "text/javascript; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.SendString(js)
}

// serviceWorkerJS: the punch page network first (its last copy when
// off-line), the static files from the cache, and the queue of off-line
// punches sent on Background Sync (fila.js, shared with the page).
const serviceWorkerJS = `"use strict";
importScripts("__FILA__");
var VERSAO = "ponto-__VERSAO__";
var ARQUIVOS = __ARQUIVOS__;
self.addEventListener("install", function (ev) {
  ev.waitUntil(caches.open(VERSAO).then(function (c) { return c.addAll(ARQUIVOS); }).then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (ks) {
    return Promise.all(ks.filter(function (k) { return k !== VERSAO; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});
self.addEventListener("fetch", function (ev) {
  var req = ev.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (req.mode === "navigate" && (url.pathname === "/ponto" || url.pathname === "/ponto/")) {
    ev.respondWith(fetch(req).then(function (resp) {
      if (resp.ok && !resp.redirected) {
        var copy = resp.clone();
        caches.open(VERSAO).then(function (c) { return c.put("/ponto", copy); });
      }
      return resp;
    }).catch(function () {
      return caches.open(VERSAO).then(function (c) { return c.match("/ponto"); }).then(function (r) {
        return r || new Response("Sem conexão.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
      });
    }));
    return;
  }
  if (ARQUIVOS.indexOf(url.pathname) >= 0) {
    ev.respondWith(caches.match(url.pathname).then(function (r) { return r || fetch(req); }));
  }
});
self.addEventListener("sync", function (ev) {
  if (ev.tag === PontoFila.TAG) { ev.waitUntil(PontoFila.enviar()); }
});
`

// registerDevice is POST /ponto/dispositivos (JSON): the page registers
// its device key while on-line.
func (p *Pages) registerDevice(c *fiber.Ctx) error {
	var in struct {
		Nome               string `json:"nome"`
		ChavePublica       string `json:"chavePublica"`
		HorarioDispositivo string `json:"horarioDispositivo"`
	}
	if err := json.Unmarshal(c.Body(), &in); err != nil {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "json_invalido", Message: "corpo JSON inválido"})
	}
	var out map[string]any
	if err := p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos/dispositivos", Body: in}, &out); err != nil {
		return p.fail(c, err)
	}
	return c.Status(http.StatusCreated).JSON(fiber.Map{"id": out["id"]})
}

// sendOffline is POST /ponto/offline (JSON): the queue of off-line punches,
// passed to the API as the session's employee; the answer as the API gave
// it, one outcome per punch.
func (p *Pages) sendOffline(c *fiber.Ctx) error {
	var in struct {
		DispositivoID int64            `json:"dispositivoId"`
		EnviadoEm     string           `json:"enviadoEm"`
		Marcacoes     []map[string]any `json:"marcacoes"`
	}
	if err := json.Unmarshal(c.Body(), &in); err != nil {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "json_invalido", Message: "corpo JSON inválido"})
	}
	body := map[string]any{"dispositivoId": in.DispositivoID, "enviadoEm": in.EnviadoEm, "coletor": coletor,
		"marcacoes": in.Marcacoes}
	var out map[string]any
	if err := p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos/offline", Body: body}, &out); err != nil {
		return p.fail(c, err)
	}
	return c.JSON(out)
}

// revokeDevice is POST /ponto/dispositivos/{id}/revogar: the employee
// revokes one of his device keys (a lost phone).
func (p *Pages) revokeDevice(c *fiber.Ctx) error {
	if err := p.call(c, api.Call{Method: http.MethodDelete, Path: "/registropontos/dispositivos/" + c.Params("id")}, nil); err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/ponto/perfil?ok=dispositivo", http.StatusSeeOther)
}
