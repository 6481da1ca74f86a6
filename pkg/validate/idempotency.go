package validate

// IdempotencyKeyHeader is the header a client names a retried request by
// (api/openapi.yaml, parameter IdempotencyKey).
const IdempotencyKeyHeader = "Idempotency-Key"

// maxIdempotencyKey bounds an Idempotency-Key.
const maxIdempotencyKey = 255

// IdempotencyKey reports whether k is a valid Idempotency-Key: 1 to 255
// visible ASCII characters (the document's pattern ^[!-~]+$). The header is
// optional; callers treat an empty one as absent before asking.
func IdempotencyKey(k string) bool {
	if k == "" || len(k) > maxIdempotencyKey {
		return false
	}
	for i := range len(k) {
		if k[i] < '!' || k[i] > '~' {
			return false
		}
	}
	return true
}

// IdempotencyKeyMessage is the pt-BR field message for a refused key.
const IdempotencyKeyMessage = "deve ter de 1 a 255 caracteres ASCII visíveis"
