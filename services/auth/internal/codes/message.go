package codes

import (
	"fmt"
	"strings"
	"time"
)

// Subject of the code e-mail.
const Subject = "Seu código de acesso ao ponto"

// Body is the pt-BR text of the code e-mail.
func Body(nome, code string, ttl time.Duration) string {
	greeting := "Olá!"
	if n := strings.TrimSpace(nome); n != "" {
		greeting = "Olá, " + n + "!"
	}
	return fmt.Sprintf(`%s

Seu código de acesso ao ponto é:

    %s

Ele vale por %s e só pode ser usado uma vez.

Se você não pediu este código, ignore este e-mail: ninguém consegue entrar na sua conta sem ele.

Não responda a esta mensagem.
`, greeting, code, TTLText(ttl))
}
