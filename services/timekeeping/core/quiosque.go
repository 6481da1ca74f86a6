package core

// Kinds of shared collector (quiosque) a company registers, each with the
// AFD's collector code Anexo V gives it (Portaria 671, Anexo V, type-7
// record, field 6: "01" aplicativo mobile, "02" browser, "03" aplicativo
// desktop, "04" dispositivo eletrônico, "05" outro dispositivo).
var coletorDoDispositivo = map[string]string{
	"aplicativo_movel":       ColetorMobile,
	"navegador":              ColetorBrowser,
	"aplicativo_desktop":     ColetorDesktop,
	"dispositivo_eletronico": ColetorDevice,
	"outro":                  ColetorOutro,
}

// ColetorDoQuiosque is the collector code of a kiosk of kind dispositivo;
// false for an unknown kind.
func ColetorDoQuiosque(dispositivo string) (string, bool) {
	c, ok := coletorDoDispositivo[dispositivo]
	return c, ok
}
