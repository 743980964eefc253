{{/*
One hook Job (migrations or topics). Call with (dict "root" $ "job" "migrations"|"topics"
"weight" "<n>" "script" "<path of the compiled entry point, under dist/>").
They run before the release's own ServiceAccounts, ConfigMaps and
NetworkPolicies exist on a first install, so their settings are inline and
they use serviceAccountName (or the namespace's default).
*/}}
{{- define "dsar.hookJob" -}}
{{- $root := .root }}
{{- $settings := include "dsar.jobSettings" . | fromYaml }}
{{- if $settings.enabled }}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ include "dsar.fullname" $root }}-{{ .job }}
  labels:
    {{- include "dsar.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .job }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: {{ .weight | quote }}
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ $settings.backoffLimit }}
  activeDeadlineSeconds: {{ $settings.activeDeadlineSeconds }}
  {{- if not (kindIs "invalid" $settings.ttlSecondsAfterFinished) }}
  ttlSecondsAfterFinished: {{ $settings.ttlSecondsAfterFinished }}
  {{- end }}
  template:
    metadata:
      labels:
        {{- include "dsar.selectorLabels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ .job }}
        {{- with $root.Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $root.Values.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      {{- include "dsar.podCommon" (dict "root" $root "serviceAccountName" $root.Values.serviceAccountName) | trim | nindent 6 }}
      restartPolicy: Never
      {{- with $root.Values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .job }}
          image: {{ include "dsar.image" $root | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          command: ["node", {{ .script | quote }}]
          env:
            - name: NODE_ENV
              value: {{ $root.Values.env.NODE_ENV | default "production" | quote }}
            - name: LOG_LEVEL
              value: {{ $root.Values.env.LOG_LEVEL | default "info" | quote }}
            {{- range $k, $v := (include "dsar.backendConfig" $root | fromYaml) }}
            - name: {{ $k }}
              value: {{ $v | toString | quote }}
            {{- end }}
            {{- if eq .job "topics" }}
            - name: KAFKA_REPLICATION_FACTOR
              value: {{ $root.Values.topics.replicationFactor | default $root.Values.kafka.replicationFactor | toString | quote }}
            {{- end }}
            - name: HOME
              value: /tmp
            {{- include "dsar.databaseUrlEnv" $root | nindent 12 }}
            {{- with $root.Values.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          {{- with $settings.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          {{- with $root.Values.securityContext }}
          securityContext:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            {{- with $root.Values.tmpVolume.sizeLimit }}
            sizeLimit: {{ . }}
            {{- end }}
{{- end }}
{{- end }}
