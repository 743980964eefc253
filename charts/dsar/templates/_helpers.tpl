{{/*
Chart name, truncated to the 63 characters a DNS label allows.
*/}}
{{- define "dsar.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified release name. Service names are appended to it, so it is kept
short enough for "<fullname>-fulfilment-delivery" to fit in 63 characters.
*/}}
{{- define "dsar.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 43 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 43 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 43 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "dsar.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Standard labels of every object.
*/}}
{{- define "dsar.labels" -}}
helm.sh/chart: {{ include "dsar.chart" . }}
{{ include "dsar.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: dsar
{{- end }}

{{- define "dsar.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dsar.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Labels of one service's objects. Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.serviceLabels" -}}
{{ include "dsar.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{- define "dsar.serviceSelectorLabels" -}}
{{ include "dsar.selectorLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{/*
Name of one service's Deployment and Service: "<fullname>-<service>".
*/}}
{{- define "dsar.serviceFullname" -}}
{{- printf "%s-%s" (include "dsar.fullname" .root) .name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "dsar.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/*
The setting that holds an upstream service's URL: "audit-ledger" -> "AUDIT_LEDGER_URL".
*/}}
{{- define "dsar.upstreamUrlVariable" -}}
{{- printf "%s_URL" (. | upper | replace "-" "_") }}
{{- end }}

{{/*
In-cluster URL of one service's Service: "http://<fullname>-<service>:<port>".
Call with (dict "root" $ "name" "<service>"); fails if the service is not in .Values.services.
*/}}
{{- define "dsar.serviceUrl" -}}
{{- $svc := index .root.Values.services .name | default dict }}
{{- if not $svc.port }}
{{- fail (printf "services.%s (with a port) is required: another service calls it" .name) }}
{{- end }}
{{- printf "http://%s:%v" (include "dsar.serviceFullname" .) $svc.port }}
{{- end }}

{{/*
The EnvVar of a caller that points at an upstream service, e.g.
LIFECYCLE_CLOCK_URL=http://dsar-lifecycle-clock:3002. Call with
(dict "root" $ "name" "<upstream>" "env" <the caller's services.<caller>.env>);
renders nothing when the caller's own env sets the variable (that one wins).
*/}}
{{- define "dsar.upstreamEnv" -}}
{{- $variable := include "dsar.upstreamUrlVariable" .name }}
{{- if not (hasKey (.env | default dict) $variable) }}
- name: {{ $variable }}
  value: {{ include "dsar.serviceUrl" (dict "root" .root "name" .name) | quote }}
{{- end }}
{{- end }}

{{/*
Checks the api-gateway's authentication settings. A gateway with no way to
authenticate callers refuses to start, so the chart refuses to render it.
*/}}
{{- define "dsar.validateAuth" -}}
{{- $auth := .Values.auth | default dict }}
{{- if not (or $auth.existingSecret $auth.jwksUrl) }}
{{- fail "auth: the api-gateway authenticates every /api/v1 call and needs a way to do it. Set auth.existingSecret (an existing Secret with DSAR_API_KEYS and/or AUTH_JWT_SECRET) or auth.jwksUrl with auth.issuer and auth.audience (OIDC). See docs/operations.md#authentication." }}
{{- end }}
{{- if $auth.jwksUrl }}
{{- if not (regexMatch "^https?://" $auth.jwksUrl) }}
{{- fail (printf "auth.jwksUrl must be an http(s) URL, got %q" $auth.jwksUrl) }}
{{- end }}
{{- $_ := required "auth.issuer: the expected iss of the tokens is required with auth.jwksUrl" $auth.issuer }}
{{- $_ := required "auth.audience: the expected aud of the tokens is required with auth.jwksUrl" $auth.audience }}
{{- end }}
{{- end }}

{{/*
Checks the internal auth key: every service refuses to start without
INTERNAL_AUTH_KEY, so the chart refuses to render without its Secret.
*/}}
{{- define "dsar.validateInternalAuth" -}}
{{- $internal := .Values.internalAuth | default dict }}
{{- if not $internal.existingSecret }}
{{- fail "internalAuth.existingSecret: name an existing Secret holding INTERNAL_AUTH_KEY (at least 32 random bytes, e.g. kubectl create secret generic dsar-internal-auth --from-literal=INTERNAL_AUTH_KEY=\"$(openssl rand -base64 32)\"). Every service signs and checks the caller's identity with it; see docs/security.md#identity-inside-the-system." }}
{{- end }}
{{- end }}

{{/*
Authentication and limits of the api-gateway. The Secret keys are optional
(a Secret may hold API keys, a JWT secret or both); the chart never creates the Secret.
*/}}
{{- define "dsar.gatewayAuthEnv" -}}
{{- $auth := .root.Values.auth }}
{{- $own := .env | default dict }}
{{- if $auth.existingSecret }}
{{- if not (hasKey $own "DSAR_API_KEYS") }}
- name: DSAR_API_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ $auth.existingSecret }}
      key: {{ $auth.apiKeysKey | default "DSAR_API_KEYS" }}
      optional: true
{{- end }}
{{- if not (hasKey $own "AUTH_JWT_SECRET") }}
- name: AUTH_JWT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $auth.existingSecret }}
      key: {{ $auth.jwtSecretKey | default "AUTH_JWT_SECRET" }}
      optional: true
{{- end }}
{{- end }}
{{- range $variable, $value := dict "AUTH_JWKS_URL" $auth.jwksUrl "AUTH_ISSUER" $auth.issuer "AUTH_AUDIENCE" $auth.audience }}
{{- if and $value (not (hasKey $own $variable)) }}
- name: {{ $variable }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}
{{- /* Limits: 0 is a value (no rate limit); an empty one leaves the gateway's default. */}}
{{- range $variable, $value := dict "RATE_LIMIT_PER_MINUTE" $auth.rateLimitPerMinute "UPSTREAM_TIMEOUT_MS" $auth.upstreamTimeoutMs }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") (not (hasKey $own $variable)) }}
- name: {{ $variable }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Environment of the processes that use PostgreSQL and Kafka (the domain services
and the provisioning job).
*/}}
{{- define "dsar.backendEnv" -}}
- name: DB_DRIVER
  value: postgres
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "database.existingSecret: name a Secret holding the PostgreSQL URL" .Values.database.existingSecret }}
      key: {{ .Values.database.urlKey }}
- name: DB_POOL_SIZE
  value: {{ .Values.database.poolSize | quote }}
- name: BUS_DRIVER
  value: kafka
- name: KAFKA_BROKERS
  value: {{ required "kafka.brokers: the Kafka bootstrap brokers, host:port[,host:port]" .Values.kafka.brokers | quote }}
- name: KAFKA_TOPIC_PREFIX
  value: {{ .Values.kafka.topicPrefix | quote }}
- name: KAFKA_GROUP_PREFIX
  value: {{ .Values.kafka.groupPrefix | quote }}
- name: KAFKA_CLIENT_ID
  value: {{ .Values.kafka.clientId | quote }}
{{- end }}

{{/*
Pod-level settings shared by the Deployments and the provisioning Job.
*/}}
{{- define "dsar.podCommon" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .Values.serviceAccountName }}
serviceAccountName: {{ .Values.serviceAccountName }}
{{- end }}
automountServiceAccountToken: false
{{- with .Values.podSecurityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
