package funcionario

import "context"

// Revoker ends every session of an employee (auth's internal API, see
// package clients/auth).
type Revoker interface {
	RevokeFuncionario(ctx context.Context, funcionarioID int64) error
}
