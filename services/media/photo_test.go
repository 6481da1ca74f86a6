package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image/gif"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ponto/ponto/services/media/internal/foto"
)

// fotoAnswer is the upload's 200 body.
type fotoAnswer struct {
	FuncionarioID int64  `json:"funcionarioId"`
	FotoProfile   string `json:"fotoProfile"`
	URL           string `json:"url"`
	ContentType   string `json:"contentType"`
	Largura       int    `json:"largura"`
	Altura        int    `json:"altura"`
	TamanhoBytes  int    `json:"tamanhoBytes"`
	SHA256        string `json:"sha256"`
	Miniatura     struct {
		URL          string `json:"url"`
		ContentType  string `json:"contentType"`
		Largura      int    `json:"largura"`
		Altura       int    `json:"altura"`
		TamanhoBytes int    `json:"tamanhoBytes"`
		SHA256       string `json:"sha256"`
	} `json:"miniatura"`
}

// uploaded checks a 200 upload and its effects: both objects stored under
// the company's prefix, named by the digest of the stored photo, and the
// employee's fotoProfile set to the answer's URL.
func (h *harness) uploaded(a answer, empresa, id int64) fotoAnswer {
	h.t.Helper()
	if a.status != http.StatusOK {
		h.t.Fatalf("upload: status %d: %s", a.status, a.body)
	}
	var f fotoAnswer
	a.json(h.t, &f)
	if f.FuncionarioID != id || f.ContentType != "image/jpeg" || f.Miniatura.ContentType != "image/jpeg" {
		h.t.Errorf("answer = %+v", f)
	}
	path := "/funcionarios/" + strconv.FormatInt(id, 10) + "/foto"
	if f.URL != path+"?v="+f.SHA256 || f.FotoProfile != f.URL || f.Miniatura.URL != path+"?tamanho=thumb&v="+f.SHA256 {
		h.t.Errorf("urls = %q %q %q", f.URL, f.FotoProfile, f.Miniatura.URL)
	}
	if got := h.employees.fotoProfile(id); got != f.URL {
		h.t.Errorf("fotoProfile = %q, want %q", got, f.URL)
	}
	prefix := "empresas/" + strconv.FormatInt(empresa, 10) + "/funcionarios/" + strconv.FormatInt(id, 10) + "/"
	photo, thumb := h.object(prefix+f.SHA256+".jpg"), h.object(prefix+f.SHA256+"_thumb.jpg")
	if sum := sha256.Sum256(photo); hex.EncodeToString(sum[:]) != f.SHA256 || len(photo) != f.TamanhoBytes {
		h.t.Errorf("stored photo: %d bytes, sha256 %x; answer says %d, %s", len(photo), sum, f.TamanhoBytes, f.SHA256)
	}
	if sum := sha256.Sum256(thumb); hex.EncodeToString(sum[:]) != f.Miniatura.SHA256 || len(thumb) != f.Miniatura.TamanhoBytes {
		h.t.Errorf("stored thumbnail does not match the answer")
	}
	img, format := decoded(h.t, photo)
	if format != "jpeg" || img.Bounds().Dx() != f.Largura || img.Bounds().Dy() != f.Altura {
		h.t.Errorf("stored photo is %s %v, answer says %dx%d", format, img.Bounds(), f.Largura, f.Altura)
	}
	timg, _ := decoded(h.t, thumb)
	if timg.Bounds().Dx() != f.Miniatura.Largura || timg.Bounds().Dy() != f.Miniatura.Altura ||
		max(f.Miniatura.Largura, f.Miniatura.Altura) > foto.ThumbSide {
		h.t.Errorf("thumbnail is %v, answer says %dx%d", timg.Bounds(), f.Miniatura.Largura, f.Miniatura.Altura)
	}
	return f
}

