{{/*
ponto.devDependency: Deployment, Service and NetworkPolicy of one
development dependency. dict: root, name, dep (its values: image, port,
uid, resources), and optionally args, env (a list of EnvVars), mounts
(emptyDir name → path) and configMap (name, mountPath).
*/}}
{{- define "ponto.devDependency" -}}
{{- $root := .root -}}
{{- $component := printf "dev-%s" .name -}}
{{- $fullname := printf "%s-%s" (include "ponto.prefix" $root) .name -}}
{{- $selector := include "ponto.selectorLabels" (dict "root" $root "component" $component) }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $fullname }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "ponto.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $component }}
spec:
  replicas: 1
  # Data lives in an emptyDir: never two pods at once.
  strategy:
    type: Recreate
  selector:
    matchLabels:
      {{- $selector | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "ponto.labels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ $component }}
    spec:
      automountServiceAccountToken: false
      securityContext:
        {{- include "ponto.podSecurityContext" (dict "uid" .dep.uid) | nindent 8 }}
      containers:
        - name: {{ .name }}
          image: {{ .dep.image | quote }}
          imagePullPolicy: IfNotPresent
          {{- with .args }}
          args:
            {{- range . }}
            - {{ . | quote }}
            {{- end }}
          {{- end }}
          {{- with .env }}
          env:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          ports:
            - name: tcp
              containerPort: {{ .dep.port }}
              protocol: TCP
          readinessProbe:
            tcpSocket:
              port: tcp
            periodSeconds: 5
          livenessProbe:
            tcpSocket:
              port: tcp
            initialDelaySeconds: 20
            periodSeconds: 10
          resources:
            {{- toYaml .dep.resources | nindent 12 }}
          securityContext:
            {{- include "ponto.containerSecurityContext" (dict "uid" .dep.uid) | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- range $volume, $path := .mounts }}
            - name: {{ $volume }}
              mountPath: {{ $path }}
            {{- end }}
            {{- with .configMap }}
            - name: config
              mountPath: {{ .mountPath }}
              readOnly: true
            {{- end }}
      volumes:
        - name: tmp
          emptyDir: {}
        {{- range $volume, $path := .mounts }}
        - name: {{ $volume }}
          emptyDir: {}
        {{- end }}
        {{- with .configMap }}
        - name: config
          configMap:
            name: {{ .name }}
        {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $fullname }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "ponto.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $component }}
spec:
  selector:
    {{- $selector | nindent 4 }}
  ports:
    - name: tcp
      port: {{ .dep.port }}
      targetPort: tcp
      protocol: TCP
{{- if $root.Values.networkPolicy.enabled }}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ $fullname }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "ponto.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $component }}
spec:
  podSelector:
    matchLabels:
      {{- $selector | nindent 6 }}
  policyTypes: [Ingress]
  ingress:
    # Development only: any pod of this release.
    - ports:
        - port: tcp
          protocol: TCP
      from:
        - podSelector:
            matchLabels:
              app.kubernetes.io/instance: {{ $root.Release.Name }}
{{- end }}
{{- end -}}
