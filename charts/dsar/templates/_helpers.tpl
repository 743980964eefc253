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
Checks the inbound webhooks (docs/webhooks.md): intake-gateway refuses to start
with routes and no signing secret, so the chart refuses to render them without
webhooks.existingSecret or a secret in services.intake-gateway.env.
*/}}
{{- define "dsar.validateWebhooks" -}}
{{- $w := .Values.webhooks | default dict }}
{{- $routes := $w.inboundRoutes | default list }}
{{- $own := (index (.Values.services | default dict) "intake-gateway" | default dict).env | default dict }}
{{- if and (hasKey (.Values.services | default dict) "intake-gateway") (ne (toString $routes) "[]") (not (empty $routes)) (not $w.existingSecret) (not (hasKey $own "MAIL_WEBHOOK_SECRET")) (not (hasKey $own "SLACK_SIGNING_SECRET")) }}
{{- fail "webhooks.inboundRoutes: routed messages are only taken signed. Set webhooks.existingSecret to an existing Secret with MAIL_WEBHOOK_SECRET (whsec_...) for mailbox routes and/or SLACK_SIGNING_SECRET for Slack routes; intake-gateway refuses to start otherwise. See docs/webhooks.md." }}
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
Checks the request reference key: the notifier and intake-gateway refuse to
start without REQUEST_REFERENCE_KEY, so the chart refuses to render either
without its Secret (or the variable in the service's own env).
*/}}
{{- define "dsar.validateRequestReference" -}}
{{- $reference := .Values.requestReference | default dict }}
{{- range $name := list "notifier" "intake-gateway" }}
{{- if hasKey ($.Values.services | default dict) $name }}
{{- $own := (index $.Values.services $name | default dict).env | default dict }}
{{- if not (or $reference.existingSecret (hasKey $own "REQUEST_REFERENCE_KEY") (hasKey $own "REQUEST_REFERENCE_KEY_FILE")) }}
{{- fail "requestReference.existingSecret: name an existing Secret holding REQUEST_REFERENCE_KEY (at least 32 random bytes, e.g. kubectl create secret generic dsar-request-reference --from-literal=REQUEST_REFERENCE_KEY=\"$(openssl rand -base64 32)\"). The notifier tags the request reference of its emails with it and intake-gateway checks the reference a reply quotes; see docs/webhooks.md#replies." }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The person's download page (PORTAL_URL, docs/notifications.md#delivery-by-email),
which the notifier's links of deliveries by email open: notifications.portalUrl,
else console.publicUrl + "/portal/", else the Ingress's first host (https when
a TLS entry lists it); empty when none of these is set.
*/}}
{{- define "dsar.portalUrl" -}}
{{- $n := .Values.notifications | default dict }}
{{- $console := .Values.console | default dict }}
{{- $ingress := .Values.ingress | default dict }}
{{- if $n.portalUrl }}
{{- $n.portalUrl }}
{{- else if $console.publicUrl }}
{{- printf "%s/portal/" (trimSuffix "/" $console.publicUrl) }}
{{- else if and $ingress.enabled $ingress.hosts }}
{{- $host := (first $ingress.hosts).host | default "" }}
{{- $tls := false }}
{{- range ($ingress.tls | default list) }}
{{- if has $host (.hosts | default list) }}
{{- $tls = true }}
{{- end }}
{{- end }}
{{- if $host }}
{{- printf "%s://%s/portal/" (ternary "https" "http" $tls) $host }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Checks the download page's address: the notifier refuses to start without
PORTAL_URL, so the chart refuses to render it without one (dsar.portalUrl, or
the variable in the notifier's own env).
*/}}
{{- define "dsar.validatePortalUrl" -}}
{{- if hasKey (.Values.services | default dict) "notifier" }}
{{- $own := (index .Values.services "notifier" | default dict).env | default dict }}
{{- if not (or (include "dsar.portalUrl" .) (hasKey $own "PORTAL_URL")) }}
{{- fail "notifications.portalUrl: give the public address of the person's download page, the gateway's public URL with /portal/ (e.g. https://dsar.example.org/portal/), or set console.publicUrl, or enable the Ingress (its first host is taken). The notifier sends a link to it for every delivery by email; see docs/notifications.md#delivery-by-email." }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Checks the identity index key: lifecycle-clock refuses to start without
IDENTITY_INDEX_KEY, so the chart refuses to render it without its Secret (or
the variable in the service's own env).
*/}}
{{- define "dsar.validateIdentityIndex" -}}
{{- $identity := .Values.identityIndex | default dict }}
{{- if hasKey (.Values.services | default dict) "lifecycle-clock" }}
{{- $own := (index .Values.services "lifecycle-clock" | default dict).env | default dict }}
{{- if not (or $identity.existingSecret (hasKey $own "IDENTITY_INDEX_KEY") (hasKey $own "IDENTITY_INDEX_KEY_FILE")) }}
{{- fail "identityIndex.existingSecret: name an existing Secret holding IDENTITY_INDEX_KEY (at least 32 random bytes, e.g. kubectl create secret generic dsar-identity-index --from-literal=IDENTITY_INDEX_KEY=\"$(openssl rand -base64 32)\"). lifecycle-clock keeps the keyed digests by which a tenant's requests are found by a person's identity with it; see docs/identity.md." }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The in-release services a service calls over HTTP, as a JSON list: the
api-gateway calls every other service; policy-registry calls the five services
that own a retention class (dsar.retentionOwners), whose next sweeps its
retention report previews (docs/retention.md); the intake-gateway,
verification, fulfilment-delivery and the notifier (which reads the request's
address and words at send time) call lifecycle-clock; the notifier also calls
fulfilment-delivery (the link of a delivery by email).
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.upstreams" -}}
{{- $root := .root }}
{{- $upstreams := list }}
{{- if eq .name "api-gateway" }}
{{- range $other, $_ := .root.Values.services }}
{{- if ne $other "api-gateway" }}
{{- $upstreams = append $upstreams $other }}
{{- end }}
{{- end }}
{{- else if eq .name "policy-registry" }}
{{- range (include "dsar.retentionOwners" . | fromJsonArray) }}
{{- if hasKey $root.Values.services . }}
{{- $upstreams = append $upstreams . }}
{{- end }}
{{- end }}
{{- else }}
{{- if and (has .name (list "intake-gateway" "verification" "fulfilment-delivery" "notifier")) (hasKey .root.Values.services "lifecycle-clock") }}
{{- $upstreams = append $upstreams "lifecycle-clock" }}
{{- end }}
{{- if and (eq .name "notifier") (hasKey .root.Values.services "fulfilment-delivery") }}
{{- $upstreams = append $upstreams "fulfilment-delivery" }}
{{- end }}
{{- end }}
{{- toJson $upstreams }}
{{- end }}

{{/*
The services that own a retention class and sweep it themselves
(docs/retention.md), as a JSON list: they get RETENTION_SWEEP_INTERVAL_MS and
RETENTION_SWEEP_BATCH from retention, and policy-registry calls them for its
retention report.
*/}}
{{- define "dsar.retentionOwners" -}}
{{- toJson (list "lifecycle-clock" "audit-ledger" "verification" "fulfilment-delivery" "notifier") }}
{{- end }}

{{/*
Non-secret environment of one service, as YAML of a map (the data of its
ConfigMap). Later entries win: HOST/PORT, env, backendEnv (domain services),
the settings the chart derives (database, Kafka, upstream URLs, auth, storage,
notifications, retention), and last services.<service>.env.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.configData" -}}
{{- $root := .root }}
{{- $svc := index $root.Values.services .name }}
{{- $cfg := dict "HOST" "0.0.0.0" "PORT" (toString $svc.port) }}
{{- range $k, $v := ($root.Values.env | default dict) }}
{{- $_ := set $cfg $k $v }}
{{- end }}
{{- if eq .name "api-gateway" }}
{{- $auth := $root.Values.auth }}
{{- range $variable, $value := dict "AUTH_JWKS_URL" $auth.jwksUrl "AUTH_ISSUER" $auth.issuer "AUTH_AUDIENCE" $auth.audience }}
{{- if $value }}
{{- $_ := set $cfg $variable $value }}
{{- end }}
{{- end }}
{{- /* Limits: 0 is a value (no rate limit); an empty one leaves the gateway's default. */}}
{{- range $variable, $value := dict "RATE_LIMIT_PER_MINUTE" $auth.rateLimitPerMinute "UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE" $auth.unauthenticatedRateLimitPerMinute "WEBHOOK_RATE_LIMIT_PER_MINUTE" $auth.webhookRateLimitPerMinute "PORTAL_RATE_LIMIT_PER_MINUTE" $auth.portalRateLimitPerMinute "UPSTREAM_TIMEOUT_MS" $auth.upstreamTimeoutMs "UPLOAD_IDLE_TIMEOUT_MS" $auth.uploadIdleTimeoutMs }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
{{- $_ := set $cfg $variable $value }}
{{- end }}
{{- end }}
{{- with $auth.trustedProxies }}
{{- $_ := set $cfg "TRUSTED_PROXIES" (join "," .) }}
{{- end }}
{{- $console := $root.Values.console | default dict }}
{{- range $variable, $value := dict "CONSOLE_OIDC_ISSUER" $console.issuer "CONSOLE_OIDC_CLIENT_ID" $console.clientId "CONSOLE_OIDC_SCOPE" $console.scope "CONSOLE_OIDC_RESOURCE" $console.resource "CONSOLE_KEY_SIGN_IN" $console.keySignIn }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
{{- $_ := set $cfg $variable (toString $value) }}
{{- end }}
{{- end }}
{{- else }}
{{- range $k, $v := ($root.Values.backendEnv | default dict) }}
{{- $_ := set $cfg $k $v }}
{{- end }}
{{- range $k, $v := (include "dsar.backendConfig" $root | fromYaml) }}
{{- $_ := set $cfg $k $v }}
{{- end }}
{{- end }}
{{- range (include "dsar.upstreams" . | fromJsonArray) }}
{{- $_ := set $cfg (include "dsar.upstreamUrlVariable" .) (include "dsar.serviceUrl" (dict "root" $root "name" .)) }}
{{- end }}
{{- if include "dsar.keepsFiles" . }}
{{- /* File storage (docs/storage.md): the driver, then its own settings. */}}
{{- $driver := include "dsar.storageDriver" . }}
{{- $_ := set $cfg "STORAGE_DRIVER" $driver }}
{{- if eq $driver "s3" }}
{{- $s3 := ($root.Values.storage | default dict).s3 | default dict }}
{{- range $variable, $value := dict "S3_BUCKET" $s3.bucket "S3_REGION" $s3.region "S3_ENDPOINT" $s3.endpoint "S3_PREFIX" (include "dsar.s3Prefix" .) }}
{{- if $value }}
{{- $_ := set $cfg $variable $value }}
{{- end }}
{{- end }}
{{- $_ := set $cfg "S3_FORCE_PATH_STYLE" (ternary "true" "false" (eq (toString $s3.forcePathStyle) "true")) }}
{{- else if $svc.persistence }}
{{- /* The filesystem driver in the service's volume: the root file system is read-only. */}}
{{- $_ := set $cfg "STORAGE_DIR" (include "dsar.storageDir" .) }}
{{- end }}
{{- end }}
{{- if eq .name "notifier" }}
{{- range $k, $v := (include "dsar.notifierConfig" $root | fromYaml) }}
{{- $_ := set $cfg $k $v }}
{{- end }}
{{- end }}
{{- if eq .name "intake-gateway" }}
{{- with ($root.Values.webhooks | default dict).inboundRoutes }}
{{- /* INBOUND_ROUTES (docs/webhooks.md#routing): a list is passed as its JSON text, JSON text as it is. */}}
{{- $_ := set $cfg "INBOUND_ROUTES" (ternary . (toJson .) (kindIs "string" .)) }}
{{- end }}
{{- end }}
{{- if has .name (include "dsar.retentionOwners" . | fromJsonArray) }}
{{- range $k, $v := (include "dsar.retentionConfig" $root | fromYaml) }}
{{- $_ := set $cfg $k $v }}
{{- end }}
{{- end }}
{{- range $k, $v := ($svc.env | default dict) }}
{{- $_ := set $cfg $k $v }}
{{- end }}
{{- range $k, $v := $cfg }}
{{- if kindIs "invalid" $v }}
{{- $_ := unset $cfg $k }}
{{- else if kindIs "map" $v }}
{{- /* A map (VERIFICATION_TENANT_SETTINGS, FULFILMENT_TENANT_SETTINGS) is passed as its JSON text. */}}
{{- $_ := set $cfg $k (toJson $v) }}
{{- else }}
{{- $_ := set $cfg $k (toString $v) }}
{{- end }}
{{- end }}
{{- toYaml $cfg }}
{{- end }}

{{/*
The notifier's non-secret settings from notifications (docs/notifications.md),
as YAML of a map: NOTIFIER_*, SLACK_API_URL, PORTAL_URL (dsar.portalUrl) and,
with notifications.dkim, the DKIM domain, selector and the path of the mounted
private key. An empty value (or null) leaves the service's default;
services.notifier.env wins over these.
*/}}
{{- define "dsar.notifierConfig" -}}
{{- $n := .Values.notifications | default dict }}
{{- $retry := $n.retry | default dict }}
{{- $cfg := dict }}
{{- range $variable, $value := dict "NOTIFIER_SENDER" $n.sender "NOTIFIER_SLACK_CHANNEL" $n.slackChannel "NOTIFIER_OPERATOR_LOCALE" $n.operatorLocale "NOTIFIER_TIME_ZONE" $n.timeZone "NOTIFIER_DIGEST_TIME" $n.digestTime "NOTIFIER_DIGEST_AT_RISK_DAYS" $n.digestAtRiskDays "SLACK_API_URL" $n.slackApiUrl "NOTIFIER_RETRY_BASE_MS" $retry.baseMs "NOTIFIER_RETRY_MAX_MS" $retry.maxMs "NOTIFIER_MAX_ATTEMPTS" $retry.maxAttempts "NOTIFIER_DISPATCH_INTERVAL_MS" $n.dispatchIntervalMs }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
{{- /* Whole numbers as digits: a float64 of 3600000 would print as 3.6e+06. */}}
{{- if or (kindIs "float64" $value) (kindIs "int" $value) (kindIs "int64" $value) }}
{{- $value = int64 $value }}
{{- end }}
{{- $_ := set $cfg $variable (toString $value) }}
{{- end }}
{{- end }}
{{- /* operatorEmails: a list, or a comma list in one string (--set); passed as a comma list. */}}
{{- $given := $n.operatorEmails | default list }}
{{- if kindIs "string" $given }}
{{- $given = splitList "," $given }}
{{- end }}
{{- $emails := list }}
{{- range $given }}
{{- with trim (toString .) }}
{{- $emails = append $emails . }}
{{- end }}
{{- end }}
{{- if $emails }}
{{- $_ := set $cfg "NOTIFIER_OPERATOR_EMAILS" (join "," $emails) }}
{{- end }}
{{- with $n.tenantSettings }}
{{- /* A map is passed as its JSON text; JSON text as it is. */}}
{{- $_ := set $cfg "NOTIFIER_TENANT_SETTINGS" (ternary . (toJson .) (kindIs "string" .)) }}
{{- end }}
{{- with (include "dsar.portalUrl" .) }}
{{- $_ := set $cfg "PORTAL_URL" . }}
{{- end }}
{{- if include "dsar.dkimSecret" . }}
{{- $dkim := $n.dkim }}
{{- $_ := set $cfg "NOTIFIER_DKIM_DOMAIN" $dkim.domain }}
{{- $_ := set $cfg "NOTIFIER_DKIM_SELECTOR" $dkim.selector }}
{{- $_ := set $cfg "NOTIFIER_DKIM_PRIVATE_KEY_FILE" (printf "%s/%s" (include "dsar.dkimDir" .) (include "dsar.dkimFile" .)) }}
{{- end }}
{{- toYaml $cfg }}
{{- end }}

{{/*
The retention sweep settings of the services that own a retention class
(docs/retention.md#sweeps), from retention, as YAML of a map:
RETENTION_SWEEP_INTERVAL_MS and RETENTION_SWEEP_BATCH. An empty value (or null)
leaves the service's default; services.<service>.env wins over these.
*/}}
{{- define "dsar.retentionConfig" -}}
{{- $r := .Values.retention | default dict }}
{{- $cfg := dict }}
{{- range $variable, $value := dict "RETENTION_SWEEP_INTERVAL_MS" $r.sweepIntervalMs "RETENTION_SWEEP_BATCH" $r.sweepBatch }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
{{- /* Whole numbers as digits: a float64 of 3600000 would print as 3.6e+06. */}}
{{- if or (kindIs "float64" $value) (kindIs "int" $value) (kindIs "int64" $value) }}
{{- $value = int64 $value }}
{{- end }}
{{- $_ := set $cfg $variable (toString $value) }}
{{- end }}
{{- end }}
{{- toYaml $cfg }}
{{- end }}

{{/*
The Secret with the notifier's DKIM private key when DKIM is configured
(notifications.dkim.domain): notifications.dkim.existingSecret, else
notifications.existingSecret; empty otherwise. Fails on half a configuration:
the notifier refuses to start without all three of domain, selector and key.
*/}}
{{- define "dsar.dkimSecret" -}}
{{- $n := .Values.notifications | default dict }}
{{- $dkim := $n.dkim | default dict }}
{{- if or $dkim.domain $dkim.selector }}
{{- if not (and $dkim.domain $dkim.selector) }}
{{- fail "notifications.dkim: give both domain and selector (NOTIFIER_DKIM_DOMAIN, NOTIFIER_DKIM_SELECTOR), or neither; the notifier refuses to start with only one." }}
{{- end }}
{{- $secret := $dkim.existingSecret | default $n.existingSecret }}
{{- if not $secret }}
{{- fail "notifications.dkim: DKIM signing needs the private key from a Secret: set notifications.dkim.existingSecret (or notifications.existingSecret) naming a Secret with the PEM under notifications.dkim.privateKeyKey. See docs/notifications.md." }}
{{- end }}
{{- $secret }}
{{- end }}
{{- end }}

{{/*
Where the notifier's pods mount the DKIM private key (read-only), and the file's
name there: NOTIFIER_DKIM_PRIVATE_KEY_FILE is <dir>/<file>.
*/}}
{{- define "dsar.dkimDir" -}}
/etc/dsar/dkim
{{- end }}

{{- define "dsar.dkimFile" -}}
private-key.pem
{{- end }}

{{/*
Whether the notifier may send email (smtp) or Slack messages (slack), for its
egress rules: notifications.existingSecret may hold SMTP_URL and SLACK_BOT_TOKEN
(each key optional, so both count), or services.notifier.env sets the variable
or its _FILE. Call with (dict "root" $ "channel" "smtp"|"slack").
*/}}
{{- define "dsar.notifierSends" -}}
{{- $n := .root.Values.notifications | default dict }}
{{- $own := (index .root.Values.services "notifier" | default dict).env | default dict }}
{{- $variable := ternary "SMTP_URL" "SLACK_BOT_TOKEN" (eq .channel "smtp") }}
{{- if or $n.existingSecret (index $own $variable) (index $own (printf "%s_FILE" $variable)) }}true{{ end }}
{{- end }}

{{/*
An egress rule (a map with to and ports) as YAML of a one-item list, with the
TCP port of an http(s) URL added to its ports unless they allow every port (no
ports) or list it already. Call with (dict "rule" <rule> "url" <url or "">).
*/}}
{{- define "dsar.egressRuleWithUrlPort" -}}
{{- $ports := .rule.ports | default list }}
{{- if and .url $ports }}
{{- $port := include "dsar.urlPort" .url }}
{{- $listed := false }}
{{- range $ports }}
{{- if and (eq (toString .port) $port) (eq (.protocol | default "TCP") "TCP") }}
{{- $listed = true }}
{{- end }}
{{- end }}
{{- if not $listed }}
{{- $ports = append $ports (dict "protocol" "TCP" "port" (int $port)) }}
{{- end }}
{{- end }}
- to:
    {{- toYaml (.rule.to | default list) | nindent 4 }}
  {{- with $ports }}
  ports:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}

{{/*
Non-secret database and Kafka settings of the domain services and the hook Jobs.
*/}}
{{- define "dsar.backendConfig" -}}
DB_DRIVER: postgres
DB_POOL_SIZE: {{ .Values.database.poolSize | toString | quote }}
BUS_DRIVER: kafka
KAFKA_BROKERS: {{ required "kafka.brokers: the Kafka bootstrap brokers, host:port[,host:port]" .Values.kafka.brokers | quote }}
KAFKA_TOPIC_PREFIX: {{ .Values.kafka.topicPrefix | default "" | quote }}
KAFKA_GROUP_PREFIX: {{ .Values.kafka.groupPrefix | default "" | quote }}
KAFKA_CLIENT_ID: {{ .Values.kafka.clientId | default "" | quote }}
{{- end }}

{{/*
sha256 of one service's ConfigMap data: the pod annotation checksum/config, so
that a change of a non-secret setting rolls that service's pods.
*/}}
{{- define "dsar.configChecksum" -}}
{{- include "dsar.configData" . | sha256sum }}
{{- end }}

{{/*
The EnvVar of the PostgreSQL URL, by reference to database.existingSecret.
*/}}
{{- define "dsar.databaseUrlEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "database.existingSecret: name a Secret holding the PostgreSQL URL" .Values.database.existingSecret | quote }}
      key: {{ .Values.database.urlKey | default "DATABASE_URL" | quote }}
{{- end }}

{{/*
Secret environment of one service: secretKeyRefs only (the chart never creates
a Secret). A variable set in services.<service>.env wins (it is in the
ConfigMap, and an env entry would override it), so it is skipped here.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.secretEnv" -}}
{{- $root := .root }}
{{- $svc := index $root.Values.services .name }}
{{- $own := $svc.env | default dict }}
{{- /* The key every process signs and checks the caller's identity with (docs/adr/0020). */}}
{{- if not (hasKey $own "INTERNAL_AUTH_KEY") }}
- name: INTERNAL_AUTH_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $root.Values.internalAuth.existingSecret | quote }}
      key: {{ $root.Values.internalAuth.key | default "INTERNAL_AUTH_KEY" | quote }}
{{- end }}
{{- if eq .name "api-gateway" }}
{{- $auth := $root.Values.auth }}
{{- if $auth.existingSecret }}
{{- /* Optional keys: a Secret may hold API keys, a JWT secret or both. */}}
{{- if not (hasKey $own "DSAR_API_KEYS") }}
- name: DSAR_API_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ $auth.existingSecret | quote }}
      key: {{ $auth.apiKeysKey | default "DSAR_API_KEYS" | quote }}
      optional: true
{{- end }}
{{- if not (hasKey $own "AUTH_JWT_SECRET") }}
- name: AUTH_JWT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $auth.existingSecret | quote }}
      key: {{ $auth.jwtSecretKey | default "AUTH_JWT_SECRET" | quote }}
      optional: true
{{- end }}
{{- end }}
{{- else if not (hasKey $own "DATABASE_URL") }}
{{ include "dsar.databaseUrlEnv" $root }}
{{- end }}
{{- if include "dsar.keepsFiles" . }}
{{- $storage := $root.Values.storage | default dict }}
{{- $masterKey := $storage.masterKey | default dict }}
{{- if and $masterKey.existingSecret (not (hasKey $own "STORAGE_MASTER_KEY")) }}
{{- /* The master key of the service's encrypted file storage (docs/storage.md). */}}
- name: STORAGE_MASTER_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $masterKey.existingSecret | quote }}
      key: {{ $masterKey.key | default "STORAGE_MASTER_KEY" | quote }}
{{- end }}
{{- $previousKeys := $storage.previousMasterKeys | default dict }}
{{- if and $previousKeys.existingSecret (not (hasKey $own "STORAGE_PREVIOUS_MASTER_KEYS")) }}
{{- /* Earlier master keys, while rotating the master key (docs/storage.md#master-key-rotation). */}}
- name: STORAGE_PREVIOUS_MASTER_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ $previousKeys.existingSecret | quote }}
      key: {{ $previousKeys.key | default "STORAGE_PREVIOUS_MASTER_KEYS" | quote }}
{{- end }}
{{- $credentials := ($storage.s3 | default dict).credentials | default dict }}
{{- if and (eq (include "dsar.storageDriver" .) "s3") $credentials.existingSecret }}
{{- /* Static S3 keys, read by the AWS SDK's default chain; optional, so a Secret may hold neither. */}}
{{- range $variable, $key := dict "AWS_ACCESS_KEY_ID" ($credentials.accessKeyIdKey | default "AWS_ACCESS_KEY_ID") "AWS_SECRET_ACCESS_KEY" ($credentials.secretAccessKeyKey | default "AWS_SECRET_ACCESS_KEY") }}
{{- if not (hasKey $own $variable) }}
- name: {{ $variable }}
  valueFrom:
    secretKeyRef:
      name: {{ $credentials.existingSecret | quote }}
      key: {{ $key | quote }}
      optional: true
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- $notifications := $root.Values.notifications | default dict }}
{{- if and (eq .name "notifier") $notifications.existingSecret }}
{{- /* The SMTP URL (it carries the password) and the Slack bot token; optional, so a Secret may hold either. A variable or its _FILE in services.notifier.env wins. */}}
{{- range $variable, $key := dict "SMTP_URL" ($notifications.smtpUrlKey | default "SMTP_URL") "SLACK_BOT_TOKEN" ($notifications.slackBotTokenKey | default "SLACK_BOT_TOKEN") }}
{{- if not (or (hasKey $own $variable) (hasKey $own (printf "%s_FILE" $variable))) }}
- name: {{ $variable }}
  valueFrom:
    secretKeyRef:
      name: {{ $notifications.existingSecret | quote }}
      key: {{ $key | quote }}
      optional: true
{{- end }}
{{- end }}
{{- end }}
{{- $reference := $root.Values.requestReference | default dict }}
{{- if and (has .name (list "notifier" "intake-gateway")) $reference.existingSecret (not (hasKey $own "REQUEST_REFERENCE_KEY")) (not (hasKey $own "REQUEST_REFERENCE_KEY_FILE")) }}
{{- /* The key that tags (notifier) and checks (intake-gateway) the request references of emails to data subjects (docs/webhooks.md#replies). */}}
- name: REQUEST_REFERENCE_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $reference.existingSecret | quote }}
      key: {{ $reference.key | default "REQUEST_REFERENCE_KEY" | quote }}
{{- end }}
{{- $identity := $root.Values.identityIndex | default dict }}
{{- if and (eq .name "lifecycle-clock") $identity.existingSecret (not (hasKey $own "IDENTITY_INDEX_KEY")) (not (hasKey $own "IDENTITY_INDEX_KEY_FILE")) }}
{{- /* The key of the identity index, which finds a tenant's requests by a person's identity (docs/identity.md); lifecycle-clock's alone. */}}
- name: IDENTITY_INDEX_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $identity.existingSecret | quote }}
      key: {{ $identity.key | default "IDENTITY_INDEX_KEY" | quote }}
{{- end }}
{{- $webhooks := $root.Values.webhooks | default dict }}
{{- if and (eq .name "intake-gateway") $webhooks.existingSecret }}
{{- /* The inbound webhooks' signing secrets (docs/webhooks.md); optional, so a Secret may hold one of them. A variable in services.intake-gateway.env wins. */}}
{{- range $variable, $key := dict "MAIL_WEBHOOK_SECRET" ($webhooks.mailSecretKey | default "MAIL_WEBHOOK_SECRET") "SLACK_SIGNING_SECRET" ($webhooks.slackSigningSecretKey | default "SLACK_SIGNING_SECRET") }}
{{- if not (hasKey $own $variable) }}
- name: {{ $variable }}
  valueFrom:
    secretKeyRef:
      name: {{ $webhooks.existingSecret | quote }}
      key: {{ $key | quote }}
      optional: true
{{- end }}
{{- end }}
{{- end }}
{{- if and (eq .name "audit-ledger") $root.Values.audit.signingKey.existingSecret (not (hasKey $own "AUDIT_SIGNING_KEY")) }}
{{- /* The Ed25519 key that signs audit checkpoints (docs/audit.md#checkpoints). */}}
- name: AUDIT_SIGNING_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $root.Values.audit.signingKey.existingSecret | quote }}
      key: {{ $root.Values.audit.signingKey.key | default "AUDIT_SIGNING_KEY" | quote }}
{{- end }}
{{- end }}