func TestEmployeeUploadsHisJPEGAndBothDownloadIt(t *testing.T) {
	h := start(t, false)
	ana := h.funcionario(empresaA, anaID)

	a := h.upload(ana, anaID, "eu.jpg", "image/jpeg", jpegBytes(t, halves(640, 480)))
	f := h.uploaded(a, empresaA, anaID)
	if f.Largura != 640 || f.Altura != 480 || f.Miniatura.Largura != 256 || f.Miniatura.Altura != 192 {
		t.Errorf("sizes = %dx%d, thumb %dx%d", f.Largura, f.Altura, f.Miniatura.Largura, f.Miniatura.Altura)
	}
	if h.employees.updateCount() != 1 {
		t.Errorf("%d fotoProfile updates, want 1", h.employees.updateCount())
	}

	stored := h.object("empresas/10/funcionarios/100/" + f.SHA256 + ".jpg")
	for _, token := range []string{ana, h.empresa(empresaA)} {
		g := h.get(token, f.URL, nil)
		if g.status != http.StatusOK || !bytes.Equal(g.body, stored) {
			t.Fatalf("GET photo: %d, %d bytes (stored %d)", g.status, len(g.body), len(stored))
		}
		if ct := g.header.Get("Content-Type"); ct != "image/jpeg" {
			t.Errorf("Content-Type = %q", ct)
		}
		if et := g.header.Get("ETag"); et != `"`+f.SHA256+`"` {
			t.Errorf("ETag = %q", et)
		}
		if cc := g.header.Get("Cache-Control"); cc != "private, max-age=300" {
			t.Errorf("Cache-Control = %q", cc)
		}
		if cl := g.header.Get("Content-Length"); cl != strconv.Itoa(len(stored)) {
			t.Errorf("Content-Length = %q", cl)
		}
		img, _ := decoded(t, g.body)
		if !near(img.At(10, 240), red, 40) || !near(img.At(630, 240), blue, 40) {
			t.Errorf("served photo colours: %v %v", img.At(10, 240), img.At(630, 240))
		}
	}

	if hd := h.do(http.MethodHead, f.URL, ana, nil, nil); hd.status != http.StatusOK || len(hd.body) != 0 ||
		hd.header.Get("Content-Length") != strconv.Itoa(len(stored)) || hd.header.Get("ETag") != `"`+f.SHA256+`"` {
		t.Errorf("HEAD: %d, %d bytes, headers %v", hd.status, len(hd.body), hd.header)
	}

	// The bare route serves the current photo too; the thumbnail has its own ETag.
	if g := h.get(ana, "/funcionarios/100/foto", nil); g.status != http.StatusOK || !bytes.Equal(g.body, stored) {
		t.Errorf("GET without v: %d", g.status)
	}
	th := h.get(ana, f.Miniatura.URL, nil)
	if th.status != http.StatusOK || th.header.Get("ETag") != `"`+f.SHA256+`-thumb"` {
		t.Fatalf("GET thumb: %d %q", th.status, th.header.Get("ETag"))
	}
	if img, _ := decoded(t, th.body); img.Bounds().Dx() != 256 || img.Bounds().Dy() != 192 {
		t.Errorf("thumbnail %v", img.Bounds())
	}

	// Revalidation.
	for _, inm := range []string{`"` + f.SHA256 + `"`, `W/"` + f.SHA256 + `"`, `"x", "` + f.SHA256 + `"`, "*"} {
		g := h.get(ana, f.URL, map[string]string{"If-None-Match": inm})
		if g.status != http.StatusNotModified || len(g.body) != 0 || g.header.Get("ETag") != `"`+f.SHA256+`"` {
			t.Errorf("If-None-Match %s: %d, %d bytes, ETag %q", inm, g.status, len(g.body), g.header.Get("ETag"))
		}
	}
	if g := h.get(ana, f.URL, map[string]string{"If-None-Match": `"` + f.SHA256 + `-thumb"`}); g.status != http.StatusOK {
		t.Errorf("the thumbnail's ETag revalidated the photo: %d", g.status)
	}
	if g := h.get(ana, "/funcionarios/100/foto?tamanho=grande", nil); g.status != http.StatusBadRequest {
		t.Errorf("tamanho=grande: %d", g.status)
	}
}

