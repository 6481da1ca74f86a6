package funcionario

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/employee/internal/request"
)

// Bounds of the employee's fields.
const (
	nomeMin, nomeMax   = 2, 150
	cargoMin, cargoMax = 2, 100
	enderecoMax        = 200
	cidadeMax          = 100
	matriculaMax       = 30
	telefoneMin        = 10 // DDD + 8-digit landline
	telefoneMax        = 11 // DDD + 9-digit mobile
	idadeMin, idadeMax = 14, 100
	valorHoraMax       = 100000
)

// ufs are the 27 federative units, for uf.
var ufs = []string{"AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB",
	"PE", "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO"}

// createInput is the body of POST /funcionarios: the contract's nine
// fields, then optional additions.
type createInput struct {
	Cargo            string `json:"cargo"`
	CPF              string `json:"cpf"`
	DataNascimento   string `json:"dataNascimento"`
	Email            string `json:"email"`
	EmpresaID        int64  `json:"empresaId"`
	EscalaTrabalhoID int64  `json:"escalaTrabalhoId"`
	Nome             string `json:"nome"`
	Password         string `json:"password"`
	Telefone         string `json:"telefone"`

	DepartamentoID *int64   `json:"departamentoId"`
	Segmento       *int     `json:"segmento"`
	CLT            bool     `json:"clt"`
	PJ             bool     `json:"pj"`
	Sobreaviso     bool     `json:"sobreaviso"`
	DataAdmissao   *string  `json:"dataAdmissao"`
	Endereco       string   `json:"endereco"`
	Cidade         *string  `json:"cidade"`
	UF             *string  `json:"uf"`
	CodeMatricula  *string  `json:"codeMatricula"`
	Nispis         *string  `json:"nispis"`
	ValorHora      *float64 `json:"valorHora"`
	FusoHorario    *string  `json:"fusoHorario"`
	// EstabelecimentoID is his establishment; absent or 0: the principal.
	EstabelecimentoID *int64 `json:"estabelecimentoId"`

	// DataDemissao is the termination date, DD/MM/AAAA, never before
	// DataAdmissao.
	DataDemissao *string `json:"dataDemissao"`
}

// Empresa is the company the body names (request.CompanyBody).
func (in *createInput) Empresa() int64 { return in.EmpresaID }

// newFuncionario is a validated creation, ready to insert.
type newFuncionario struct {
	Funcionario
	PasswordHash string
}

// check validates every field at once, so one 400 names them all. The
// password is checked here and hashed later, only once all is valid.
func (in createInput) check(now time.Time) (newFuncionario, error) {
	v := validate.Errors{}
	v.Check(in.EmpresaID > 0, "empresaId", "campo obrigatório")
	v.Check(in.EscalaTrabalhoID > 0, "escalaTrabalhoId", "campo obrigatório")
	checkNome(v, in.Nome)
	checkCargo(v, in.Cargo)
	checkTelefone(v, in.Telefone)
	checkEndereco(v, in.Endereco)
	if v.Required(in.CPF, "cpf") {
		v.Check(brdocs.ValidCPF(in.CPF), "cpf", "CPF inválido: use ###.###.###-## com dígitos verificadores corretos")
	}
	v.RequiredEmail(in.Email, "email")
	nascimento := checkNascimento(v, in.DataNascimento, now)
	if v.Required(in.Password, "password") {
		if err := password.CheckStrength(in.Password); err != nil {
			v.Check(false, "password", err.Error())
		}
	}
	if in.DepartamentoID != nil {
		v.Check(*in.DepartamentoID > 0, "departamentoId", "deve ser um inteiro positivo")
	}
	if in.Segmento != nil {
		v.Check(*in.Segmento > 0, "segmento", "deve ser um inteiro positivo")
		v.Check(in.DepartamentoID != nil, "segmento", "exige departamentoId")
	}
	v.Check(!(in.CLT && in.PJ), "pj", "não pode ser CLT e PJ ao mesmo tempo")
	var estabelecimento int64
	if in.EstabelecimentoID != nil {
		estabelecimento = *in.EstabelecimentoID
		v.Check(estabelecimento >= 0, "estabelecimentoId", msgEstabelecimento)
	}
	f := Funcionario{
		EmpresaID: in.EmpresaID, EscalaTrabalhoID: in.EscalaTrabalhoID,
		DepartamentoID: in.DepartamentoID, Segmento: in.Segmento,
		Nome: in.Nome, Cargo: in.Cargo, Email: in.Email, CPF: in.CPF, Telefone: in.Telefone,
		Endereco: in.Endereco, DataNascimento: nascimento, Ativo: true,
		CLT: in.CLT, PJ: in.PJ, Sobreaviso: in.Sobreaviso, Sentimento: sentimentoNeutro,
		Cidade: checkCidade(v, in.Cidade), UF: checkUF(v, in.UF),
		CodeMatricula: checkMatricula(v, in.CodeMatricula), Nispis: checkNispis(v, in.Nispis),
		ValorHora: checkValorHora(v, in.ValorHora), DataAdmissao: checkAdmissao(v, in.DataAdmissao, now),
		FusoHorario: checkFusoHorario(v, in.FusoHorario), EstabelecimentoID: estabelecimento,
	}
	f.DataDemissao = checkDemissao(v, in.DataDemissao, f.DataAdmissao)
	return newFuncionario{Funcionario: f}, v.Err()
}

