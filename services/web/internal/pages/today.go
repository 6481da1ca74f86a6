package pages

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// hoje is GET /registropontos/hoje as the Today page reads it.
type hoje struct {
	Data         string         `json:"data"`
	Agora        string         `json:"agora"`
	FusoHorario  string         `json:"fusoHorario"`
	Contagens    map[string]int `json:"contagens"`
	Funcionarios []struct {
		ID              int64    `json:"id"`
		Nome            string   `json:"nome"`
		Departamento    string   `json:"departamento"`
		Situacao        string   `json:"situacao"`
		EntradaPrevista *string  `json:"entradaPrevista"`
		Marcacoes       []string `json:"marcacoes"`
	} `json:"funcionarios"`
	Pendencias struct {
		Ajustes       int           `json:"ajustes"`
		Solicitacoes  int           `json:"solicitacoes"`
		PeriodoAberto string        `json:"periodoAberto"`
		DiasImpares   []diaPendente `json:"diasImpares"`
		Alertas       []diaPendente `json:"alertas"`
		MesFechado    *string       `json:"mesFechado"`
		SemCiencia    []struct {
			ID   int64  `json:"id"`
			Nome string `json:"nome"`
		} `json:"semCiencia"`
	} `json:"pendencias"`
	Saude struct {
		Cadeia struct {
			VerificadoEm *string `json:"verificadoEm"`
			Integra      bool    `json:"integra"`
			NSRQuebra    *int64  `json:"nsrQuebra"`
		} `json:"cadeia"`
		CertificadoDiasRestantes *int `json:"certificadoDiasRestantes"`
		EventosIndisponibilidade int  `json:"eventosIndisponibilidade"`
	} `json:"saude"`
}

type diaPendente struct {
	FuncionarioID int64    `json:"funcionarioId"`
	Nome          string   `json:"nome"`
	Data          string   `json:"data"`
	Marcacoes     int      `json:"marcacoes"`
	Alertas       []string `json:"alertas"`
}

// situacao is one situation of the day: its label and its people.
type situacao struct {
	Chave, Rotulo string
	Pessoas       []pessoaHoje
}

type pessoaHoje struct {
	ID                 int64
	Nome, Departamento string
	Entrada, Marcacoes string
}

// situacoes are the API's situations with their pt-BR labels, in order.
var situacoes = []option{
	{"trabalhando", "Trabalhando agora"},
	{"intervalo", "Em intervalo"},
	{"encerrado", "Jornada encerrada"},
	{"aguardando", "Ainda não chegou (dentro da tolerância)"},
	{"atrasado", "Atrasado"},
	{"ausente", "Ausente"},
	{"afastado", "Afastado ou abonado"},
	{"folga", "Folga"},
}

// alertLabels name the API's alerts.
var alertLabels = map[string]string{
	"intervalo_insuficiente":  "intervalo menor que o mínimo (art. 71)",
	"descanso_insuficiente":   "descanso entre jornadas menor que 11 h (art. 66)",
	"extras_acima_do_limite":  "mais de 2 h extras (art. 59)",
	"fora_do_local":           "marcação fora do local de trabalho",
	"marcacao_em_afastamento": "marcação durante afastamento (tratar)",
}

// todayView is the Today page.
type todayView struct {
	H             hoje
	Situacoes     []situacao
	Departamento  string
	Departamentos []record
	// Estabelecimento is the establishment filter as asked ("" for all);
	// Estabelecimentos the company's, the principal first.
	Estabelecimento  string
	Estabelecimentos []record
}

// companyToday is the console's first page,
// GET /empresa/?departamento=&estabelecimento=: the company's day at a
// glance from GET /registropontos/hoje.
func (p *Pages) companyToday(c *fiber.Ctx) error {
	dep := strings.TrimSpace(c.Query("departamento"))
	if utf8.RuneCountInString(dep) > 100 {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "departamento inválido"})
	}
	est := strings.TrimSpace(c.Query("estabelecimento"))
	if id, err := strconv.ParseInt(est, 10, 64); est != "" && (err != nil || id < 0) {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "estabelecimento inválido"})
	}
	q := url.Values{}
	if dep != "" {
		q.Set("departamento", dep)
	}
	if est != "" {
		q.Set("estabelecimento", est)
	}
	path := "/registropontos/hoje"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var h hoje
	if err := p.get(c, path, &h); err != nil {
		return p.fail(c, err)
	}
	deps, err := p.all(c, "/departamentos")
	if err != nil {
		return p.fail(c, err)
	}
	var ests []record
	if err := p.get(c, establishmentsPath, &ests); err != nil {
		return p.fail(c, err)
	}
	return p.render(c, http.StatusOK, "empresa.html", view{Title: "Hoje", Nav: "painel",
		Data: todayView{H: h, Situacoes: group(h), Departamento: dep, Departamentos: deps,
			Estabelecimento: est, Estabelecimentos: ests}})
}

// group lists the people by situation, in the order of situacoes.
func group(h hoje) []situacao {
	out := make([]situacao, len(situacoes))
	at := map[string]int{}
	for i, s := range situacoes {
		out[i] = situacao{Chave: s.Valor, Rotulo: s.Rotulo}
		at[s.Valor] = i
	}
	for _, f := range h.Funcionarios {
		i, ok := at[f.Situacao]
		if !ok {
			continue
		}
		ps := pessoaHoje{ID: f.ID, Nome: f.Nome, Departamento: f.Departamento, Marcacoes: strings.Join(f.Marcacoes, ", ")}
		if f.EntradaPrevista != nil {
			ps.Entrada = *f.EntradaPrevista
		}
		out[i].Pessoas = append(out[i].Pessoas, ps)
	}
	return out
}

// alertas spells a day's alerts in pt-BR.
func alertas(codes []string) string {
	out := make([]string, len(codes))
	for i, c := range codes {
		if l, ok := alertLabels[c]; ok {
			out[i] = l
		} else {
			out[i] = c
		}
	}
	return strings.Join(out, "; ")
}
