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
The api-gateway's setting for an upstream service: "audit-ledger" -> "AUDIT_LEDGER_URL".
*/}}
{{- define "dsar.upstreamUrlVariable" -}}
{{- printf "%s_URL" (. | upper | replace "-" "_") }}
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
