package e2e

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/brdocs"
)

// zone is the companies' time zone (the stack leaves COMPANY_TIME_ZONE
// at its default): it decides the workday of a punch.
var zone = mustLoadLocation("America/Sao_Paulo")

func mustLoadLocation(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// ---------------------------------------------------------------------------
// Registry numbers and other unique data

func randDigits(n int) []int {
	d := make([]int, n)
	for i := range d {
		v, _ := rand.Int(rand.Reader, big.NewInt(10))
		d[i] = int(v.Int64())
	}
	return d
}

// checkDigit is the mod-11 digit of CPF and CNPJ for the weights given.
func checkDigit(digits, weights []int) int {
	sum := 0
	for i, w := range weights {
		sum += digits[i] * w
	}
	if r := sum % 11; r >= 2 {
		return 11 - r
	}
	return 0
}

// newCPF is a random valid CPF, ###.###.###-##.
func newCPF(t testing.TB) string {
	t.Helper()
	for {
		d := randDigits(9)
		d = append(d, checkDigit(d, []int{10, 9, 8, 7, 6, 5, 4, 3, 2}))
		d = append(d, checkDigit(d, []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 2}))
		s := digitsString(d)
		cpf := s[0:3] + "." + s[3:6] + "." + s[6:9] + "-" + s[9:]
		if brdocs.ValidCPF(cpf) { // all-equal digits are refused; draw again
			return cpf
		}
	}
}

// newCNPJ is a random valid CNPJ of a head office, ##.###.###/0001-##.
func newCNPJ(t testing.TB) string {
	t.Helper()
	for {
		d := append(randDigits(8), 0, 0, 0, 1)
		d = append(d, checkDigit(d, []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}))
		d = append(d, checkDigit(d, []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}))
		s := digitsString(d)
		cnpj := s[0:2] + "." + s[2:5] + "." + s[5:8] + "/" + s[8:12] + "-" + s[12:]
		if brdocs.ValidCNPJ(cnpj) {
			return cnpj
		}
	}
}

func digitsString(d []int) string {
	var b strings.Builder
	for _, v := range d {
		b.WriteByte(byte('0' + v))
	}
	return b.String()
}

// uniqueEmail is an address no other test uses.
func uniqueEmail(who string) string { return who + "." + randomHex(5) + "@e2e.ponto.test" }

// ---------------------------------------------------------------------------
// A company with its people

// company is a registered company, logged in.
type company struct {
	ID        int64
	Email     string
	Password  string
	Token     string
	Refresh   string
	Saved     obj // savedEmpresa
	Sub       obj // subscription
	EscalaID  int64
	DeptID    int64
	DeptNome  string
	Segmentos int
}

// employee is an employee of a company, logged in with his e-mailed code.
type employee struct {
	ID      int64
	Email   string
	Token   string
	Refresh string
	User    obj
}

// registerCompany is POST /empresas (stripe-mock behind company-billing)
// then POST /auth/login.
func (e *env) registerCompany(t testing.TB, nome string) *company {
	t.Helper()
	c := &company{Email: uniqueEmail("empresa"), Password: "senhaForte123"}
	body := map[string]any{
		"cnpj": newCNPJ(t), "dataAbertura": "15/03/2012", "email": c.Email, "nome": nome,
		"nomeDoPlano": "basic", "password": c.Password, "razaoSocial": nome + " Ltda",
	}
	a := e.api.do(t, request{Method: http.MethodPost, Path: "/empresas", Body: body, CheckRequest: true}).expect(t, http.StatusOK)
	o := a.object(t)
	c.Saved, c.Sub = o.obj("savedEmpresa"), o.obj("subscription")
	c.ID = c.Saved.int("id")
	if c.ID <= 0 {
		t.Fatalf("savedEmpresa without id: %s", a)
	}
	login := e.login(t, c.Email, c.Password)
	c.Token, c.Refresh = login.str("token"), login.str("refreshToken")
	if u := login.obj("user"); u.int("id") != c.ID {
		t.Fatalf("company login: user.id = %d; want %d", u.int("id"), c.ID)
	}
	return c
}