{{/*
Whether a service keeps files through @dsar/platform/storage (docs/storage.md)
and so gets the storage settings (storage.driver, the master key, the S3
settings and credentials, egress to S3): verification (identity evidence),
fulfilment-delivery (artifacts), and any service with a persistence block.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.keepsFiles" -}}
{{- $svc := index .root.Values.services .name | default dict }}
{{- if or (has .name (list "verification" "fulfilment-delivery")) $svc.persistence }}true{{ end }}
{{- end }}

{{/*
The storage driver of the services that keep files: storage.driver, else
filesystem. A STORAGE_DRIVER in services.<service>.env must agree with it
(dsar.validateStorage). Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.storageDriver" -}}
{{- (.root.Values.storage | default dict).driver | default "filesystem" }}
{{- end }}

{{/*
The folder of a service's files in the bucket (S3_PREFIX) with the s3 driver.
The services share storage.s3.bucket but not a folder, as each has its own
volume with the filesystem driver: each keeps its own tenant data keys
(keys/<tenant>.key), so a volume can be copied into the bucket as it is.
verification keeps storage.s3.prefix itself (its folder since chart 0.4.0);
every other service the sub-folder of its name, <prefix>/<service> (e.g.
fulfilment-delivery). Empty: the bucket's root. S3_PREFIX in
services.<service>.env wins. Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.s3Prefix" -}}
{{- $prefix := (((.root.Values.storage | default dict).s3 | default dict).prefix | default "") | toString }}
{{- if eq .name "verification" }}
{{- $prefix }}
{{- else }}
{{- $base := trimAll "/" $prefix }}
{{- if $base }}{{ printf "%s/%s" $base .name }}{{ else }}{{ .name }}{{ end }}
{{- end }}
{{- end }}

{{/*
The storage volume of a service, as YAML of its persistence block: only with
the filesystem driver (the s3 driver needs no volume); empty otherwise.
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.storageVolume" -}}
{{- $svc := index .root.Values.services .name | default dict }}
{{- if and $svc.persistence (ne (include "dsar.storageDriver" .) "s3") }}
{{- toYaml $svc.persistence }}
{{- end }}
{{- end }}

{{/*
Checks the storage settings of a service that keeps files: no STORAGE_DRIVER in
its env that contradicts storage.driver, and with s3 a bucket (the service
refuses to start without one). Reads the
settings as the process gets them (services.<service>.env included).
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.validateStorage" -}}
{{- if include "dsar.keepsFiles" . }}
{{- $cfg := include "dsar.configData" . | fromYaml }}
{{- $driver := include "dsar.storageDriver" . }}
{{- $own := index ((index .root.Values.services .name).env | default dict) "STORAGE_DRIVER" | default "" | toString }}
{{- /* 0.3.0 had STORAGE_DRIVER in services.verification.env: a copied values file, or helm upgrade --reuse-values, still has it. One driver serves every service that keeps files. */}}
{{- if and $own (ne $own $driver) }}
{{- fail (printf "services.%s.env.STORAGE_DRIVER (%s) contradicts storage.driver (%s): the storage driver of every service that keeps files (verification, fulfilment-delivery) is set by storage.driver since chart 0.4.0. Remove services.%s.env.STORAGE_DRIVER (a values file copied from an older chart may have it; with helm upgrade --reuse-values, --set services.%s.env.STORAGE_DRIVER=null)." .name $own $driver .name .name) }}
{{- end }}
{{- if eq $driver "s3" }}
{{- if not $cfg.S3_BUCKET }}
{{- fail (printf "storage.s3.bucket: storage.driver is s3, so %s keeps its files in an S3 bucket and needs its name (S3_BUCKET). Name an existing bucket (the service never creates one), or use storage.driver filesystem. See docs/storage.md#the-s3-driver." .name) }}
{{- end }}
{{- with $cfg.S3_ENDPOINT }}
{{- if not (regexMatch "^https?://[^/?#]+" .) }}
{{- fail (printf "storage.s3.endpoint must be the http(s) URL of an S3-compatible server, got %q" .) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The TCP port of an http(s) URL: its own, else 80 for http and 443 for https.
*/}}
{{- define "dsar.urlPort" -}}
{{- $url := urlParse . }}
{{- $port := regexFind ":[0-9]+$" $url.host | trimPrefix ":" }}
{{- if $port }}{{ $port }}{{ else if eq $url.scheme "https" }}443{{ else }}80{{ end }}
{{- end }}

