// Package atestado serves the REP-P's technical certificate (Atestado
// Técnico e Termo de Responsabilidade, Portaria MTP 671/2021 art. 89 and
// Anexo VII), which covers both programs ponto is: the REP-P and the
// treatment program (PTRP, whose AEJ it writes), as Anexo VII's model
// allows ("o equipamento e/ou programa"): GET /registropontos/atestado-tecnico, a PDF filled from
// configuration (the developer, its responsible people, the program's
// name, version and INPI registration). ponto does not sign it: art. 89
// §2 wants the qualified signatures of the natural persons named in it,
// who sign the downloaded PDF with their own ICP-Brasil certificates.
package atestado

import (
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/documento"
)

// Titulo is the document's title, as Anexo VII names it.
const Titulo = "Atestado Técnico e Termo de Responsabilidade"

// Config is what the certificate states besides REP_INPI and
// REP_DESENVOLVEDOR (the developer's CNPJ or CPF).
type Config struct {
	// Desenvolvedor is the developer's legal name (razão social or name).
	Desenvolvedor string `conf:"env:ATESTADO_DESENVOLVEDOR,help:legal name of the REP-P developer, in the technical certificate"`
	Programa      string `conf:"env:ATESTADO_PROGRAMA,default:ponto,help:name of the program in the technical certificate"`
	// Versao is the program's version; empty: the build's.
	Versao       string `conf:"env:ATESTADO_VERSAO,help:version of the program in the technical certificate (empty: the build)"`
	TecnicoNome  string `conf:"env:ATESTADO_TECNICO_NOME,help:technical responsible person's name"`
	TecnicoCPF   string `conf:"env:ATESTADO_TECNICO_CPF,help:technical responsible person's CPF"`
	TecnicoCargo string `conf:"env:ATESTADO_TECNICO_CARGO,help:technical responsible person's position"`
	LegalNome    string `conf:"env:ATESTADO_LEGAL_NOME,help:developer's legal representative's name"`
	LegalCPF     string `conf:"env:ATESTADO_LEGAL_CPF,help:developer's legal representative's CPF"`
	LegalCargo   string `conf:"env:ATESTADO_LEGAL_CARGO,help:developer's legal representative's position"`
	Local        string `conf:"env:ATESTADO_LOCAL,help:city where the certificate is signed"`
}

// Validate refuses a CPF that is given but not valid.
func (c Config) Validate() error {
	for name, cpf := range map[string]string{"ATESTADO_TECNICO_CPF": c.TecnicoCPF, "ATESTADO_LEGAL_CPF": c.LegalCPF} {
		if cpf != "" && !brdocs.ValidCPF(cpf) {
			return fmt.Errorf("%s %q: want a valid CPF", name, cpf)
		}
	}
	return nil
}

// Handlers serve the certificate.
type Handlers struct {
	cfg   Config
	rep   core.REP
	clock *clock.Clock
}

// NewHandlers returns the handlers; build is the program's version when
// cfg names none.
func NewHandlers(cfg Config, rep core.REP, clk *clock.Clock, build string) *Handlers {
	if cfg.Versao == "" {
		cfg.Versao = build
	}
	return &Handlers{cfg: cfg, rep: rep, clock: clk}
}

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/atestado-tecnico", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.get)
}

// get is the route: 200 application/pdf, unsigned on purpose.
func (h *Handlers) get(c *fiber.Ctx) error {
	b, err := PDF(h.cfg, h.rep, h.clock.Now())
	if err != nil {
		return err
	}
	return documento.Send(c, b, "attachment", "atestado-tecnico-rep-p.pdf")
}

// PDF renders the Anexo VII model with cfg and rep, dated now. Unset
// settings print as "não informado", so that a missing one shows.
func PDF(cfg Config, rep core.REP, now time.Time) ([]byte, error) {
	p := documento.New(Titulo, now, false)
	p.Text(fmt.Sprintf("Na qualidade de responsável técnico e de responsável legal da empresa %s (CNPJ/CPF nº %s), "+
		"os signatários abaixo, em atenção ao art. 89 da Portaria MTP nº 671/2021, atestam e declaram que o "+
		"programa identificado abaixo, como registrador eletrônico de ponto via programa (REP-P) e como programa "+
		"de tratamento de registro de ponto (PTRP), está em conformidade com a Portaria MTP nº 671/2021.",
		or(cfg.Desenvolvedor), or(rep.Desenvolvedor)))
	p.Section("Identificação")
	p.Field("Tipo do REP/PTRP", "REP-P e PTRP")
	p.Field("Nome do programa", or(cfg.Programa))
	p.Field("Versão", or(cfg.Versao))
	p.Field("Número de registro no INPI", or(rep.INPI))
	p.Text("Declaram ainda estar cientes das consequências legais, cíveis e criminais quanto à falsa declaração, " +
		"falso atestado e falsidade ideológica.")
	p.Field("Local e data", or(cfg.Local)+", "+now.Format("02/01/2006"))
	for _, s := range []struct{ titulo, nome, cpf, cargo string }{
		{"Responsável técnico", cfg.TecnicoNome, cfg.TecnicoCPF, cfg.TecnicoCargo},
		{"Responsável legal", cfg.LegalNome, cfg.LegalCPF, cfg.LegalCargo},
	} {
		p.Section(s.titulo)
		p.Field("Nome", or(s.nome))
		p.Field("CPF", or(documento.CPF(brdocs.Plain(s.cpf))))
		p.Field("Cargo", or(s.cargo))
		p.Field("Assinatura", "")
	}
	p.Text("Este documento deve ser assinado eletronicamente pelas pessoas físicas acima, com assinatura " +
		"eletrônica qualificada (certificado ICP-Brasil de cada uma), conforme o art. 89, § 2º, da Portaria " +
		"MTP nº 671/2021; o empregador o mantém para apresentação à Inspeção do Trabalho.")
	return p.Bytes()
}

func or(s string) string {
	if s == "" {
		return "não informado"
	}
	return s
}
