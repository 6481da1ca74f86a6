package folha

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/validate"
)

// Layout is a fixed-width layout: one line per employee and event, each
// field at its position (1-based, in characters), the gaps in blanks.
type Layout struct {
	Nome      string  `json:"nome"`
	Descricao string  `json:"descricao"`
	Campos    []Campo `json:"campos"`
	// Preset: the layout is ponto's, not edited by the company.
	Preset bool `json:"preset"`
}

// Campo is one field of a layout.
type Campo struct {
	// Campo is what the field holds (Fontes).
	Campo   string `json:"campo"`
	Inicio  int    `json:"inicio"`
	Tamanho int    `json:"tamanho"`
	// Alinhamento is esquerda or direita; Preenchimento the one character
	// that pads the value up to Tamanho.
	Alinhamento   string `json:"alinhamento"`
	Preenchimento string `json:"preenchimento"`
	// Valor is the text of a fixo field.
	Valor string `json:"valor,omitempty"`
}

// What a field holds.
const (
	CampoMatricula   = "matricula"   // the employee's registration
	CampoCPF         = "cpf"         // 11 digits
	CampoNome        = "nome"        // cut to the field's size
	CampoCompetencia = "competencia" // AAAAMM of the period's end
	CampoCodigo      = "codigo"      // the event's payroll code
	CampoHoras       = "horas"       // whole hours (days, for an event counted in days)
	CampoMinutos     = "minutos"     // the minutes past the hours, 00 to 59
	CampoCentesimos  = "centesimos"  // the quantity in hundredths of an hour (of a day)
	CampoDias        = "dias"        // days (faltas, dsrPerdidos, afastamento_*), else 0
	CampoFixo        = "fixo"        // Valor, as given
)

// Fontes are the fields a layout may hold.
var Fontes = []string{CampoMatricula, CampoCPF, CampoNome, CampoCompetencia, CampoCodigo, CampoHoras, CampoMinutos,
	CampoCentesimos, CampoDias, CampoFixo}

// Limits of a layout.
const (
	maxCampos    = 40
	maxTamanho   = 100
	maxLinha     = 1000
	maxDescricao = 200
)

var nomeValido = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// NomeValido reports whether s can name a layout.
func NomeValido(s string) bool { return nomeValido.MatchString(s) }

// Presets are ponto's layouts (docs/folha.md documents them field by
// field): calima, from Calima's public description of its time clock
// import (CCCCCRRRRRREEEHHHMM), and generico, ponto's own.
func Presets() map[string]Layout {
	num := func(campo string, inicio, tamanho int) Campo {
		return Campo{Campo: campo, Inicio: inicio, Tamanho: tamanho, Alinhamento: "direita", Preenchimento: "0"}
	}
	txt := func(campo string, inicio, tamanho int) Campo {
		return Campo{Campo: campo, Inicio: inicio, Tamanho: tamanho, Alinhamento: "esquerda", Preenchimento: " "}
	}
	return map[string]Layout{
		"calima": {Nome: "calima", Preset: true,
			Descricao: "Calima (Folha > Importação > Ponto Eletrônico): CCCCCRRRRRREEEHHHMM",
			Campos: []Campo{num(CampoMatricula, 1, 5), num(CampoCompetencia, 6, 6), num(CampoCodigo, 12, 3),
				num(CampoHoras, 15, 3), num(CampoMinutos, 18, 2)}},
		"generico": {Nome: "generico", Preset: true,
			Descricao: "Genérico do ponto: matrícula, CPF, competência, código, horas, minutos, dias e nome",
			Campos: []Campo{num(CampoMatricula, 1, 10), num(CampoCPF, 11, 11), num(CampoCompetencia, 22, 6),
				txt(CampoCodigo, 28, 10), num(CampoHoras, 38, 4), num(CampoMinutos, 42, 2), num(CampoDias, 44, 3),
				txt(CampoNome, 47, 60)}},
	}
}

