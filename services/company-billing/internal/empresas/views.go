package empresas

import (
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/company-billing/internalapi"
)

// Date formats of the answers.
const (
	// dateBR is how dataAbertura is written, in and out.
	dateBR = "02/01/2006"
)

// savedEmpresa is the contract's savedEmpresa, field by field: the only
// answer that carries the password (as its bcrypt hash), because the
// contract says so. nome is stored but, as in the contract, not echoed.
type savedEmpresa struct {
	empresaFields
	Password string `json:"password"`
}

// empresaFields are what savedEmpresa and meView both show. endereco and
// fluxoCaixa are null: no route sets them yet.
type empresaFields struct {
	AssinaturaStatus  *string `json:"assinaturaStatus"`
	CNPJ              string  `json:"cnpj"`
	DataAbertura      string  `json:"dataAbertura"`
	Email             string  `json:"email"`
	Endereco          *string `json:"endereco"`
	FluxoCaixa        *string `json:"fluxoCaixa"`
	ID                int64   `json:"id"`
	InvoiceID         string  `json:"invoiceId"`
	NomeDoPlano       string  `json:"nomeDoPlano"`
	PrecoID           string  `json:"precoId"`
	RazaoSocial       string  `json:"razaoSocial"`
	Role              string  `json:"role"`
	BillingCustomerID string  `json:"billingCustomerId"`
	FusoHorario       string  `json:"fusoHorario"`
	// Responsavel is null until the company names one.
	Responsavel *Responsavel `json:"responsavel"`
}

func newEmpresaFields(e Empresa) empresaFields {
	return empresaFields{
		AssinaturaStatus:  e.AssinaturaStatus,
		CNPJ:              e.CNPJ,
		DataAbertura:      e.DataAbertura.Format(dateBR),
		Email:             e.Email,
		ID:                e.ID,
		InvoiceID:         e.InvoiceID,
		NomeDoPlano:       e.NomeDoPlano,
		PrecoID:           e.PrecoID,
		RazaoSocial:       e.RazaoSocial,
		Role:              e.Role,
		BillingCustomerID: e.BillingCustomerID,
		FusoHorario:       e.FusoHorario,
		Responsavel:       e.Responsavel,
	}
}

func newSavedEmpresa(e Empresa) savedEmpresa {
	return savedEmpresa{empresaFields: newEmpresaFields(e), Password: e.PasswordHash}
}

// meView is what GET /empresas/me shows the company: savedEmpresa
// without the password hash (it never leaves the service again), plus
// nome.
type meView struct {
	empresaFields
	Nome string `json:"nome"`
}

func newMeView(e Empresa) meView { return meView{empresaFields: newEmpresaFields(e), Nome: e.Nome} }

// newCompanyView is the internal API's company view (docs/internal-api.md).
func newCompanyView(e Empresa) internalapi.Empresa {
	return internalapi.Empresa{
		ID: e.ID, Email: e.Email, Nome: e.Nome, RazaoSocial: e.RazaoSocial, CNPJ: e.CNPJ,
		Role: e.Role, NomeDoPlano: e.NomeDoPlano, AssinaturaStatus: e.AssinaturaStatus, Bloqueada: e.Bloqueada,
		FusoHorario: e.FusoHorario, Responsavel: e.Responsavel,
	}
}

// adminView is one company in the admin listing: the company view plus
// what support needs to find it in Stripe.
type adminView struct {
	internalapi.Empresa
	BillingCustomerID string `json:"billingCustomerId"`
	SubscriptionID    string `json:"subscriptionId"`
	PrecoID           string `json:"precoId"`
	CriadaEm          string `json:"criadaEm"`
}

func newAdminView(e Empresa) adminView {
	return adminView{
		Empresa:           newCompanyView(e),
		BillingCustomerID: e.BillingCustomerID,
		SubscriptionID:    e.SubscriptionID,
		PrecoID:           e.PrecoID,
		CriadaEm:          clock.FormatISO(e.CriadaEm),
	}
}