// updateInput is the body of PATCH /funcionarios/{funcionarioId}: every
// field optional, null only where the record allows it. e-mail, CPF and
// birth date identify the person and cannot change here.
type updateInput struct {
	Nome             request.Opt[string]  `json:"nome"`
	Cargo            request.Opt[string]  `json:"cargo"`
	Telefone         request.Opt[string]  `json:"telefone"`
	Endereco         request.Opt[string]  `json:"endereco"`
	EscalaTrabalhoID request.Opt[int64]   `json:"escalaTrabalhoId"`
	DepartamentoID   request.Opt[int64]   `json:"departamentoId"`
	Segmento         request.Opt[int]     `json:"segmento"`
	Ativo            request.Opt[bool]    `json:"ativo"`
	CLT              request.Opt[bool]    `json:"clt"`
	PJ               request.Opt[bool]    `json:"pj"`
	Sobreaviso       request.Opt[bool]    `json:"sobreaviso"`
	Cidade           request.Opt[string]  `json:"cidade"`
	UF               request.Opt[string]  `json:"uf"`
	CodeMatricula    request.Opt[string]  `json:"codeMatricula"`
	Nispis           request.Opt[string]  `json:"nispis"`
	ValorHora        request.Opt[float64] `json:"valorHora"`
	DataAdmissao     request.Opt[string]  `json:"dataAdmissao"`
	FusoHorario      request.Opt[string]  `json:"fusoHorario"`
	// EstabelecimentoID moves him to another establishment (0: the
	// principal).
	EstabelecimentoID request.Opt[int64] `json:"estabelecimentoId"`

	DataDemissao request.Opt[string] `json:"dataDemissao"`
}

// change is one column to set; the column names come from this file only.
type change struct {
	column string
	value  any
}

// update is a validated partial update.
type update struct {
	changes []change
	// deactivate is true when the body sets ativo to false.
	deactivate bool
	// estabelecimento is the establishment sent, to be checked with
	// company-billing and then set; nil when absent.
	estabelecimento *int64
}

// msgEstabelecimento refuses a negative establishment id.
const msgEstabelecimento = "deve ser o id de um estabelecimento ativo da empresa (0 ou ausente: o principal)"

// setEstabelecimento adds the checked establishment id to u's changes.
func (u *update) setEstabelecimento(id int64) {
	u.changes = append(u.changes, change{"estabelecimento_id", id})
}

