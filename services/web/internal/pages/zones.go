package pages

// zone is a time zone the forms offer.
type zone struct{ ID, Nome string }

// zones are Brazil's IANA time zones, west to east by offset; the API
// accepts any IANA zone, these are the ones a Brazilian company needs.
var zones = []zone{
	{"America/Noronha", "Fernando de Noronha (UTC−2)"},
	{"America/Sao_Paulo", "Brasília — Sudeste, Sul, GO, DF (UTC−3)"},
	{"America/Bahia", "Bahia (UTC−3)"},
	{"America/Fortaleza", "Fortaleza — CE, RN, PB, PI, MA (UTC−3)"},
	{"America/Recife", "Recife — PE (UTC−3)"},
	{"America/Maceio", "Maceió — AL, SE (UTC−3)"},
	{"America/Belem", "Belém — PA leste, AP (UTC−3)"},
	{"America/Araguaina", "Araguaína — TO (UTC−3)"},
	{"America/Manaus", "Manaus — AM (UTC−4)"},
	{"America/Cuiaba", "Cuiabá — MT (UTC−4)"},
	{"America/Campo_Grande", "Campo Grande — MS (UTC−4)"},
	{"America/Porto_Velho", "Porto Velho — RO (UTC−4)"},
	{"America/Boa_Vista", "Boa Vista — RR (UTC−4)"},
	{"America/Rio_Branco", "Rio Branco — AC (UTC−5)"},
}
