package foto

import (
	"net/url"
	"strconv"
)

// Where a photo lives.
//
// Objects are content-addressed under the company's prefix:
//
//	empresas/{empresaId}/funcionarios/{funcionarioId}/{sha256}.jpg
//	empresas/{empresaId}/funcionarios/{funcionarioId}/{sha256}_thumb.jpg
//
// where sha256 is the hex digest of the stored (re-encoded) photo. The
// employee's fotoProfile is the public URL of the photo with that digest
// as a version:
//
//	/funcionarios/{funcionarioId}/foto?v={sha256}
//
// so the current photo is found from the employee record (which every
// request reads anyway, to check the caller's company) without listing
// the bucket, and a client that caches by URL sees a new URL when the
// photo changes.

// version is the digest that names a photo's objects.
type version string

func photoKey(empresaID, funcionarioID int64, v version) string {
	return prefix(empresaID, funcionarioID) + string(v) + ".jpg"
}

func thumbKey(empresaID, funcionarioID int64, v version) string {
	return prefix(empresaID, funcionarioID) + string(v) + "_thumb.jpg"
}

func prefix(empresaID, funcionarioID int64) string {
	return "empresas/" + strconv.FormatInt(empresaID, 10) +
		"/funcionarios/" + strconv.FormatInt(funcionarioID, 10) + "/"
}

// photoURL is the fotoProfile value for version v of the employee's photo.
func photoURL(funcionarioID int64, v version) string {
	return photoPath(funcionarioID) + "?v=" + string(v)
}

// thumbURL is the thumbnail of the same version.
func thumbURL(funcionarioID int64, v version) string {
	return photoPath(funcionarioID) + "?tamanho=thumb&v=" + string(v)
}

func photoPath(funcionarioID int64) string {
	return "/funcionarios/" + strconv.FormatInt(funcionarioID, 10) + "/foto"
}

// currentVersion reads the version out of the employee's fotoProfile. It
// is false when there is no photo, or when fotoProfile is not a URL this
// service wrote for this employee (then there is nothing of ours to serve
// or to remove).
func currentVersion(funcionarioID int64, fotoProfile *string) (version, bool) {
	if fotoProfile == nil {
		return "", false
	}
	u, err := url.Parse(*fotoProfile)
	if err != nil || u.Path != photoPath(funcionarioID) {
		return "", false
	}
	v := u.Query().Get("v")
	if !isDigest(v) {
		return "", false
	}
	return version(v), true
}

// isDigest accepts a lowercase hex SHA-256, the only thing that may
// become part of an object key.
func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}