// Check validates l into v: 1 to 40 fields, each a known one with its
// position, size, alignment and padding, none overlapping another, one
// of them the code.
func (l *Layout) Check(v validate.Errors) {
	v.Check(utf8.RuneCountInString(l.Descricao) <= maxDescricao, "descricao", "no máximo 200 caracteres")
	if len(l.Campos) == 0 || len(l.Campos) > maxCampos {
		v.Check(false, "campos", "informe de 1 a 40 campos")
		return
	}
	codigo := false
	for i, c := range l.Campos {
		key := "campos[" + strconv.Itoa(i) + "]."
		v.Check(slices.Contains(Fontes, c.Campo), key+"campo", "use "+strings.Join(Fontes, ", "))
		v.Check(c.Inicio >= 1, key+"inicio", "posição a partir de 1")
		v.Check(c.Tamanho >= 1 && c.Tamanho <= maxTamanho, key+"tamanho", "de 1 a 100 caracteres")
		v.Check(c.Inicio+c.Tamanho-1 <= maxLinha, key+"tamanho", "a linha tem no máximo 1000 caracteres")
		v.Check(c.Alinhamento == "esquerda" || c.Alinhamento == "direita", key+"alinhamento", "use esquerda ou direita")
		v.Check(len(c.Preenchimento) == 1 && c.Preenchimento[0] >= ' ' && c.Preenchimento[0] <= '~',
			key+"preenchimento", "um caractere ASCII visível ou o espaço")
		if c.Campo == CampoFixo {
			v.Check(c.Valor != "" && utf8.RuneCountInString(c.Valor) <= c.Tamanho && printable(c.Valor),
				key+"valor", "texto de 1 caractere até o tamanho do campo")
		}
		codigo = codigo || c.Campo == CampoCodigo
		for j := range i {
			if o := l.Campos[j]; c.Inicio <= o.Inicio+o.Tamanho-1 && o.Inicio <= c.Inicio+c.Tamanho-1 {
				v.Check(false, key+"inicio", "sobrepõe o campo "+strconv.Itoa(j))
			}
		}
	}
	v.Check(codigo, "campos", "o layout precisa de um campo codigo")
}

func printable(s string) bool {
	for _, r := range s {
		if r < ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// CheckCodigos refuses (400 naming the layout's field) a mapping whose
// code does not fit the layout's codigo field, or whose characters a
// zero-padded numeric field cannot take.
func (l *Layout) CheckCodigos(mapa map[string]string) error {
	for _, c := range l.Campos {
		if c.Campo != CampoCodigo {
			continue
		}
		for _, ev := range Eventos() {
			cod := mapa[ev]
			if cod == "" {
				continue
			}
			if n := utf8.RuneCountInString(cod); n > c.Tamanho {
				return domainerr.InvalidField(CampoCodigo, fmt.Sprintf(
					"o código %q do evento %s tem %d caracteres; o campo codigo do layout %s tem %d",
					cod, ev, n, l.Nome, c.Tamanho))
			}
		}
	}
	return nil
}

// Linha renders lancamento x of competencia (AAAAMM) in l, or the 400
// naming the field its value does not fit.
func (l *Layout) Linha(x Lancamento, competencia string) (string, error) {
	width := 0
	for _, c := range l.Campos {
		width = max(width, c.Inicio+c.Tamanho-1)
	}
	line := []rune(strings.Repeat(" ", width))
	for _, c := range l.Campos {
		s, cut := valor(c, x, competencia)
		n := utf8.RuneCountInString(s)
		if n > c.Tamanho {
			if !cut {
				return "", domainerr.InvalidField(c.Campo, fmt.Sprintf(
					"o valor %q (%s, evento %s, funcionário %d) não cabe no campo %s do layout %s (%d caracteres)",
					s, c.Campo, x.Evento, x.Funcionario.FuncionarioID, c.Campo, l.Nome, c.Tamanho))
			}
			s, n = string([]rune(s)[:c.Tamanho]), c.Tamanho
		}
		pad := strings.Repeat(c.Preenchimento, c.Tamanho-n)
		if c.Alinhamento == "direita" {
			s = pad + s
		} else {
			s += pad
		}
		copy(line[c.Inicio-1:], []rune(s))
	}
	return string(line), nil
}

// valor is field c of x, and whether it may be cut to the field's size
// (a name may, a number or a code never).
func valor(c Campo, x Lancamento, competencia string) (string, bool) {
	dias := 0
	if x.Dias != nil {
		dias = *x.Dias
	}
	// An event counted in days only carries them as its quantity.
	quantidade, unidade := x.Minutos, 60
	if x.EmDias {
		quantidade, unidade = dias, 1
	}
	switch c.Campo {
	case CampoMatricula:
		return x.Funcionario.Matricula, false
	case CampoCPF:
		return Digitos(x.Funcionario.CPF), false
	case CampoNome:
		return x.Funcionario.Nome, true
	case CampoCompetencia:
		return competencia, false
	case CampoCodigo:
		return x.Codigo, false
	case CampoHoras:
		return strconv.Itoa(quantidade / unidade), false
	case CampoMinutos:
		return fmt.Sprintf("%02d", quantidade%unidade), false
	case CampoCentesimos:
		return strconv.Itoa((quantidade*100*60/unidade + 30) / 60), false
	case CampoDias:
		return strconv.Itoa(dias), false
	}
	return c.Valor, false
}

// Digitos keeps the digits of s (a CPF as the employee service masks it).
func Digitos(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func sortLayouts(ls []Layout) {
	slices.SortFunc(ls, func(a, b Layout) int { return strings.Compare(a.Nome, b.Nome) })
}
