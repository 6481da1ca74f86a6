package comprovante

import (
	"fmt"
	"strconv"
	"time"

	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/documento"
)

// Titulo is the receipt's title, as Portaria 671 names it.
const Titulo = "Comprovante de Registro de Ponto do Trabalhador"

// coletores names the collector codes.
var coletores = map[string]string{
	core.ColetorMobile: "aplicativo mobile", core.ColetorBrowser: "navegador (browser)",
	core.ColetorDesktop: "aplicativo desktop", core.ColetorDevice: "dispositivo eletrônico",
	core.ColetorOutro: "outro dispositivo eletrônico",
}

// PDF renders the receipt of punch m of employee nome at company emp:
// the title, the employer (legal name and CNPJ), the work place, the REP-P's
// INPI number, the employee (name and CPF), the punch's date and time, its
// NSR and its SHA-256 hash, plus when it was recorded and how, and what
// x adds: the line about its digital signature and the QR code of its
// public check.
func PDF(m Marcacao, nome string, emp companybillingapi.Empresa, rep core.REP, x Extras) ([]byte, error) {
	zone := time.FixedZone("", m.OffsetMinutes*60)
	local := m.Horario.In(zone)
	p := documento.New(Titulo, m.Horario, false)
	p.Section("Empregador")
	p.Field("Razão social", emp.RazaoSocial)
	p.Field("CNPJ", cnpjOf(emp.CNPJ, m.Estabelecimento))
	if est := m.Estabelecimento; est.Nome != "" {
		p.Field("Estabelecimento", estabelecimento(est))
	}
	p.Field("Local de prestação do serviço", localTrabalho(m))
	p.Section("REP-P")
	p.Field("Número de registro no INPI", inpi(rep))
	p.Section("Trabalhador")
	p.Field("Nome", nome)
	p.Field("CPF", documento.CPF(m.CPF))
	p.Section("Marcação")
	p.Field("Data", local.Format("02/01/2006"))
	p.Field("Horário", local.Format("15:04")+" (UTC"+local.Format("-07:00")+")")
	p.Field("NSR", fmt.Sprintf("%09d", m.NSR))
	// To the minute, as the AFD's type-7 recording time (Anexo V item 6: DH
	// fields end in ":00"), so the receipt and the file read the same.
	gravada, modo := local, " (on-line)"
	if m.Gravacao != nil { // Anexo IX item 5: recorded off-line, sent later
		gravada, modo = m.Gravacao.In(zone), " (marcação off-line)"
	}
	p.Field("Gravada em", gravada.Format("02/01/2006 15:04")+" (UTC"+gravada.Format("-07:00")+")")
	p.Field("Coletor", coletores[m.Coletor]+modo)
	p.Field("Posição informada", m.Localizacao)
	p.Mono("Código hash (SHA-256)", m.Hash)
	p.Section("Assinatura")
	p.Text(x.Assinatura)
	if x.VerificacaoURL != "" {
		url := x.VerificacaoURL + m.Hash
		if err := p.QR(url, 35, "Verifique esta marcação, sem login: "+url); err != nil {
			return nil, err
		}
	}
	return p.Bytes()
}

// Extras are what the receipt prints besides the punch.
type Extras struct {
	// Assinatura says how the PDF is signed.
	Assinatura string
	// VerificacaoURL, when set, is the public check's URL up to the hash
	// (https://host/verificacao/): the QR code points there.
	VerificacaoURL string
}

// localTrabalho names the work place the punch was checked against: the
// nearest active place of the company, saying when the punch was outside
// its radius.
func localTrabalho(m Marcacao) string {
	if m.LocalNome == nil {
		return "não cadastrado"
	}
	s := *m.LocalNome
	if m.LocalEndereco != nil && *m.LocalEndereco != "" {
		s += " - " + *m.LocalEndereco
	}
	if m.Fora != nil && *m.Fora && m.Distancia != nil {
		s += " (marcação fora do raio do local, a " + strconv.Itoa(*m.Distancia) + " m)"
	}
	return s
}

func inpi(rep core.REP) string {
	if rep.INPI == "" {
		return "não informado"
	}
	return rep.INPI
}

// FileName is the receipt's download name.
func FileName(m Marcacao) string { return fmt.Sprintf("comprovante-%09d.pdf", m.NSR) }

// cnpjOf is the employer's CNPJ as it applies to the punch's
// establishment: its own when it has one, else the company's (a CAEPF or
// CNO establishment).
func cnpjOf(empresa string, est Estabelecimento) string {
	if est.Tipo == "cnpj" && len(est.Numero) == 14 {
		d := est.Numero
		return d[0:2] + "." + d[2:5] + "." + d[5:8] + "/" + d[8:12] + "-" + d[12:14]
	}
	return empresa
}

// estabelecimento names the punch's establishment, with its CAEPF or CNO
// when it is identified by one.
func estabelecimento(est Estabelecimento) string {
	switch est.Tipo {
	case "caepf":
		return est.Nome + " (CAEPF " + est.Numero + ")"
	case "cno":
		return est.Nome + " (CNO " + est.Numero + ")"
	}
	return est.Nome
}
