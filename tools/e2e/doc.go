// Package e2e holds the tests of ponto's public API as a client sees it:
// the OpenAPI document (api/openapi.yaml) is valid, and the real stack,
// started on free ports as make run starts it, answers through the gateway
// what the document says — a whole workday end to end, every route against
// every kind of caller, and the outages of Redis and PostgreSQL.
//
// Everything is in the _test.go files; TestMain starts the one stack the
// tests share.
package e2e
