import type { DataSystemMode, DataSystemView } from '@dsar/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAuth } from '../../auth/auth';
import { ProblemView } from '../../components/ProblemView';
import { TextField } from '../../components/TextField';
import { keysOf } from '../../labels';
import type { Problem } from '../../problem';
import {
  DATA_SYSTEM_ACTION_LABELS,
  type DataSystemFormValues,
  dataSystemBody,
  dataSystemFormErrors,
  dataSystemPath,
  emptyDataSystemForm,
  type FormError,
  formOfDataSystem,
  IDENTITY_TYPE_LABELS,
  MODE_LABELS,
  ON_TIMEOUT_LABELS,
  type SlaTimeoutAction,
  toggled,
} from './data-system-form';
import { FormButtons } from '../../components/FormButtons';

const ID = 'system';

/** Registers a data system (`existing` null) or replaces the definition of one; a refusal shows the API's problem. */
export function DataSystemForm({ existing, others, onCancel, onDone }: { existing: DataSystemView | null; others: string[]; onCancel: () => void; onDone: (key: string, created: boolean) => void }) {
  const { api } = useAuth();
  const [values, setValues] = useState<DataSystemFormValues>(() => (existing ? formOfDataSystem(existing) : emptyDataSystemForm()));
  const [errors, setErrors] = useState<FormError[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const title = existing ? `Change ${existing.key}` : 'Register a data system';

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input:not([readonly]), select')?.focus();
  }, []);

  const set = <K extends keyof DataSystemFormValues>(field: K, value: DataSystemFormValues[K]) => setValues((before) => ({ ...before, [field]: value }));
  const errorOf = (field: keyof DataSystemFormValues) => errors.find((e) => e.field === field)?.message;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = dataSystemFormErrors(values);
    setErrors(found);
    if (found.length > 0) {
      formRef.current?.querySelector<HTMLElement>(`[name="${found[0].field}"]`)?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    const result = await api.put<DataSystemView>(dataSystemPath(values.key), dataSystemBody(values));
    setBusy(false);
    if (result.ok) onDone(values.key, result.status === 201);
    else setProblem(result.problem);
  };

  const text = (
    field: 'key' | 'displayName' | 'ownerEmail' | 'ownerSlack' | 'dataCategories' | 'after' | 'webhookUrl' | 'expectedHours' | 'timeoutHours',
    label: string,
    options: { hint?: string; readOnly?: boolean; inputMode?: 'text' | 'email' | 'url' | 'numeric'; maxLength?: number } = {},
  ) => (
    <TextField id={`${ID}-${field}`} name={field} label={label} hint={options.hint} error={errorOf(field)}>
      {(common) => (
        <input
          {...common}
          type="text"
          inputMode={options.inputMode ?? 'text'}
          autoComplete="off"
          readOnly={options.readOnly}
          maxLength={options.maxLength ?? 2048}
          value={values[field]}
          onInput={(e) => set(field, e.currentTarget.value)}
        />
      )}
    </TextField>
  );

  return (
    <form class="panel admin-form" ref={formRef} onSubmit={submit} noValidate aria-labelledby={`${ID}-heading`}>
      <h2 id={`${ID}-heading`}>{title}</h2>
      <div class="admin-form-grid">
        {text('key', 'Key', { readOnly: existing !== null, maxLength: 63, hint: existing ? 'The key cannot change.' : 'Lower-case letters, digits, _ or -, e.g. crm.' })}
        {text('displayName', 'Name', { maxLength: 200 })}
        {text('ownerEmail', 'Owner email', { inputMode: 'email', maxLength: 320, hint: 'Where reminders and new manual tasks go. An email or a Slack channel is needed.' })}
        {text('ownerSlack', 'Owner Slack channel', { maxLength: 81, hint: 'Such as #privacy-crm.' })}
        <div class="field">
          <label for={`${ID}-mode`}>Mode</label>
          <select id={`${ID}-mode`} name="mode" value={values.mode} onChange={(e) => set('mode', e.currentTarget.value as DataSystemMode)}>
            {keysOf(MODE_LABELS).map((mode) => (
              <option key={mode} value={mode}>
                {MODE_LABELS[mode]}
              </option>
            ))}
          </select>
        </div>
        {values.mode === 'webhook' ? (
          <>
            {text('webhookUrl', 'Webhook URL', { inputMode: 'url', hint: 'Where tasks are sent (https).' })}
            <TextField id={`${ID}-webhookSecret`} name="webhookSecret" label="Webhook signing secret" hint="whsec_… — never shown again: give it on every change." error={errorOf('webhookSecret')}>
              {(common) => <input {...common} type="password" autoComplete="off" maxLength={100} value={values.webhookSecret} onInput={(e) => set('webhookSecret', e.currentTarget.value)} />}
            </TextField>
          </>
        ) : null}
      </div>
      <Checks
        name="actions"
        legend="What the system does for a request"
        labels={DATA_SYSTEM_ACTION_LABELS}
        ticked={values.actions}
        error={errorOf('actions')}
        onChange={(item, on) => set('actions', toggled(keysOf(DATA_SYSTEM_ACTION_LABELS), values.actions, item, on))}
      />
      <Checks
        name="identityTypes"
        legend="Identities it looks a person up by"
        labels={IDENTITY_TYPE_LABELS}
        ticked={values.identityTypes}
        error={errorOf('identityTypes')}
        onChange={(item, on) => set('identityTypes', toggled(keysOf(IDENTITY_TYPE_LABELS), values.identityTypes, item, on))}
      />
      <div class="admin-form-grid">
        {text('dataCategories', 'Data categories', { hint: 'Comma separated, such as contact_details, orders.' })}
        {text('after', 'Comes after', {
          hint:
            others.length > 0
              ? `Keys of systems that must finish first, comma separated (${others.filter((k) => k !== values.key).join(', ') || 'none other'}).`
              : 'Keys of systems that must finish first, comma separated.',
        })}
        {text('expectedHours', 'Expected hours', { inputMode: 'numeric', maxLength: 5, hint: "The system's own due date after its task is created." })}
        {text('timeoutHours', 'Timeout hours', { inputMode: 'numeric', maxLength: 5, hint: 'At least the expected hours.' })}
        <div class="field">
          <label for={`${ID}-onTimeout`}>On timeout</label>
          <select id={`${ID}-onTimeout`} name="onTimeout" value={values.onTimeout} onChange={(e) => set('onTimeout', e.currentTarget.value as SlaTimeoutAction)}>
            {keysOf(ON_TIMEOUT_LABELS).map((action) => (
              <option key={action} value={action}>
                {ON_TIMEOUT_LABELS[action]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div class="field field-check">
        <input id={`${ID}-required`} name="required" type="checkbox" checked={values.required} onChange={(e) => set('required', e.currentTarget.checked)} />
        <label for={`${ID}-required`}>Fulfilment waits for its answer</label>
      </div>
      <div class="field field-check">
        <input id={`${ID}-paused`} name="paused" type="checkbox" checked={values.paused} onChange={(e) => set('paused', e.currentTarget.checked)} />
        <label for={`${ID}-paused`}>Paused (gets no new work)</label>
      </div>
      {problem ? <ProblemView problem={problem} context={existing ? 'The change was refused' : 'The registration was refused'} /> : null}
      <FormButtons submit={existing ? 'Save changes' : 'Register'} busy={busy} onCancel={onCancel} />
    </form>
  );
}

function Checks<K extends string>({
  name,
  legend,
  labels,
  ticked,
  error,
  onChange,
}: {
  name: string;
  legend: string;
  labels: Readonly<Record<K, string>>;
  ticked: readonly K[];
  error?: string;
  onChange: (item: K, on: boolean) => void;
}) {
  const errorId = `${ID}-${name}-error`;
  return (
    <fieldset class="field" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      <div class="checks">
        {keysOf(labels).map((item, i) => (
          <label key={item} class="check">
            <input type="checkbox" name={i === 0 ? name : undefined} checked={ticked.includes(item)} onChange={(e) => onChange(item, e.currentTarget.checked)} /> {labels[item]}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} class="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
