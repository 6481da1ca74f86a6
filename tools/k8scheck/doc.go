// Package k8scheck holds the tests of ponto's Kubernetes delivery: the Helm
// chart (charts/ponto), deploy/docker/Dockerfile and skaffold.yaml. They
// render the chart with the default, dev and production values and check
// what `helm lint` and kubeconform cannot see:
//
//   - one Deployment, Service, HPA, PDB, NetworkPolicy, ServiceAccount and
//     ConfigMap per service, and a migration hook Job per service with
//     migrations;
//   - no container without probes (long-running ones), requests and limits,
//     the restricted security context, and GOMEMLIMIT (Go ones);
//   - an Ingress with every route of charts/ponto/routes.yaml, in order;
//   - every environment variable the chart gives a service is one the
//     service reads, and every one it requires (or whose default points at
//     loopback) is given, the truth taken from `<service> --help` at test
//     time;
//   - NetworkPolicies admitting each internal port to exactly the callers
//     docs/internal-api.md names;
//   - skaffold.yaml valid against the Skaffold v4beta14 JSON schema, with one
//     module per service;
//   - the Dockerfile's paths exist, it copies every module a service's
//     go.mod replaces (pkg, the providers' internalapi modules), every
//     service builds outside the workspace (GOWORK=off), and its build
//     command builds a static binary.
//
// The tests need bin/helm (`make k8s-tools`); `make k8s-check` runs them
// after helm lint and kubeconform.
package k8scheck
