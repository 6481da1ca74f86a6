// Package core is ponto's record core: every rule of a punch and of a
// workday, as pure Go with no database, no HTTP and no clock of its own,
// so that each rule lives in one place, is unit-tested without
// PostgreSQL, and can be imported by the services' stores and by tools:
//
//   - the workday a punch belongs to, from the employee's schedule and
//     zone (workday.go);
//   - the tipo sequence of a workday (tipo.go);
//   - the NSR and the SHA-256 chain of punches, with its rule versions
//     (chain.go);
//   - the adjustment state machine (ajuste.go);
//   - the formatting and parsing of every AFD record type, Anexo V of
//     Portaria MTP 671/2021 (afd.go, afd_parse.go, afd_writer.go, crc.go);
//   - the CLT arithmetic of one workday: worked, expected, night,
//     overtime at 50 and 100%, lateness, breaks, rest between workdays
//     (clt.go, apurar.go);
//   - the paid weekly rest lost for an unexcused absence (dsr.go) and
//     the hour bank computed from the workdays (banco.go).
//
// docs/compliance.md points here for every choice the texts leave open.
package core