// login is POST /auth/login for a company or an admin.
func (e *env) login(t testing.TB, email, pw string) obj {
	t.Helper()
	a := e.api.do(t, request{Method: http.MethodPost, Path: "/auth/login", CheckRequest: true,
		Body: map[string]string{"email": email, "password": pw}}).expect(t, http.StatusOK)
	o := a.object(t)
	if o.str("token") == "" || o.str("refreshToken") == "" {
		t.Fatalf("login without token or refreshToken: %s", a)
	}
	return o
}

// adminToken logs the configured admin in.
func (e *env) adminToken(t testing.TB) string {
	t.Helper()
	o := e.login(t, adminEmail, adminPassword)
	if u := o.obj("user"); u.str("role") != "admin" {
		t.Fatalf("admin login: user = %v", u)
	}
	return o.str("token")
}

// weekSchedule is 08:00 with lunch from 4 h to 5 h after and the end 9 h
// after, every day of the week, so that every date expects 480 minutes.
func weekSchedule(empresaID int64, nome string) map[string]any {
	day := map[string]any{"entrada": "08:00", "saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 540}
	return map[string]any{"empresaId": empresaID, "nome": nome,
		"horarios": []any{day, day, day, day, day, day, day}}
}

// setUp gives the company a schedule and a department with two segments.
func (e *env) setUp(t testing.TB, c *company) {
	t.Helper()
	a := e.api.do(t, request{Method: http.MethodPost, Path: "/escalatrabalhos", Token: c.Token, CheckRequest: true,
		Body: weekSchedule(c.ID, "Comercial "+randomHex(3))}).expect(t, http.StatusOK)
	c.EscalaID = a.object(t).int("id")
	c.DeptNome = "Vendas " + randomHex(3)
	a = e.api.do(t, request{Method: http.MethodPost, Path: "/departamentos", Token: c.Token, CheckRequest: true,
		Body: map[string]any{"nome": c.DeptNome, "segmentos": []string{"Equipe A", "Equipe B"}}}).expect(t, http.StatusOK)
	c.DeptID, c.Segmentos = a.object(t).int("id"), 2
	if c.EscalaID <= 0 || c.DeptID <= 0 {
		t.Fatalf("schedule %d, department %d: ids missing", c.EscalaID, c.DeptID)
	}
}

// employeeBody is a valid POST /funcionarios body in segment 1 of the
// company's department.
func employeeBody(t testing.TB, c *company, nome, email string) map[string]any {
	return map[string]any{
		"cargo": "Atendente", "cpf": newCPF(t), "dataNascimento": "15/08/1990", "email": email,
		"empresaId": c.ID, "escalaTrabalhoId": c.EscalaID, "nome": nome, "password": "senhaForte123",
		"telefone": "11987654321", "departamentoId": c.DeptID, "segmento": 1,
	}
}

// hire creates an employee and logs him in with the code auth e-mails.
func (e *env) hire(t testing.TB, c *company, nome string) *employee {
	t.Helper()
	f := &employee{Email: uniqueEmail("func")}
	a := e.api.do(t, request{Method: http.MethodPost, Path: "/funcionarios", Token: c.Token, CheckRequest: true,
		Body: employeeBody(t, c, nome, f.Email)}).expect(t, http.StatusOK)
	f.ID = a.object(t).int("id")
	if f.ID <= 0 {
		t.Fatalf("employee without id: %s", a)
	}
	e.employeeLogin(t, f)
	return f
}

// employeeLogin: code by e-mail, then POST /auth/login/funcionario.
func (e *env) employeeLogin(t testing.TB, f *employee) {
	t.Helper()
	e.api.do(t, request{Method: http.MethodPost, Path: "/auth/login/funcionario/codigo", CheckRequest: true,
		Body: map[string]string{"email": f.Email}}).expect(t, http.StatusAccepted)
	code := e.mail.code(t, f.Email)
	a := e.api.do(t, request{Method: http.MethodPost, Path: "/auth/login/funcionario", CheckRequest: true,
		Body: map[string]string{"email": f.Email, "codeVerify": code}}).expect(t, http.StatusOK)
	o := a.object(t)
	f.Token, f.Refresh, f.User = o.str("token"), o.str("refreshToken"), o.obj("user")
	if f.User.int("id") != f.ID {
		t.Fatalf("employee login: user.id = %d; want %d", f.User.int("id"), f.ID)
	}
}

// punch is POST /registropontos as f.
func (e *env) punch(t testing.TB, f *employee) obj {
	t.Helper()
	return e.api.do(t, request{Method: http.MethodPost, Path: "/registropontos", Token: f.Token, CheckRequest: true,
		Body: map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": f.ID}}).expect(t, http.StatusOK).object(t)
}

// ---------------------------------------------------------------------------
// Tokens

// signingKey reads the key auth signs with (the *.pem that sorts last in
// its key directory, PKCS#8 Ed25519) and its kid, the RFC 7638 thumbprint.
func (e *env) signingKey(t testing.TB) (ed25519.PrivateKey, string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(e.authKeysDir(), "*.pem"))
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasPrefix(filepath.Base(f), ".") })
	if len(files) == 0 {
		t.Fatalf("no key in %s", e.authKeysDir())
	}
	slices.Sort(files)
	raw, err := os.ReadFile(files[len(files)-1])
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(raw)
	if block == nil {
		t.Fatalf("%s is not PEM", files[len(files)-1])
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	key, ok := k.(ed25519.PrivateKey)
	if !ok {
		t.Fatalf("key %T; want Ed25519", k)
	}
	x := base64.RawURLEncoding.EncodeToString(key.Public().(ed25519.PublicKey))
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + x + `"}`))
	return key, base64.RawURLEncoding.EncodeToString(sum[:])
}

