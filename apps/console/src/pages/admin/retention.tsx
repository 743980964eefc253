import type { RetentionClass, RetentionPolicy, RetentionReport } from '@dsar/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAuth, useSession } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { ProblemView } from '../../components/ProblemView';
import { labelOf } from '../../labels';
import type { Problem } from '../../problem';
import { useApiGet } from '../../use-api';
import { useTitle } from '../../use-title';
import './admin.css';
import {
  BLOCKED_BY_LABELS,
  formOfPolicy,
  RETENTION_CLASS_LABELS,
  RETENTION_MAX_DAYS,
  retentionBody,
  type RetentionFormError,
  retentionFormErrors,
  type RetentionFormValues,
  retentionPath,
  sweepWords,
} from './retention-form';
import { FormButtons } from '../../components/FormButtons';

const MANAGE = 'retention:manage';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** Retention (`/console/retention`): the policy of every class of the session's tenant, one class edited, and what the next sweep would purge. */
export function RetentionPage() {
  useTitle('Retention');
  const session = useSession();
  const canManage = session.permissions.includes(MANAGE);
  const path = retentionPath(session.tenantId);
  const policies = useApiGet<RetentionPolicy[]>(path);
  const report = useApiGet<RetentionReport>(`${path}/report`);
  const [editing, setEditing] = useState<RetentionPolicy | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const table = useRef<HTMLTableElement>(null);

  const finished = (retentionClass: RetentionClass) => {
    setEditing(null);
    setDone(`The policy of ${labelOf(RETENTION_CLASS_LABELS, retentionClass).toLowerCase()} was saved.`);
    policies.reload();
    report.reload();
    table.current?.querySelector<HTMLElement>(`[data-class="${retentionClass}"]`)?.focus();
  };

  return (
    <>
      <h1 tabIndex={-1}>Retention</h1>
      <p class="muted">How long each class of records of tenant {session.tenantId} is kept, and whether the service that holds it purges it.</p>
      <p role="status" class="done">
        {done ?? ''}
      </p>
      <section class="admin-section" aria-labelledby="policies-heading">
        <h2 id="policies-heading">Policies</h2>
        {!policies.result ? <p role="status">Loading the policies…</p> : null}
        {policies.result && !policies.result.ok ? <ProblemView problem={policies.result.problem} context="The policies could not be read" /> : null}
        {policies.result?.ok ? (
          <div class="admin-table-wrap">
            <table class="admin-table" aria-label="Retention policies" ref={table}>
              <thead>
                <tr>
                  <th scope="col">Class</th>
                  <th scope="col">Minimum days</th>
                  <th scope="col">Maximum days</th>
                  <th scope="col">Purge</th>
                  <th scope="col">Legal hold</th>
                  <th scope="col">Set</th>
                  {canManage ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {policies.result.data.map((policy) => (
                  <tr key={policy.class}>
                    <th scope="row">{labelOf(RETENTION_CLASS_LABELS, policy.class)}</th>
                    <td>{policy.minDays}</td>
                    <td>{policy.maxDays}</td>
                    <td>{yesNo(policy.purgeEnabled)}</td>
                    <td>{yesNo(policy.legalHoldEnabled)}</td>
                    <td>{policy.updatedAt ? <DateTime value={policy.updatedAt} /> : <span class="muted">Defaults</span>}</td>
                    {canManage ? (
                      <td>
                        <button
                          type="button"
                          data-class={policy.class}
                          aria-expanded={editing?.class === policy.class ? 'true' : 'false'}
                          onClick={() => setEditing(editing?.class === policy.class ? null : policy)}
                        >
                          Edit<span class="visually-hidden"> {labelOf(RETENTION_CLASS_LABELS, policy.class).toLowerCase()}</span>
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {editing ? <RetentionForm key={editing.class} policy={editing} path={path} onCancel={() => setEditing(null)} onDone={() => finished(editing.class)} /> : null}
      </section>
      <section class="admin-section" aria-labelledby="report-heading">
        <h2 id="report-heading">Next sweep</h2>
        {!report.result ? <p role="status">Loading the report…</p> : null}
        {report.result && !report.result.ok ? <ProblemView problem={report.result.problem} context="The report could not be made" /> : null}
        {report.result?.ok ? (
          <>
            <p class="muted">
              Counted <DateTime value={report.result.data.generatedAt} /> by the services that hold each class; nothing is purged by this report.
            </p>
            <div class="admin-table-wrap">
              <table class="admin-table" aria-label="Next sweep">
                <thead>
                  <tr>
                    <th scope="col">Class</th>
                    <th scope="col">Held by</th>
                    <th scope="col">Policy in force</th>
                    <th scope="col">Would purge</th>
                  </tr>
                </thead>
                <tbody>
                  {report.result.data.classes.map((entry) => (
                    <tr key={entry.class}>
                      <th scope="row">{labelOf(RETENTION_CLASS_LABELS, entry.class)}</th>
                      <td>{entry.owner}</td>
                      <td>
                        {entry.minDays}–{entry.maxDays} days{entry.blockedBy ? `, ${labelOf(BLOCKED_BY_LABELS, entry.blockedBy).toLowerCase()}` : ''}
                      </td>
                      <td>{sweepWords(entry)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        ) : null}
      </section>
    </>
  );
}

function RetentionForm({ policy, path, onCancel, onDone }: { policy: RetentionPolicy; path: string; onCancel: () => void; onDone: () => void }) {
  const { api } = useAuth();
  const [values, setValues] = useState<RetentionFormValues>(() => formOfPolicy(policy));
  const [errors, setErrors] = useState<RetentionFormError[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const label = labelOf(RETENTION_CLASS_LABELS, policy.class);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input')?.focus();
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = retentionFormErrors(values);
    setErrors(found);
    if (found.length > 0) {
      formRef.current?.querySelector<HTMLElement>(`[name="${found[0].field}"]`)?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    const result = await api.put<RetentionPolicy>(path, retentionBody(policy.class, values));
    setBusy(false);
    if (result.ok) onDone();
    else setProblem(result.problem);
  };

  const days = (field: 'minDays' | 'maxDays', text: string) => {
    const id = `retention-${field}`;
    const error = errors.find((e) => e.field === field)?.message;
    return (
      <div class="field">
        <label for={id}>{text}</label>
        <input
          id={id}
          name={field}
          type="number"
          inputMode="numeric"
          min={0}
          max={RETENTION_MAX_DAYS}
          value={values[field]}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onInput={(e) => {
            const value = e.currentTarget.value;
            setValues((before) => ({ ...before, [field]: value }));
          }}
        />
        {error ? (
          <p id={`${id}-error`} class="field-error">
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form class="panel admin-form" ref={formRef} onSubmit={submit} noValidate aria-labelledby="retention-form-heading">
      <h3 id="retention-form-heading">Policy of {label.toLowerCase()}</h3>
      <div class="admin-form-grid">
        {days('minDays', 'Minimum days')}
        {days('maxDays', 'Maximum days')}
      </div>
      <div class="field field-check">
        <input id="retention-purge" type="checkbox" checked={values.purgeEnabled} onChange={(e) => setValues((before) => ({ ...before, purgeEnabled: e.currentTarget.checked }))} />
        <label for="retention-purge">Purge records older than the maximum</label>
      </div>
      <div class="field field-check">
        <input id="retention-hold" type="checkbox" checked={values.legalHoldEnabled} onChange={(e) => setValues((before) => ({ ...before, legalHoldEnabled: e.currentTarget.checked }))} />
        <label for="retention-hold">Legal hold (stops every purge of the class at once)</label>
      </div>
      {problem ? <ProblemView problem={problem} context="The policy was refused" /> : null}
      <FormButtons submit="Save policy" busy={busy} onCancel={onCancel} />
    </form>
  );
}