// check validates the fields present and lists the columns to set.
// Changing departamentoId without segmento leaves the employee in no
// segment: the old number belongs to the old department.
func (in updateInput) check(now time.Time) (update, error) {
	v := validate.Errors{}
	var u update
	set := func(column string, value any) { u.changes = append(u.changes, change{column, value}) }

	if s, ok := required(v, in.Nome, "nome"); ok && checkNome(v, s) {
		set("nome", s)
	}
	if s, ok := required(v, in.Cargo, "cargo"); ok && checkCargo(v, s) {
		set("cargo", s)
	}
	if s, ok := required(v, in.Telefone, "telefone"); ok && checkTelefone(v, s) {
		set("telefone", s)
	}
	if s, ok := required(v, in.Endereco, "endereco"); ok && checkEndereco(v, s) {
		set("endereco", s)
	}
	if id, ok := required(v, in.EscalaTrabalhoID, "escalaTrabalhoId"); ok {
		v.Check(id > 0, "escalaTrabalhoId", "deve ser um inteiro positivo")
		set("escala_trabalho_id", id)
	}
	u.department(v, in, set)
	for _, b := range []struct {
		opt    request.Opt[bool]
		field  string
		column string
	}{{in.Ativo, "ativo", "ativo"}, {in.CLT, "clt", "clt"}, {in.PJ, "pj", "pj"}, {in.Sobreaviso, "sobreaviso", "sobreaviso"}} {
		if val, ok := required(v, b.opt, b.field); ok {
			set(b.column, val)
		}
	}
	if in.Ativo.Set && !in.Ativo.Null && !in.Ativo.Value {
		u.deactivate = true
	}
	v.Check(!(in.CLT.Value && in.PJ.Value), "pj", "não pode ser CLT e PJ ao mesmo tempo")
	if in.Cidade.Set {
		set("cidade", checkCidade(v, in.Cidade.Ptr()))
	}
	if in.UF.Set {
		set("uf", checkUF(v, in.UF.Ptr()))
	}
	if in.CodeMatricula.Set {
		set("code_matricula", checkMatricula(v, in.CodeMatricula.Ptr()))
	}
	if in.Nispis.Set {
		set("nispis", checkNispis(v, in.Nispis.Ptr()))
	}
	if in.ValorHora.Set {
		set("valor_hora", checkValorHora(v, in.ValorHora.Ptr()))
	}
	if in.DataAdmissao.Set {
		set("data_admissao", checkAdmissao(v, in.DataAdmissao.Ptr(), now))
	}
	if in.FusoHorario.Set {
		set("fuso_horario", checkFusoHorario(v, in.FusoHorario.Ptr()))
	}
	if id, ok := required(v, in.EstabelecimentoID, "estabelecimentoId"); ok {
		v.Check(id >= 0, "estabelecimentoId", msgEstabelecimento)
		u.estabelecimento = &id
	}
	if in.DataDemissao.Set { // against the stored admission: constraint funcionarios_demissao_apos_admissao
		set("data_demissao", checkDemissao(v, in.DataDemissao.Ptr(), nil))
	}
	if len(u.changes) == 0 && u.estabelecimento == nil && len(v) == 0 {
		return update{}, validate.Errors{"corpo": "informe ao menos um campo para alterar"}.Err()
	}
	return u, v.Err()
}

// department handles departamentoId and segmento together.
func (u *update) department(v validate.Errors, in updateInput, set func(string, any)) {
	if in.DepartamentoID.Set {
		dep := in.DepartamentoID.Ptr()
		if dep != nil {
			v.Check(*dep > 0, "departamentoId", "deve ser um inteiro positivo")
		}
		set("departamento_id", dep)
		if !in.Segmento.Set {
			set("segmento", nil)
		}
		if dep == nil && in.Segmento.Set && !in.Segmento.Null {
			v.Check(false, "segmento", "exige departamentoId")
		}
	}
	if in.Segmento.Set {
		seg := in.Segmento.Ptr()
		if seg != nil {
			v.Check(*seg > 0, "segmento", "deve ser um inteiro positivo (null para nenhum)")
		}
		set("segmento", seg)
	}
}

// required unwraps a field that may be absent but not null.
func required[T any](v validate.Errors, o request.Opt[T], field string) (T, bool) {
	if o.Set && o.Null {
		v.Check(false, field, "não pode ser nulo")
	}
	return o.Value, o.Set && !o.Null
}

func checkNome(v validate.Errors, s string) bool {
	return text(v, s, "nome", nomeMin, nomeMax)
}

func checkCargo(v validate.Errors, s string) bool {
	return text(v, s, "cargo", cargoMin, cargoMax)
}

// text checks a required free text: length bounds, no surrounding blanks.
func text(v validate.Errors, s, field string, lo, hi int) bool {
	n := len(v)
	if v.Required(s, field) {
		v.Length(s, field, lo, hi)
		v.Check(strings.TrimSpace(s) == s, field, "não pode começar nem terminar com espaços")
	}
	return len(v) == n
}

func checkTelefone(v validate.Errors, s string) bool {
	n := len(v)
	if v.Required(s, "telefone") {
		v.Check(validate.Digits(s, telefoneMin, telefoneMax), "telefone",
			fmt.Sprintf("deve ter de %d a %d dígitos, só números (DDD + número)", telefoneMin, telefoneMax))
	}
	return len(v) == n
}

// checkEndereco: the address is optional; "" means none.
func checkEndereco(v validate.Errors, s string) bool {
	n := len(v)
	v.Length(s, "endereco", 0, enderecoMax)
	return len(v) == n
}

