package core

// The REP operations the other services tell timekeeping of (Anexo IX item
// 6): the employer's identification (AFD type 2) and the employees
// included, changed and excluded (type 5).
const (
	EventoEmpresaIncluida      = "empresa.incluida"
	EventoEmpresaAlterada      = "empresa.alterada"
	EventoFuncionarioIncluido  = "funcionario.incluido"
	EventoFuncionarioAlterado  = "funcionario.alterado"
	EventoFuncionarioExcluido  = "funcionario.excluido"
	OperacaoInclusao           = "I"
	OperacaoAlteracao          = "A"
	OperacaoExclusao           = "E"
	ResponsavelNaoIdentificado = ResponsavelSistema
)

// The events of establishments (Anexo IX item 6: one NSR sequence each).
const (
	// EventoFuncionarioTransferido moves an employee between
	// establishments: type 5 E in the old one's chain, I in the new one's.
	EventoFuncionarioTransferido = "funcionario.transferido"
	// An establishment created or changed: type 2 in its own chain.
	EventoEstabelecimentoIncluido = "estabelecimento.incluido"
	EventoEstabelecimentoAlterado = "estabelecimento.alterado"
)

// EventoConhecido reports whether tipo is one of the events above.
func EventoConhecido(tipo string) bool {
	switch tipo {
	case EventoEmpresaIncluida, EventoEmpresaAlterada, EventoFuncionarioIncluido, EventoFuncionarioAlterado,
		EventoFuncionarioExcluido, EventoFuncionarioTransferido, EventoEstabelecimentoIncluido,
		EventoEstabelecimentoAlterado:
		return true
	}
	return false
}

// UltimoREP is the REP's last type-5 record of an employee.
type UltimoREP struct {
	Conhecido           bool // the REP has a record of him
	Operacao, CPF, Nome string
}

// OperacaoDeEvento is the type-5 record an employee event writes, given
// the REP's last record of him (cpf as CPF12), or "" when the REP already
// says it:
//
//   - included or changed: "I" when the REP does not know him or last
//     excluded him, else "A" when his CPF or name differ, else nothing;
//   - excluded: "E" when the REP knows him and has not excluded him yet.
func OperacaoDeEvento(tipo string, ultimo UltimoREP, cpf, nome string) string {
	ativo := ultimo.Conhecido && ultimo.Operacao != OperacaoExclusao
	switch tipo {
	case EventoFuncionarioIncluido, EventoFuncionarioAlterado:
		if !ativo {
			return OperacaoInclusao
		}
		return OperacaoREP(true, ultimo.CPF, ultimo.Nome, cpf, nome)
	case EventoFuncionarioExcluido:
		if ativo {
			return OperacaoExclusao
		}
	}
	return ""
}
