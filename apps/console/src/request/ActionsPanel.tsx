import type { LifecycleAction, RequestDetail, SessionView } from '@dsar/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAuth } from '../auth/auth';
import { ProblemView } from '../components/ProblemView';
import type { Problem } from '../problem';
import { useJurisdictions } from '../use-jurisdictions';
import { ACT_PERMISSION, type ActionSpec, type FieldSpec, initialValues, missingFields, offeredActions } from './actions';
import { FormButtons } from '../components/FormButtons';

const FORM_ID = 'action-form';

/**
 * The workflow actions the request allows now and the caller may run, each a button opening its form. A refused
 * action shows the API's problem next to the form; a done one closes it and reads the request again.
 */
export function ActionsPanel({ request, session, onDone }: { request: RequestDetail; session: SessionView; onDone: (label: string) => void }) {
  const offered = offeredActions(request.allowedActions ?? [], session.permissions);
  const [open, setOpen] = useState<LifecycleAction | null>(null);
  const openers = useRef<HTMLUListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const spec = offered.find((s) => s.action === open) ?? null;

  const close = (action: LifecycleAction) => {
    setOpen(null);
    // Back to the button that opened the form.
    openers.current?.querySelector<HTMLElement>(`[data-action="${action}"]`)?.focus();
  };

  return (
    <section class="panel actions" aria-labelledby="actions-heading">
      <h2 id="actions-heading" ref={heading} tabIndex={-1}>
        Actions
      </h2>
      {!session.permissions.includes(ACT_PERMISSION) ? (
        <p class="muted">Your roles do not include workflow actions.</p>
      ) : offered.length === 0 ? (
        <p class="muted">No workflow action is possible in this status.</p>
      ) : (
        <ul class="action-buttons" ref={openers}>
          {offered.map((s) => (
            <li key={s.action}>
              <button
                type="button"
                data-action={s.action}
                aria-expanded={open === s.action ? 'true' : 'false'}
                aria-controls={open === s.action ? FORM_ID : undefined}
                class={open === s.action ? 'selected' : undefined}
                onClick={() => setOpen(open === s.action ? null : s.action)}
              >
                {s.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      {spec ? (
        <ActionForm
          key={spec.action}
          spec={spec}
          requestId={request.id}
          onCancel={() => close(spec.action)}
          onDone={() => {
            setOpen(null);
            // The button may be gone once the request is read again (its action no longer allowed): focus stays in the panel.
            heading.current?.focus();
            onDone(spec.label);
          }}
        />
      ) : null}
    </section>
  );
}

function ActionForm({ spec, requestId, onCancel, onDone }: { spec: ActionSpec; requestId: string; onCancel: () => void; onDone: () => void }) {
  const { api } = useAuth();
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(spec));
  const [missing, setMissing] = useState<string[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, select, textarea, button[type="submit"]')?.focus();
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const empty = missingFields(spec, values);
    setMissing(empty);
    if (empty.length > 0) {
      formRef.current?.querySelector<HTMLElement>(`[name="${empty[0]}"]`)?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    const path = spec.path(requestId);
    const body = spec.body(values);
    const result = spec.method === 'PUT' ? await api.put(path, body) : await api.post(path, body);
    setBusy(false);
    if (result.ok) onDone();
    else setProblem(result.problem);
  };

  return (
    <form id={FORM_ID} class="action-form" ref={formRef} onSubmit={submit} noValidate aria-labelledby="action-form-heading">
      <h3 id="action-form-heading">{spec.label}</h3>
      <p class="muted">{spec.description}</p>
      {spec.fields.map((field) => (
        <Field key={field.name} field={field} value={values[field.name] ?? ''} missing={missing.includes(field.name)} onChange={(v) => setValues((before) => ({ ...before, [field.name]: v }))} />
      ))}
      {problem ? <ProblemView problem={problem} context={`${spec.label} was refused`} /> : null}
      <FormButtons submit="Confirm" busy={busy} onCancel={onCancel} />
    </form>
  );
}

function Field({ field, value, missing, onChange }: { field: FieldSpec; value: string; missing: boolean; onChange: (value: string) => void }) {
  const jurisdictions = useJurisdictions();
  const id = `action-${field.name}`;
  const describedBy = [field.hint ? `${id}-hint` : null, missing ? `${id}-missing` : null].filter(Boolean).join(' ') || undefined;
  const common = { id, name: field.name, 'aria-describedby': describedBy, 'aria-invalid': missing ? ('true' as const) : undefined, required: field.required };
  const textInput = (e: Event) => onChange((e.currentTarget as HTMLInputElement).value);
  const label = (
    <label for={id}>
      {field.label}
      {field.required ? <span class="required"> (required)</span> : null}
    </label>
  );
  const notes = (
    <>
      {field.hint ? (
        <p id={`${id}-hint`} class="hint">
          {field.hint}
        </p>
      ) : null}
      {missing ? (
        <p id={`${id}-missing`} class="field-error">
          Required.
        </p>
      ) : null}
    </>
  );

  if (field.kind === 'checkbox') {
    return (
      <div class="field field-check">
        <input {...common} type="checkbox" checked={value === 'true'} onChange={(e) => onChange(String(e.currentTarget.checked))} />
        {label}
        {notes}
      </div>
    );
  }
  let control;
  if (field.kind === 'select' || (field.kind === 'jurisdiction' && jurisdictions)) {
    const options = field.kind === 'select' ? field.options : (jurisdictions ?? []).map((code) => ({ value: code, label: code }));
    const empty = field.kind === 'select' ? field.emptyLabel : 'Unchanged';
    control = (
      <select {...common} value={value} onChange={textInput}>
        <option value="">{empty ?? 'Choose…'}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'textarea') {
    control = <textarea {...common} rows={3} maxLength={field.maxLength} value={value} onInput={textInput} />;
  } else if (field.kind === 'number') {
    control = <input {...common} type="number" inputMode="numeric" min={field.min} max={field.max} value={value} onInput={textInput} />;
  } else if (field.kind === 'datetime') {
    control = <input {...common} type="datetime-local" value={value} onInput={textInput} />;
  } else {
    const pattern = field.kind === 'text' ? field.pattern : undefined;
    const maxLength = field.kind === 'text' ? field.maxLength : 16;
    control = <input {...common} type="text" autoComplete="off" maxLength={maxLength} pattern={pattern} value={value} onInput={textInput} />;
  }
  return (
    <div class="field">
      {label}
      {control}
      {notes}
    </div>
  );
}