{{/*
Where a service with a persistence block keeps its files (STORAGE_DIR): the
mount path of its storage volume, the only writable place besides /tmp.
*/}}
{{- define "dsar.storageDir" -}}
/var/lib/dsar/storage
{{- end }}

{{/*
The PersistentVolumeClaim of a service's storage: persistence.existingClaim, or
the one the chart creates, "<fullname>-<service>-storage".
Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.storageClaimName" -}}
{{- $p := (index .root.Values.services .name).persistence | default dict }}
{{- if $p.existingClaim }}
{{- $p.existingClaim }}
{{- else }}
{{- printf "%s-storage" (include "dsar.serviceFullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/*
Whether a service's storage volume can be mounted by several pods on several
nodes: a claim with ReadWriteMany. Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.storageShared" -}}
{{- $p := include "dsar.storageVolume" . | fromYaml }}
{{- if and $p.enabled (has "ReadWriteMany" ($p.accessModes | default list)) }}true{{ end }}
{{- end }}

{{/*
Whether a service may run more than one pod: replicas above 1, or autoscaling
up to more than 1. Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.severalPods" -}}
{{- $svc := index .root.Values.services .name }}
{{- $hpa := $svc.autoscaling | default dict }}
{{- if $hpa.enabled }}
{{- if gt (int ($hpa.maxReplicas | default 1)) 1 }}true{{ end }}
{{- else if gt (int ($svc.replicas | default 1)) 1 }}true{{ end }}
{{- end }}

{{/*
Checks a service's storage volume (filesystem driver only; s3 has none): every
pod must see the same files, and STORAGE_DIR must be in the volume (the root
file system is read-only). Call with (dict "root" $ "name" "<service>").
*/}}
{{- define "dsar.validatePersistence" -}}
{{- $svc := index .root.Values.services .name }}
{{- $p := include "dsar.storageVolume" . | fromYaml }}
{{- if $p }}
{{- $several := include "dsar.severalPods" . }}
{{- if and (not $p.enabled) $several }}
{{- fail (printf "services.%s.persistence.enabled is false (an emptyDir): each pod would keep its own files and lose them when it goes, so a file uploaded through one pod could not be read through another. To try the chart out, run one pod (services.%s.replicas: 1, autoscaling off); otherwise keep persistence on with a ReadWriteMany volume, or keep the files in S3 (storage.driver: s3)." .name .name) }}
{{- end }}
{{- if and $p.enabled $several (not (include "dsar.storageShared" .)) }}
{{- fail (printf "services.%s.persistence.accessModes has no ReadWriteMany, but the service may run more than one pod (replicas or autoscaling) and every pod must see the same files. Give a ReadWriteMany volume (a StorageClass on NFS, CephFS, EFS, ...) or run one pod (services.%s.replicas: 1, autoscaling off), or keep the files in S3 (storage.driver: s3)." .name .name) }}
{{- end }}
{{- $dir := index ($svc.env | default dict) "STORAGE_DIR" | default "" | toString }}
{{- $mount := include "dsar.storageDir" . }}
{{- if and $dir (ne $dir $mount) (not (hasPrefix (printf "%s/" $mount) $dir)) }}
{{- fail (printf "services.%s.env.STORAGE_DIR (%s) must be %s or a directory under it: the root file system is read-only, and only that volume keeps the files." .name $dir $mount) }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Whether the chart creates the per-service ServiceAccounts: serviceAccount.create,
unless serviceAccountName names an existing one (0.1.x behaviour, which wins).
*/}}
{{- define "dsar.createServiceAccounts" -}}
{{- if and .Values.serviceAccount.create (not .Values.serviceAccountName) }}true{{ end }}
{{- end }}

