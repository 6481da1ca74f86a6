// Package internalapi is the media service's internal API
// (docs/internal-api.md, media): the documents other services keep in
// MinIO through media, with their wire types and a client.
package internalapi

// Documento is a stored document: its bytes (base64 in JSON) and its
// type, one of the DocumentoTipos.
type Documento struct {
	ContentType string `json:"contentType"`
	Dados       []byte `json:"dados"`
}

// MaxDocumentoBytes bounds a document: base64 in a JSON body, it stays
// within media's body limit (5 MiB + 64 KiB).
const MaxDocumentoBytes = 3 << 20

// DocumentoTipos are the documents' types media accepts, recognised by
// their bytes.
var DocumentoTipos = map[string]bool{"application/pdf": true, "image/jpeg": true, "image/png": true}

// DocumentoPath is the route of document key chave, a leave's
// "afastamentos/{empresaId}/{afastamentoId}/{versao}".
func DocumentoPath(chave string) string { return "/internal/documentos/" + chave }