// checkNascimento parses a DD/MM/YYYY birth date that makes the employee
// between idadeMin and idadeMax years old today.
func checkNascimento(v validate.Errors, s string, now time.Time) time.Time {
	if !v.Required(s, "dataNascimento") {
		return time.Time{}
	}
	t, ok := validate.DateBR(s)
	if !ok {
		v.Check(false, "dataNascimento", "data inválida: use DD/MM/AAAA")
		return time.Time{}
	}
	age := yearsBetween(t, now)
	v.Check(t.Before(now), "dataNascimento", "deve estar no passado")
	v.Check(age >= idadeMin && age <= idadeMax, "dataNascimento",
		fmt.Sprintf("a idade deve estar entre %d e %d anos", idadeMin, idadeMax))
	return t
}

// yearsBetween is the age on date now of someone born on birth.
func yearsBetween(birth, now time.Time) int {
	y := now.Year() - birth.Year()
	if now.Month() < birth.Month() || (now.Month() == birth.Month() && now.Day() < birth.Day()) {
		y--
	}
	return y
}

// checkAdmissao parses an optional DD/MM/YYYY hiring date, not in the
// future: timekeeping owes nothing before it, so a future date would
// silently empty the timesheet of someone already working.
func checkAdmissao(v validate.Errors, s *string, now time.Time) *time.Time {
	if s == nil {
		return nil
	}
	t, ok := validate.DateBR(*s)
	if !ok {
		v.Check(false, "dataAdmissao", "data inválida: use DD/MM/AAAA")
		return nil
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	v.Check(t.Year() >= 1900, "dataAdmissao", "data fora do intervalo aceito")
	v.Check(!t.After(today), "dataAdmissao", "a data de admissão não pode estar no futuro")
	return &t
}

// checkDemissao parses an optional DD/MM/YYYY termination date, not
// before admissao (when known here).
func checkDemissao(v validate.Errors, s *string, admissao *time.Time) *time.Time {
	if s == nil {
		return nil
	}
	t, ok := validate.DateBR(*s)
	if !ok || t.Year() < 1900 {
		v.Check(false, "dataDemissao", "data inválida: use DD/MM/AAAA")
		return nil
	}
	v.Check(admissao == nil || !t.Before(*admissao), "dataDemissao", "a data de demissão não pode ser anterior à admissão")
	return &t
}

func checkCidade(v validate.Errors, s *string) *string {
	if s != nil {
		text(v, *s, "cidade", 1, cidadeMax)
	}
	return s
}

func checkUF(v validate.Errors, s *string) *string {
	if s != nil {
		v.Check(slices.Contains(ufs, *s), "uf", "deve ser a sigla de uma unidade federativa, como SP")
	}
	return s
}

func checkMatricula(v validate.Errors, s *string) *string {
	if s != nil {
		text(v, *s, "codeMatricula", 1, matriculaMax)
	}
	return s
}

// checkNispis validates a PIS/PASEP/NIS number: 11 digits, the last one a
// check digit (weights 3,2,9,8,7,6,5,4,3,2; 10 and 11 become 0).
func checkNispis(v validate.Errors, s *string) *string {
	if s == nil {
		return nil
	}
	if !validate.Digits(*s, 11, 11) {
		v.Check(false, "nispis", "deve ter 11 dígitos, só números")
		return s
	}
	weights := []int{3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	sum := 0
	for i, w := range weights {
		sum += int((*s)[i]-'0') * w
	}
	d := 11 - sum%11
	if d >= 10 {
		d = 0
	}
	v.Check(int((*s)[10]-'0') == d, "nispis", "dígito verificador inválido")
	return s
}

// checkValorHora accepts a positive amount in reais with at most two
// decimals (it is stored as NUMERIC(10,2); more would be silently rounded).
func checkValorHora(v validate.Errors, f *float64) *float64 {
	if f == nil {
		return nil
	}
	cents := *f * 100
	v.Check(*f > 0 && *f <= valorHoraMax && math.Abs(cents-math.Round(cents)) < 1e-6, "valorHora",
		fmt.Sprintf("deve ser um valor positivo até %d, com no máximo duas casas decimais", valorHoraMax))
	return f
}

// checkFusoHorario accepts an optional IANA zone (validate.TimeZone); nil
// means the company's.
func checkFusoHorario(v validate.Errors, s *string) *string {
	if s != nil {
		v.Check(validate.TimeZone(*s), "fusoHorario", validate.TimeZoneMessage)
	}
	return s
}
