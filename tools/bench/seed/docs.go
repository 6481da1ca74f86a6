package seed

import (
	"fmt"
	"math/rand/v2"
)

// cpf makes the n-th CPF of a run, with correct check digits, written
// ###.###.###-## as the employee service stores it. The nine base digits
// are n offset by salt, so CPFs are unique within a run (n < 10^8).
func cpf(n int, salt int) string {
	base := fmt.Sprintf("%09d", (100_000_000+salt*1_000_003+n)%1_000_000_000)
	d := []byte(base)
	d = append(d, checkDigit(d, cpfWeights(10)))
	d = append(d, checkDigit(d, cpfWeights(11)))
	s := string(d)
	return s[0:3] + "." + s[3:6] + "." + s[6:9] + "-" + s[9:11]
}

func cpfWeights(first int) []int {
	w := make([]int, first-1)
	for i := range w {
		w[i] = first - i
	}
	return w
}

// cnpj makes the n-th CNPJ of a run (##.###.###/0001-##).
func cnpj(n int, salt int) string {
	base := fmt.Sprintf("%08d0001", (10_000_000+salt*7_919+n)%100_000_000)
	d := []byte(base)
	d = append(d, checkDigit(d, []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}))
	d = append(d, checkDigit(d, []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}))
	s := string(d)
	return s[0:2] + "." + s[2:5] + "." + s[5:8] + "/" + s[8:12] + "-" + s[12:14]
}

// checkDigit is the mod-11 digit shared by CPF and CNPJ.
func checkDigit(digits []byte, weights []int) byte {
	sum := 0
	for i, w := range weights {
		sum += int(digits[i]-'0') * w
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

var (
	firstNames = []string{"Ana", "Bruno", "Carla", "Diego", "Elisa", "Fábio", "Gabriela", "Heitor", "Isabela",
		"João", "Karina", "Lucas", "Mariana", "Nicolas", "Olívia", "Paulo", "Rafaela", "Samuel", "Tatiane",
		"Vinícius", "Yasmin", "Wagner", "Beatriz", "Caio", "Débora", "Eduardo", "Fernanda", "Gustavo"}
	lastNames = []string{"Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira",
		"Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes",
		"Vieira", "Barbosa", "Rocha", "Dias", "Nascimento", "Andrade", "Moreira", "Nunes", "Marques", "Machado"}
	cargos = []string{"Auxiliar administrativo", "Operador de produção", "Vendedor", "Analista", "Supervisor",
		"Motorista", "Estoquista", "Atendente", "Técnico de manutenção", "Assistente financeiro"}
)

func fullName(r *rand.Rand) string {
	return firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))] + " " +
		lastNames[r.IntN(len(lastNames))]
}
