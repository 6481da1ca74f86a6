package validate

import (
	"strings"
	"time"
	_ "time/tzdata" // zones must not depend on the image's zoneinfo
)

// maxTimeZone bounds a zone name; the longest IANA name has 32 characters.
const maxTimeZone = 64

// TimeZone reports whether name is an IANA time zone that a company or an
// employee may be given: a Region/City name that time.LoadLocation knows
// (America/Manaus, America/Noronha, Etc/GMT+3), or UTC. Bare abbreviations
// and legacy names (EST, GMT0, Cuba) are refused even where Go knows them,
// because PostgreSQL, which computes the reports' local times, may read
// them differently; "Local" would follow the server's own zone.
func TimeZone(name string) bool {
	if name == "UTC" {
		return true
	}
	if name == "" || len(name) > maxTimeZone || !strings.Contains(name, "/") {
		return false
	}
	for i := range len(name) {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("/_+-", c) >= 0) {
			return false
		}
	}
	if name[0] == '/' || strings.Contains(name, "//") || name[len(name)-1] == '/' {
		return false
	}
	// The Region of Region/City: the host's tzdata also answers for
	// right/..., posix/... and legacy links (Brazil/East, US/...), which
	// depend on the host and PostgreSQL may read differently.
	region, _, _ := strings.Cut(name, "/")
	if !regions[region] {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}

// regions are the IANA Region/City regions.
var regions = map[string]bool{
	"Africa": true, "America": true, "Antarctica": true, "Arctic": true, "Asia": true, "Atlantic": true,
	"Australia": true, "Europe": true, "Indian": true, "Pacific": true, "Etc": true,
}

// TimeZoneMessage is the pt-BR field message for a refused zone.
const TimeZoneMessage = "fuso horário desconhecido: use um nome IANA como America/Sao_Paulo ou America/Manaus"
