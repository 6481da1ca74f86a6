package folha

import "testing"

// BenchmarkLancamentos lists the events of 2,000 employees under the
// default codes, as the export does for a 2,000-employee company.
func BenchmarkLancamentos(b *testing.B) {
	mapa := Padrao()
	totais := make([]TotaisFuncionario, 2000)
	for i := range totais {
		totais[i] = TotaisFuncionario{FuncionarioID: int64(i + 1), Extras50: 90, Atrasos: 7, FaltasDias: 1,
			FaltasMinutos: 480, Afastamentos: map[string]int{}}
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range totais {
			if len(totais[i].Lancamentos(mapa)) != 3 {
				b.Fatal("expected three events")
			}
		}
	}
}
