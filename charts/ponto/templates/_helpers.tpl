{{/*
Helpers shared by the templates. Every service is rendered by the same
templates (services.yaml ranging over .Values.services); these helpers take
a dict with "root" (the top context), "name" (the service) and, where
needed, "s" (the service's settings from ponto.settings).
*/}}

{{/* Prefix of every resource name: the release name. */}}
{{- define "ponto.prefix" -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of a service's resources: <release>-<service>. */}}
{{- define "ponto.serviceName" -}}
{{- printf "%s-%s" (include "ponto.prefix" .root) .name -}}
{{- end -}}

{{/* Labels of everything the release renders. */}}
{{- define "ponto.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: ponto
{{- end -}}

{{/* Selector labels of one component (a service, a migration, a dev dependency). */}}
{{- define "ponto.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/*
ponto.settings: the service's settings, i.e. .Values.defaults overridden by
.Values.services.<name> key by key, two levels deep (a map under a key is
merged one level; anything else replaces). Unlike mergeOverwrite it keeps
false and 0 given by the service. Rendered as YAML; use with fromYaml.
*/}}
{{- define "ponto.settings" -}}
{{- $out := deepCopy .root.Values.defaults -}}
{{- range $key, $value := .svc -}}
{{- $current := get $out $key -}}
{{- if and (kindIs "map" $value) (kindIs "map" $current) -}}
{{- $merged := deepCopy $current -}}
{{- range $k, $v := $value -}}
{{- $_ := set $merged $k $v -}}
{{- end -}}
{{- $_ := set $out $key $merged -}}
{{- else -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* The environment variable holding a peer's internal URL: company-billing → COMPANY_BILLING_INTERNAL_URL. */}}
{{- define "ponto.internalURLVar" -}}
{{- printf "%s_INTERNAL_URL" (. | upper | replace "-" "_") -}}
{{- end -}}

{{/* The service's image reference; see image in values.yaml. */}}
{{- define "ponto.image" -}}
{{- $root := .root -}}
{{- $img := .s.image -}}
{{- $running := "" -}}
{{- if and (not $img.ref) $root.Values.image.reuseRunning -}}
{{- $current := lookup "apps/v1" "Deployment" $root.Release.Namespace (include "ponto.serviceName" .) -}}
{{- if $current -}}
{{- range $current.spec.template.spec.containers -}}
{{- if eq .name $.name -}}{{- $running = .image -}}{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $img.ref -}}
{{- $img.ref -}}
{{- else if $running -}}
{{- $running -}}
{{- else -}}
{{- $tag := $img.tag | default $root.Values.image.tag | default $root.Chart.AppVersion -}}
{{- with $root.Values.image.registry -}}{{- printf "%s/" (trimSuffix "/" .) -}}{{- end -}}
{{- printf "%s:%s" $img.repository $tag -}}
{{- end -}}
{{- end -}}

{{/*
ponto.goMemLimit: GOMEMLIMIT for a memory limit ("memory"), as
goMemLimitPercent of it in whole MiB. Accepts an integer with an optional
binary (Ki, Mi, Gi, Ti) or decimal (k, M, G, T) suffix.
*/}}
{{- define "ponto.goMemLimit" -}}
{{- $q := toString .memory -}}
{{- $units := dict "" 1 "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 "k" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 -}}
{{- $num := regexFind "^[0-9]+" $q -}}
{{- $unit := trimPrefix $num $q -}}
{{- if or (not $num) (not (hasKey $units $unit)) -}}
{{- fail (printf "memory limit %q: want an integer with an optional Ki, Mi, Gi, Ti, k, M, G or T suffix" $q) -}}
{{- end -}}
{{- $bytes := mul (atoi $num) (get $units $unit) -}}
{{- printf "%dMiB" (div (div (mul $bytes .percent) 100) 1048576) -}}
{{- end -}}

{{/*
ponto.plainEnv: the service's non-secret environment as a YAML map (the
ConfigMap's data, and the migration Job's env). Derived from ports, calls,
tokens, logLevel, shutdownDelay and trustedProxies, then commonEnv and the
service's env.
*/}}
{{- define "ponto.plainEnv" -}}
{{- $root := .root -}}
{{- $s := .s -}}
{{- $env := dict -}}
{{- $_ := set $env "HTTP_PUBLIC_ADDR" (printf "0.0.0.0:%v" $root.Values.ports.public) -}}
{{- $_ = set $env "HTTP_INTERNAL_ADDR" (printf "0.0.0.0:%v" $root.Values.ports.internal) -}}
{{- $_ = set $env "HTTP_SHUTDOWN_DELAY" $s.shutdownDelay -}}
{{- $_ = set $env "LOG_LEVEL" $s.logLevel -}}
{{- with $root.Values.trustedProxies -}}
{{- $_ = set $env "HTTP_TRUSTED_PROXIES" (join "," .) -}}
{{- end -}}
{{- range $peer := $s.calls -}}
{{- $peerValues := get $root.Values.services $peer -}}
{{- if not $peerValues -}}{{- fail (printf "services.%s.calls: unknown service %q" $.name $peer) -}}{{- end -}}
{{- $_ = set $env (include "ponto.internalURLVar" $peer) (printf "http://%s:%v" (include "ponto.serviceName" (dict "root" $root "name" $peer)) $root.Values.ports.internal) -}}
{{- end -}}
{{- if eq $s.tokens "sign" -}}
{{- $_ = set $env "JWT_ISSUER" $root.Values.jwt.issuer -}}
{{- $_ = set $env "JWT_AUDIENCE" $root.Values.jwt.audience -}}
{{- $_ = set $env "AUTH_KEYS_DIR" "/var/run/ponto/auth-keys" -}}
{{- else if eq $s.tokens "verify" -}}
{{- $_ = set $env "JWT_JWKS_URL" (printf "http://%s:%v/.well-known/jwks.json" (include "ponto.serviceName" (dict "root" $root "name" "auth")) $root.Values.ports.public) -}}
{{- $_ = set $env "JWT_ISSUER" $root.Values.jwt.issuer -}}
{{- $_ = set $env "JWT_AUDIENCE" $root.Values.jwt.audience -}}
{{- end -}}
{{- if $s.certificateSecret -}}
{{- $_ = set $env "SIGNING_CERT_FILE" "/var/run/ponto/signing/certificado.p12" -}}
{{- $_ = set $env "SIGNING_CERT_PASSWORD_FILE" "/var/run/ponto/signing/senha" -}}
{{- end -}}
{{- if $s.apiRoutes -}}
{{- $_ = set $env "WEB_API_ROUTES" (include "ponto.apiRoutes" $root) -}}
{{- end -}}
{{- range $k, $v := $root.Values.commonEnv -}}
{{- $_ = set $env $k (tpl (toString $v) $root) -}}
{{- end -}}
{{- range $k, $v := $s.env -}}
{{- $_ = set $env $k (tpl (toString $v) $root) -}}
{{- end -}}
{{- toYaml $env -}}
{{- end -}}

{{/* ponto.secretEnv: env entries reading the service's secretEnv from Secrets. */}}
{{- define "ponto.secretEnv" -}}
{{- $root := .root -}}
{{- range $var, $ref := .s.secretEnv }}
- name: {{ $var }}
  valueFrom:
    secretKeyRef:
      name: {{ tpl $ref.name $root }}
      key: {{ $ref.key }}
      {{- if $ref.optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}

{{/* Pod-level security context shared by every pod of the chart. */}}
{{- define "ponto.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Container security context shared by every container of the chart. */}}
{{- define "ponto.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/*
ponto.apiRoutes: WEB_API_ROUTES, routes.yaml's routes (in its order, first
match wins) to the public port of each enabled service's in-cluster
Service, as JSON; the web routes are left out (they are the web pods' own).
*/}}
{{- define "ponto.apiRoutes" -}}
{{- $root := . -}}
{{- $table := .Files.Get "routes.yaml" | fromYaml -}}
{{- if or (not $table) (hasKey $table "Error") (not $table.routes) -}}
{{- fail "routes.yaml: missing, invalid or without routes" -}}
{{- end -}}
{{- $out := list -}}
{{- range $r := $table.routes -}}
{{- $svc := get $root.Values.services $r.service -}}
{{- if and $svc $svc.enabled (ne $r.service "web") -}}
{{- $route := omit $r "service" -}}
{{- $_ := set $route "url" (printf "http://%s:%v" (include "ponto.serviceName" (dict "root" $root "name" $r.service)) $root.Values.ports.public) -}}
{{- $out = append $out $route -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/* The Secret of the services' SERVICE_SECRETs: the chart's own, or serviceSecrets.existingSecret. */}}
{{- define "ponto.serviceSecretsName" -}}
{{- .Values.serviceSecrets.existingSecret | default (printf "%s-service-secrets" (include "ponto.prefix" .)) -}}
{{- end -}}

{{/* The services that call a peer's internal API, and so hold a SERVICE_SECRET (auth signs its own tokens), as a YAML list. */}}
{{- define "ponto.tokenHolders" -}}
{{- $out := list -}}
{{- range $name, $svc := .Values.services -}}
{{- if and $svc.enabled $svc.calls (ne $name "auth") -}}{{- $out = append $out $name -}}{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* ponto.serviceSecretEnv: SERVICE_SECRET for a token holder (auth reads them all from the Secret mounted as a directory). */}}
{{- define "ponto.serviceSecretEnv" -}}
{{- if has .name (include "ponto.tokenHolders" .root | fromYamlArray) }}
- name: SERVICE_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "ponto.serviceSecretsName" .root }}
      key: {{ .name }}
{{- end }}
{{- end -}}
