package empresas

// Date formats of the answers.
const (
	// dateBR is how dataAbertura is written, in and out.
	dateBR = "02/01/2006"
	// isoMillis is the contract's ISO 8601 UTC timestamp with milliseconds.
	isoMillis = "2006-01-02T15:04:05.000Z"
)

// savedEmpresa is the contract's savedEmpresa, field by field: the only
// answer that carries the password (as its bcrypt hash), because the
// contract says so. nome is stored but, as in the contract, not echoed.
// endereco and fluxoCaixa are null: no route sets them yet.
type savedEmpresa struct {
	AssinaturaStatus  *string `json:"assinaturaStatus"`
	CNPJ              string  `json:"cnpj"`
	DataAbertura      string  `json:"dataAbertura"`
	Email             string  `json:"email"`
	Endereco          *string `json:"endereco"`
	FluxoCaixa        *string `json:"fluxoCaixa"`
	ID                int64   `json:"id"`
	InvoiceID         string  `json:"invoiceId"`
	NomeDoPlano       string  `json:"nomeDoPlano"`
	Password          string  `json:"password"`
	PrecoID           string  `json:"precoId"`
	RazaoSocial       string  `json:"razaoSocial"`
	Role              string  `json:"role"`
	BillingCustomerID string  `json:"billingCustomerId"`
}

func newSavedEmpresa(e Empresa) savedEmpresa {
	return savedEmpresa{
		AssinaturaStatus:  e.AssinaturaStatus,
		CNPJ:              e.CNPJ,
		DataAbertura:      e.DataAbertura.Format(dateBR),
		Email:             e.Email,
		ID:                e.ID,
		InvoiceID:         e.InvoiceID,
		NomeDoPlano:       e.NomeDoPlano,
		Password:          e.PasswordHash,
		PrecoID:           e.PrecoID,
		RazaoSocial:       e.RazaoSocial,
		Role:              e.Role,
		BillingCustomerID: e.BillingCustomerID,
	}
}

// meView is what GET /empresas/me shows the company: savedEmpresa
// without the password hash (it never leaves the service again), plus
// nome.
type meView struct {
	AssinaturaStatus  *string `json:"assinaturaStatus"`
	CNPJ              string  `json:"cnpj"`
	DataAbertura      string  `json:"dataAbertura"`
	Email             string  `json:"email"`
	Endereco          *string `json:"endereco"`
	FluxoCaixa        *string `json:"fluxoCaixa"`
	ID                int64   `json:"id"`
	InvoiceID         string  `json:"invoiceId"`
	Nome              string  `json:"nome"`
	NomeDoPlano       string  `json:"nomeDoPlano"`
	PrecoID           string  `json:"precoId"`
	RazaoSocial       string  `json:"razaoSocial"`
	Role              string  `json:"role"`
	BillingCustomerID string  `json:"billingCustomerId"`
}

func newMeView(e Empresa) meView {
	s := newSavedEmpresa(e)
	return meView{
		AssinaturaStatus: s.AssinaturaStatus, CNPJ: s.CNPJ, DataAbertura: s.DataAbertura,
		Email: s.Email, ID: s.ID, InvoiceID: s.InvoiceID, Nome: e.Nome, NomeDoPlano: s.NomeDoPlano,
		PrecoID: s.PrecoID, RazaoSocial: s.RazaoSocial, Role: s.Role, BillingCustomerID: s.BillingCustomerID,
	}
}

// companyView is the internal API's company view (docs/internal-api.md).
type companyView struct {
	ID               int64   `json:"id"`
	Email            string  `json:"email"`
	Nome             string  `json:"nome"`
	RazaoSocial      string  `json:"razaoSocial"`
	CNPJ             string  `json:"cnpj"`
	Role             string  `json:"role"`
	NomeDoPlano      string  `json:"nomeDoPlano"`
	AssinaturaStatus *string `json:"assinaturaStatus"`
	Bloqueada        bool    `json:"bloqueada"`
}

func newCompanyView(e Empresa) companyView {
	return companyView{
		ID: e.ID, Email: e.Email, Nome: e.Nome, RazaoSocial: e.RazaoSocial, CNPJ: e.CNPJ,
		Role: e.Role, NomeDoPlano: e.NomeDoPlano, AssinaturaStatus: e.AssinaturaStatus, Bloqueada: e.Bloqueada,
	}
}

// adminView is one company in the admin listing: the company view plus
// what support needs to find it in Stripe.
type adminView struct {
	companyView
	BillingCustomerID string `json:"billingCustomerId"`
	SubscriptionID    string `json:"subscriptionId"`
	PrecoID           string `json:"precoId"`
	CriadaEm          string `json:"criadaEm"`
}

func newAdminView(e Empresa) adminView {
	return adminView{
		companyView:       newCompanyView(e),
		BillingCustomerID: e.BillingCustomerID,
		SubscriptionID:    e.SubscriptionID,
		PrecoID:           e.PrecoID,
		CriadaEm:          e.CriadaEm.UTC().Format(isoMillis),
	}
}
