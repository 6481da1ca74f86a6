package bench

import "testing"

// The export check reads past the preamble, counts employees by CPF and
// refuses a wrong header, a short line, non-integer minutes or more
// employees than the company has.
func TestCheckExport(t *testing.T) {
	good := "# PROVISÓRIO: o período de 2026-11-01 a 2026-11-30 não está fechado\n" +
		"# PENDENTE: solicitação de ajuste 7 do funcionário 3 em 2026-11-04\n" +
		exportHeader + "\n" +
		"11111111111,Ana,extras50,150,90,1:30,\n" +
		"11111111111,Ana,faltas,160,480,8:00,1\n" +
		"22222222222,\"Silva, Bruno\",atrasos,170,7,0:07,\n"
	if n, err := checkExport([]byte(good), 2); err != nil || n != 2 {
		t.Fatalf("good export: %d employees, %v", n, err)
	}
	if n, err := checkExport([]byte(exportHeader+"\n"), 5); err != nil || n != 0 {
		t.Fatalf("export without events: %d, %v", n, err)
	}
	for name, body := range map[string]string{
		"preamble only":  "# PROVISÓRIO",
		"wrong header":   "cpf,nome\n1,Ana\n",
		"short line":     exportHeader + "\n111,Ana,extras50,150,90\n",
		"minutes":        exportHeader + "\n111,Ana,extras50,150,1:30,1:30,\n",
		"more employees": good,
	} {
		staff := 5
		if name == "more employees" {
			staff = 1
		}
		if _, err := checkExport([]byte(body), staff); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
