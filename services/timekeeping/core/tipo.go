package core

// Tipo values: the four punches of a workday, then again entrada for a
// split shift; falta is an absence marked by the company.
const (
	TipoEntrada = "entrada"
	TipoAlmoco  = "almoço"
	TipoRetorno = "retorno almoço"
	TipoSaida   = "saída"
	TipoFalta   = "falta"
)

// sequence is the workday's punch order; after saída it starts over with
// entrada (a split shift).
var sequence = [...]string{TipoEntrada, TipoAlmoco, TipoRetorno, TipoSaida}

// NextTipo is the tipo of a punch preceded by done punches on the same
// workday.
func NextTipo(done int) string { return sequence[done%len(sequence)] }

// TipoAfter is the tipo of the punch that follows a punch of tipo last on
// the same workday ("" when it is the workday's first). Every punch took
// its place in the cycle, so this is NextTipo of their count.
func TipoAfter(last string) string {
	for i, t := range sequence {
		if t == last {
			return NextTipo(i + 1)
		}
	}
	return TipoEntrada
}

// NextNSR is the NSR after last: the company's sequence over every record
// type is gapless and starts at 1.
func NextNSR(last int64) int64 { return last + 1 }

// OperacaoREP is the AFD type-5 record a punch needs before it: "I"
// (inclusion) when the REP does not know the employee yet (known false),
// "A" (alteration) when his CPF or name differ from the REP's last record
// of him (cpf, nome), "" when none.
func OperacaoREP(known bool, cpf, nome, novoCPF, novoNome string) string {
	switch {
	case !known:
		return "I"
	case cpf != novoCPF || nome != novoNome:
		return "A"
	}
	return ""
}