// reissue signs the claims of token again with auth's key, with exp and
// iat moved by shift: a negative shift gives an expired copy of a real
// token, otherwise identical.
func (e *env) reissue(t testing.TB, token string, shift time.Duration) string {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("malformed token: %q", token)
	}
	var header, claims map[string]any
	decodeSegment(t, parts[0], &header)
	decodeSegment(t, parts[1], &claims)
	key, kid := e.signingKey(t)
	if header["kid"] != kid || header["alg"] != "EdDSA" {
		t.Fatalf("token header %v; the signing key has kid %s", header, kid)
	}
	for _, c := range []string{"exp", "iat", "nbf"} {
		if n, ok := claims[c].(json.Number); ok {
			v, _ := n.Int64()
			claims[c] = v + int64(shift/time.Second)
		}
	}
	return signJWT(t, key, header, claims)
}

func signJWT(t testing.TB, key ed25519.PrivateKey, header, claims map[string]any) string {
	t.Helper()
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	c, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	signing := base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(c)
	return signing + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, []byte(signing)))
}

func decodeSegment(t testing.TB, seg string, v any) {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		t.Fatalf("token segment: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("token segment: %v", err)
	}
}

// ---------------------------------------------------------------------------
// Images

// pngImage is a w×h PNG with a gradient (so JPEG re-encoding has work).
func pngImage(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: uint8(x * 255 / w), G: uint8(y * 255 / h), B: 128, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ---------------------------------------------------------------------------
// Dates

// localDate is the company-local date of an ISO timestamp.
func localDate(t testing.TB, iso string) time.Time {
	t.Helper()
	ts := parseISO(t, iso).In(zone)
	return time.Date(ts.Year(), ts.Month(), ts.Day(), 0, 0, 0, 0, time.UTC)
}

func parseISO(t testing.TB, iso string) time.Time {
	t.Helper()
	ts, err := time.Parse("2006-01-02T15:04:05.000Z", iso)
	if err != nil {
		t.Fatalf("time %q is not ISO 8601 with milliseconds: %v", iso, err)
	}
	return ts
}

func isoMillis(ts time.Time) string { return ts.UTC().Format("2006-01-02T15:04:05.000Z") }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// mustJSON is v as JSON, for messages.
func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprint(string(b))
}