func TestCompanyUploadsPNGAndWebP(t *testing.T) {
	h := start(t, false)
	empresa := h.empresa(empresaA)

	// PNG with transparency: flattened onto white, not black.
	f := h.uploaded(h.upload(empresa, brunoID, "b.png", "image/png", pngBytes(t, greenSquare())), empresaA, brunoID)
	img, _ := decoded(t, h.get(empresa, f.URL, nil).body)
	if f.Largura != 40 || f.Altura != 40 || !near(img.At(2, 2), white, 10) || !near(img.At(20, 20), green, 40) {
		t.Errorf("PNG: %dx%d, corner %v, centre %v", f.Largura, f.Altura, img.At(2, 2), img.At(20, 20))
	}

	// WebP, lossy (VP8).
	f = h.uploaded(h.upload(empresa, brunoID, "b.webp", "image/webp", testdata(t, "rosto.webp")), empresaA, brunoID)
	img, _ = decoded(t, h.get(empresa, f.URL, nil).body)
	if f.Largura != 64 || f.Altura != 48 || !near(img.At(5, 24), red, 40) || !near(img.At(58, 24), blue, 40) {
		t.Errorf("WebP: %dx%d, left %v, right %v", f.Largura, f.Altura, img.At(5, 24), img.At(58, 24))
	}

	// WebP with alpha (VP8X + ALPH).
	f = h.uploaded(h.upload(empresa, anaID, "a.webp", "application/octet-stream", testdata(t, "transparente.webp")), empresaA, anaID)
	img, _ = decoded(t, h.get(empresa, f.URL, nil).body)
	if f.Largura != 40 || !near(img.At(2, 2), white, 10) || !near(img.At(20, 20), green, 40) {
		t.Errorf("WebP alpha: %dx%d, corner %v, centre %v", f.Largura, f.Altura, img.At(2, 2), img.At(20, 20))
	}
}

func TestUploadRecognisesTheContentNotTheName(t *testing.T) {
	h := start(t, false)
	ana := h.funcionario(empresaA, anaID)
	var gifBuf bytes.Buffer
	if err := gif.Encode(&gifBuf, halves(20, 20), nil); err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string][]byte{
		"text named .jpg": []byte("isto não é uma imagem, apesar do nome foto.jpg\n"),
		"html":            []byte("<!DOCTYPE html><html><script>alert(1)</script></html>"),
		"gif":             gifBuf.Bytes(),
		"pdf":             []byte("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n"),
	} {
		a := h.upload(ana, anaID, "foto.jpg", "image/jpeg", file)
		if a.status != http.StatusUnsupportedMediaType || a.errorCode(t) != "tipo_nao_suportado" {
			t.Errorf("%s: %d %s", name, a.status, a.body)
		}
	}
	// A JPEG cut short is recognised but does not decode.
	jpg := jpegBytes(t, halves(200, 100))
	if a := h.upload(ana, anaID, "x.jpg", "image/jpeg", jpg[:len(jpg)/2]); a.status != http.StatusBadRequest || a.errorCode(t) != "validacao" {
		t.Errorf("truncated JPEG: %d %s", a.status, a.body)
	}
	// Not multipart, or no part foto.
	if a := h.do(http.MethodPost, "/funcionarios/100/foto", ana, map[string]string{"Content-Type": "image/jpeg"}, bytes.NewReader(jpg)); a.status != http.StatusUnsupportedMediaType {
		t.Errorf("raw JPEG body: %d %s", a.status, a.body)
	}
	body, ct := multipartBody(t, "imagem", "x.jpg", "image/jpeg", jpg)
	if a := h.do(http.MethodPost, "/funcionarios/100/foto", ana, map[string]string{"Content-Type": ct}, bytes.NewReader(body)); a.status != http.StatusBadRequest || !strings.Contains(string(a.body), `"foto"`) {
		t.Errorf("part imagem instead of foto: %d %s", a.status, a.body)
	}
	if keys := h.objects(); len(keys) != 0 || h.employees.updateCount() != 0 {
		t.Errorf("refused uploads left %v and %d updates", keys, h.employees.updateCount())
	}
}