{{/*
Name of one service's ServiceAccount.
*/}}
{{- define "dsar.serviceAccountName" -}}
{{- if include "dsar.createServiceAccounts" .root }}
{{- include "dsar.serviceFullname" . }}
{{- else }}
{{- .root.Values.serviceAccountName | default "default" }}
{{- end }}
{{- end }}

{{/*
The hook Jobs' settings: migrations.* / topics.*, overridden by the deprecated
provisioning.* when that is set. Call with (dict "root" $ "job" "migrations"|"topics");
returns YAML with enabled, backoffLimit, activeDeadlineSeconds, ttlSecondsAfterFinished, resources.
*/}}
{{- define "dsar.jobSettings" -}}
{{- $job := index .root.Values .job | default dict }}
{{- $old := .root.Values.provisioning | default dict }}
{{- $step := ternary "migrate" "createTopics" (eq .job "migrations") }}
{{- $enabled := and $job.enabled (ne (toString (index $old "enabled")) "false") (ne (toString (index $old $step)) "false") }}
{{- $out := dict "enabled" $enabled "backoffLimit" $job.backoffLimit "activeDeadlineSeconds" $job.activeDeadlineSeconds "ttlSecondsAfterFinished" $job.ttlSecondsAfterFinished "resources" ($job.resources | default dict) }}
{{- range $k := list "backoffLimit" "activeDeadlineSeconds" "resources" }}
{{- if hasKey $old $k }}
{{- $_ := set $out $k (index $old $k) }}
{{- end }}
{{- end }}
{{- toYaml $out }}
{{- end }}

{{/*
Pod-level settings shared by the Deployments and the hook Jobs. Call with
(dict "root" $ "serviceAccountName" "<name>").
*/}}
{{- define "dsar.podCommon" -}}
{{- $root := .root }}
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .serviceAccountName }}
serviceAccountName: {{ . }}
{{- end }}
automountServiceAccountToken: false
{{- with $root.Values.podSecurityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
Whether a service runs more than one pod (for its PodDisruptionBudget).
*/}}
{{- define "dsar.multiReplica" -}}
{{- $svc := index .root.Values.services .name }}
{{- $hpa := $svc.autoscaling | default dict }}
{{- if $hpa.enabled }}
{{- if gt (int ($hpa.minReplicas | default 1)) 1 }}true{{ end }}
{{- else if gt (int ($svc.replicas | default 1)) 1 }}true{{ end }}
{{- end }}