func TestUploadRefusesDecompressionBombs(t *testing.T) {
	h := start(t, false)
	ana := h.funcionario(empresaA, anaID)
	for name, file := range map[string][]byte{
		"50000x50000 PNG": bombPNG(50_000, 50_000),
		"4097 wide":       bombPNG(foto.MaxSide+1, 10),
		"4000x4001":       bombPNG(4000, 4001), // each side fine, 16.004 megapixels
	} {
		if len(file) > 4096 {
			t.Fatalf("%s: the bomb should be small, is %d bytes", name, len(file))
		}
		a := h.upload(ana, anaID, "bomba.png", "image/png", file)
		if a.status != http.StatusBadRequest || a.errorCode(t) != "validacao" || !strings.Contains(string(a.body), `"foto"`) {
			t.Errorf("%s: %d %s", name, a.status, a.body)
		}
	}
	if keys := h.objects(); len(keys) != 0 || h.employees.updateCount() != 0 {
		t.Errorf("bombs left %v and %d updates", keys, h.employees.updateCount())
	}
}

func TestStoredPhotoCarriesNoEXIF(t *testing.T) {
	h := start(t, false)
	ana := h.funcionario(empresaA, anaID)

	// A phone photo: stored sideways (80×40, red left), EXIF orientation 6
	// (turn clockwise to show), GPS position.
	upload := withEXIF(t, jpegBytes(t, halves(80, 40)), 6)
	if !bytes.Contains(upload, []byte("Exif\x00\x00MM")) || !bytes.Contains(upload, []byte("PontoCm")) {
		t.Fatal("the test upload has no EXIF")
	}
	f := h.uploaded(h.upload(ana, anaID, "IMG_0001.jpg", "image/jpeg", upload), empresaA, anaID)

	latitude := new(bytes.Buffer)
	for _, v := range gpsLatitude {
		latitude.Write([]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
	}
	for _, key := range []string{"empresas/10/funcionarios/100/" + f.SHA256 + ".jpg", "empresas/10/funcionarios/100/" + f.SHA256 + "_thumb.jpg"} {
		stored := h.object(key)
		for _, m := range jpegSegments(t, stored) {
			if m >= 0xE0 && m <= 0xEF || m == 0xFE {
				t.Errorf("%s keeps an APP%d/COM segment (0xFF%X)", key, m-0xE0, m)
			}
		}
		for _, marker := range [][]byte{[]byte("Exif"), []byte("MM\x00\x2a"), []byte("PontoCm"), latitude.Bytes()} {
			if bytes.Contains(stored, marker) {
				t.Errorf("%s still contains %q", key, marker)
			}
		}
	}
	// Turned upright before EXIF was dropped: 40×80, the red half on top.
	img, _ := decoded(t, h.object("empresas/10/funcionarios/100/"+f.SHA256+".jpg"))
	if f.Largura != 40 || f.Altura != 80 || !near(img.At(20, 5), red, 40) || !near(img.At(20, 75), blue, 40) {
		t.Errorf("orientation not applied: %dx%d, top %v, bottom %v", f.Largura, f.Altura, img.At(20, 5), img.At(20, 75))
	}
}

func TestAnotherTenantOrColleagueGets404(t *testing.T) {
	h := start(t, false)
	// Carla (company B) has a photo.
	carla := h.funcionario(empresaB, carlaID)
	f := h.uploaded(h.upload(carla, carlaID, "c.jpg", "image/jpeg", jpegBytes(t, halves(50, 50))), empresaB, carlaID)
	before := h.objects()

	jpg := jpegBytes(t, halves(60, 60))
	for name, c := range map[string]struct {
		token string
		id    int64
	}{
		"company A for B's employee": {h.empresa(empresaA), carlaID},
		"employee of A for B's":      {h.funcionario(empresaA, anaID), carlaID},
		"employee for a colleague":   {h.funcionario(empresaA, anaID), brunoID},
		"company B for A's employee": {h.empresa(empresaB), anaID},
		"unknown employee":           {h.empresa(empresaA), unknown},
	} {
		if a := h.upload(c.token, c.id, "x.jpg", "image/jpeg", jpg); a.status != http.StatusNotFound || a.errorCode(t) != "nao_encontrado" {
			t.Errorf("upload, %s: %d %s", name, a.status, a.body)
		}
		path := "/funcionarios/" + strconv.FormatInt(c.id, 10) + "/foto"
		for _, p := range []string{path, path + "?tamanho=thumb"} {
			if a := h.get(c.token, p, nil); a.status != http.StatusNotFound || a.errorCode(t) != "nao_encontrado" {
				t.Errorf("GET %s, %s: %d %s", p, name, a.status, a.body)
			}
		}
	}
	// Same answer for "no photo" of one's own employee.
	if a := h.get(h.empresa(empresaA), "/funcionarios/100/foto", nil); a.status != http.StatusNotFound {
		t.Errorf("no photo yet: %d", a.status)
	}
	// Admins are not tenants; no token is 401.
	if a := h.get(h.iss.Admin(t), f.URL, nil); a.status != http.StatusForbidden {
		t.Errorf("admin: %d", a.status)
	}
	if a := h.upload("", carlaID, "x.jpg", "image/jpeg", jpg); a.status != http.StatusUnauthorized {
		t.Errorf("no token: %d", a.status)
	}
	if a := h.upload(h.empresa(empresaB), 0, "x.jpg", "image/jpeg", jpg); a.status != http.StatusBadRequest {
		t.Errorf("id 0: %d", a.status)
	}
	if after := h.objects(); !equal(after, before) || h.employees.updateCount() != 1 {
		t.Errorf("refused calls changed storage (%v → %v) or made %d updates", before, after, h.employees.updateCount())
	}
	if h.employees.fotoProfile(anaID) != "" || h.employees.fotoProfile(brunoID) != "" {
		t.Error("a refused upload set a fotoProfile")
	}
}

// A deactivated employee may neither change nor read his photo, though his
// token is still valid; his company still may.
func TestDeactivatedEmployeeIsRefused(t *testing.T) {
	h := start(t, false)
	ana := h.funcionario(empresaA, anaID)
	h.employees.set(func(s *employeeStub) { s.people[anaID].inativo = true })
	jpg := jpegBytes(t, halves(40, 40))
	if a := h.upload(ana, anaID, "a.jpg", "image/jpeg", jpg); a.status != http.StatusForbidden || a.errorCode(t) != "funcionario_inativo" {
		t.Fatalf("upload by a deactivated employee: %d %s", a.status, a.body)
	}
	if a := h.get(ana, "/funcionarios/"+strconv.FormatInt(anaID, 10)+"/foto", nil); a.status != http.StatusForbidden {
		t.Errorf("download by a deactivated employee: %d %s", a.status, a.body)
	}
	if h.employees.updateCount() != 0 || len(h.objects()) != 0 {
		t.Error("the refused upload stored something")
	}
	if a := h.upload(h.empresa(empresaA), anaID, "a.jpg", "image/jpeg", jpg); a.status != http.StatusOK {
		t.Errorf("his company: %d %s", a.status, a.body)
	}
}

func TestReplacingAPhotoRemovesTheOldObjects(t *testing.T) {
	h := start(t, false)
	ana := h.funcionario(empresaA, anaID)
	first := h.uploaded(h.upload(ana, anaID, "1.jpg", "image/jpeg", jpegBytes(t, halves(100, 100))), empresaA, anaID)
	second := h.uploaded(h.upload(ana, anaID, "2.png", "image/png", pngBytes(t, halves(120, 90))), empresaA, anaID)
	if first.SHA256 == second.SHA256 {
		t.Fatal("two different photos got the same digest")
	}
	want := []string{
		"empresas/10/funcionarios/100/" + second.SHA256 + ".jpg",
		"empresas/10/funcionarios/100/" + second.SHA256 + "_thumb.jpg",
	}
	if got := h.objects(); !equal(got, want) {
		t.Errorf("bucket = %v, want only %v", got, want)
	}
	if a := h.get(ana, first.URL, nil); a.status != http.StatusOK || a.header.Get("ETag") != `"`+second.SHA256+`"` {
		t.Errorf("an old URL serves the current photo: %d %q", a.status, a.header.Get("ETag"))
	}

	// The same photo again: same keys, which must survive.
	again := h.uploaded(h.upload(ana, anaID, "2.png", "image/png", pngBytes(t, halves(120, 90))), empresaA, anaID)
	if again.SHA256 != second.SHA256 {
		t.Fatalf("re-encoding is not deterministic: %s vs %s", again.SHA256, second.SHA256)
	}
	if got := h.objects(); !equal(got, want) {
		t.Errorf("after the same upload, bucket = %v", got)
	}
	if h.employees.updateCount() != 3 {
		t.Errorf("%d updates, want 3", h.employees.updateCount())
	}
}

func TestMinioFailureLeavesNothingHalfWritten(t *testing.T) {
	h := start(t, true)
	ana := h.funcionario(empresaA, anaID)
	first := h.uploaded(h.upload(ana, anaID, "1.jpg", "image/jpeg", jpegBytes(t, halves(100, 100))), empresaA, anaID)
	before := h.objects()

	// The photo is stored, the thumbnail fails: the photo goes away again.
	h.proxy.failPutSuffix.Store("_thumb.jpg")
	a := h.upload(ana, anaID, "2.jpg", "image/jpeg", jpegBytes(t, halves(90, 90)))
	if a.status != http.StatusServiceUnavailable || a.errorCode(t) != "dependencia_indisponivel" {
		t.Fatalf("thumbnail PUT failing: %d %s", a.status, a.body)
	}
	if got := h.objects(); !equal(got, before) {
		t.Errorf("bucket after the failure = %v, want %v", got, before)
	}
	if h.employees.updateCount() != 1 || h.employees.fotoProfile(anaID) != first.URL {
		t.Errorf("fotoProfile changed: %q after %d updates", h.employees.fotoProfile(anaID), h.employees.updateCount())
	}
	h.proxy.failPutSuffix.Store("")

	// MinIO unreachable.
	h.proxy.down.Store(true)
	if a := h.upload(ana, anaID, "3.jpg", "image/jpeg", jpegBytes(t, halves(70, 70))); a.status != http.StatusServiceUnavailable {
		t.Errorf("MinIO down, upload: %d %s", a.status, a.body)
	}
	if a := h.get(ana, first.URL, nil); a.status != http.StatusServiceUnavailable {
		t.Errorf("MinIO down, download: %d %s", a.status, a.body)
	}
	if resp, err := http.Get(h.internal + "/readyz"); err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("MinIO down, readiness: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	h.proxy.down.Store(false)

	if got := h.objects(); !equal(got, before) || h.employees.updateCount() != 1 {
		t.Errorf("after the outage: bucket %v, %d updates", got, h.employees.updateCount())
	}
	if a := h.get(ana, first.URL, nil); a.status != http.StatusOK {
		t.Errorf("after the outage, the first photo: %d", a.status)
	}
}

func TestEmployeeServiceFailureRemovesTheNewObjects(t *testing.T) {
	h := start(t, false)
	ana := h.funcionario(empresaA, anaID)
	first := h.uploaded(h.upload(ana, anaID, "1.jpg", "image/jpeg", jpegBytes(t, halves(100, 100))), empresaA, anaID)
	before := h.objects()

	h.employees.set(func(s *employeeStub) { s.failPut = true })
	a := h.upload(ana, anaID, "2.jpg", "image/jpeg", jpegBytes(t, halves(90, 90)))
	if a.status != http.StatusServiceUnavailable || a.errorCode(t) != "dependencia_indisponivel" {
		t.Fatalf("fotoProfile update failing: %d %s", a.status, a.body)
	}
	if got := h.objects(); !equal(got, before) {
		t.Errorf("the new objects stayed: %v, want %v", got, before)
	}
	if h.employees.fotoProfile(anaID) != first.URL {
		t.Errorf("fotoProfile = %q", h.employees.fotoProfile(anaID))
	}

	// The employee service down: nothing can be authorized.
	h.employees.set(func(s *employeeStub) { s.failPut, s.down = false, true })
	if a := h.upload(ana, anaID, "2.jpg", "image/jpeg", jpegBytes(t, halves(90, 90))); a.status != http.StatusServiceUnavailable {
		t.Errorf("employee down, upload: %d %s", a.status, a.body)
	}
	if a := h.get(ana, first.URL, nil); a.status != http.StatusServiceUnavailable {
		t.Errorf("employee down, download: %d %s", a.status, a.body)
	}
	if got := h.objects(); !equal(got, before) {
		t.Errorf("bucket = %v", got)
	}
}

func equal(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n")
}
