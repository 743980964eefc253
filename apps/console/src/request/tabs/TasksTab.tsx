import type { TaskView } from '@dsar/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAuth } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { ProblemView } from '../../components/ProblemView';
import { labelOf } from '../../labels';
import type { Problem } from '../../problem';
import { useApiGet } from '../../use-api';
import {
  answerLines,
  DATA_SYSTEM_ACTION_LABELS,
  ERASURE_METHOD_LABELS,
  ERASURE_RESULT_LABELS,
  missingTaskFields,
  needsErasure,
  offeredTaskActions,
  TASK_ACTION_LABELS,
  TASK_STATE_LABELS,
  type TaskActionValues,
  type TaskOperatorAction,
  taskActionBody,
} from './tasks';
import type { TabProps } from './VerificationTab';
import { FormButtons } from '../../components/FormButtons';

const tasksPath = (id: string) => `/requests/${encodeURIComponent(id)}/tasks`;

interface Opened {
  taskId: string;
  kind: TaskOperatorAction;
}

/** The request's data-system tasks (one per system and action) with what an operator may do: retry, skip with a reason, mark done. */
export function TasksTab({ detail, session, reload }: TabProps) {
  const loaded = useApiGet<{ items: TaskView[] }>(tasksPath(detail.id));
  const [opened, setOpened] = useState<Opened | null>(null);
  const [done, setDone] = useState('');
  const table = useRef<HTMLTableElement>(null);
  const { result } = loaded;
  const tasks = result?.ok ? result.data.items : [];
  const task = opened ? tasks.find((t) => t.id === opened.taskId) : undefined;

  const close = (focusBack: Opened) => {
    setOpened(null);
    table.current?.querySelector<HTMLElement>(`[data-task="${focusBack.taskId}"][data-kind="${focusBack.kind}"]`)?.focus();
  };

  return (
    <div class="tab-tasks">
      <h3>Systems and tasks</h3>
      <p role="status" class="done">
        {done}
      </p>
      {!result ? <p role="status">Loading the tasks…</p> : null}
      {result && !result.ok ? <ProblemView problem={result.problem} context="The tasks could not be read" /> : null}
      {result?.ok && tasks.length === 0 ? <p>No data system has a task for this request (yet).</p> : null}
      {tasks.length > 0 ? (
        <table class="queue" aria-label="Tasks" ref={table}>
          <thead>
            <tr>
              <th scope="col">System</th>
              <th scope="col">Action</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">Due</th>
              <th scope="col">Operator</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((t) => (
              <tr key={t.id}>
                <th scope="row" data-label="System">
                  {t.systemKey}
                  {t.required ? null : <span class="tag">optional</span>}
                  <span class="tag">{t.mode}</span>
                </th>
                <td data-label="Action">{labelOf(DATA_SYSTEM_ACTION_LABELS, t.action)}</td>
                <td data-label="Status">
                  {labelOf(TASK_STATE_LABELS, t.state)}
                  {t.stateReason ? <span class="muted"> ({t.stateReason.replace(/_/g, ' ')})</span> : null}
                  <TaskAnswerView task={t} />
                </td>
                <td data-label="Attempts">
                  {t.attempts} of {t.maxAttempts}
                </td>
                <td data-label="Last error">
                  {t.lastError ? (
                    <>
                      {t.lastError.message}
                      {t.lastError.code ? (
                        <>
                          {' '}
                          <code>{t.lastError.code}</code>
                        </>
                      ) : null}
                    </>
                  ) : (
                    <span class="muted">None</span>
                  )}
                </td>
                <td data-label="Due">
                  <DateTime value={t.dueAt} />
                </td>
                <td data-label="Operator">
                  <div class="form-buttons">
                    {offeredTaskActions(t, session.permissions).map((kind) => (
                      <button
                        key={kind}
                        type="button"
                        data-task={t.id}
                        data-kind={kind}
                        aria-expanded={opened?.taskId === t.id && opened.kind === kind ? 'true' : 'false'}
                        aria-controls={opened?.taskId === t.id && opened.kind === kind ? 'task-action-form' : undefined}
                        onClick={() => setOpened(opened?.taskId === t.id && opened.kind === kind ? null : { taskId: t.id, kind })}
                      >
                        {TASK_ACTION_LABELS[kind]}
                        <span class="visually-hidden"> {t.systemKey}</span>
                      </button>
                    ))}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {opened && task ? (
        <TaskActionForm
          key={`${opened.taskId}-${opened.kind}`}
          requestId={detail.id}
          task={task}
          kind={opened.kind}
          onCancel={() => close(opened)}
          onDone={(words) => {
            setOpened(null);
            setDone(words);
            loaded.reload();
            reload();
          }}
        />
      ) : null}
    </div>
  );
}

/** What settled the task: the answer's words, and who answered when. */
function TaskAnswerView({ task }: { task: TaskView }) {
  const lines = answerLines(task.answer);
  if (lines.length === 0) return null;
  return (
    <div class="task-answer">
      {lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
      {task.answeredBy && task.answeredAt ? (
        <p class="muted">
          Answered by {task.answeredBy} on <DateTime value={task.answeredAt} />
        </p>
      ) : null}
    </div>
  );
}

const FORM_HEADINGS: Readonly<Record<TaskOperatorAction, string>> = {
  retry: 'Retry the task',
  skip: 'Skip the task',
  complete: 'Mark the task done',
};

const DONE_WORDS: Readonly<Record<TaskOperatorAction, string>> = {
  retry: 'queued again',
  skip: 'skipped',
  complete: 'marked done',
};

function TaskActionForm({ requestId, task, kind, onCancel, onDone }: { requestId: string; task: TaskView; kind: TaskOperatorAction; onCancel: () => void; onDone: (words: string) => void }) {
  const { api } = useAuth();
  const [values, setValues] = useState<TaskActionValues>({ outcome: 'complete', erasureResult: 'erased', erasureMethod: 'delete' });
  const [missing, setMissing] = useState<string[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);

  const set = (name: keyof TaskActionValues) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    setValues((before) => ({ ...before, [name]: value }));
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const empty = missingTaskFields(kind, task.action, values);
    setMissing(empty);
    if (empty.length > 0) {
      form.current?.querySelector<HTMLElement>(`[name="${empty[0]}"]`)?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    const result = await api.post(`${tasksPath(requestId)}/${encodeURIComponent(task.id)}/${kind}`, taskActionBody(kind, task.action, values, new Date()));
    setBusy(false);
    if (result.ok) onDone(`The task of ${task.systemKey} was ${DONE_WORDS[kind]}.`);
    else setProblem(result.problem);
  };

  const field = (name: keyof TaskActionValues, label: string, control: 'text' | 'textarea' | 'number' | 'datetime', options: { required?: boolean; hint?: string; maxLength?: number } = {}) => {
    const id = `task-${name}`;
    const isMissing = missing.includes(name);
    const describedBy = [options.hint ? `${id}-hint` : null, isMissing ? `${id}-missing` : null].filter(Boolean).join(' ') || undefined;
    const common = { id, name, value: values[name] ?? '', onInput: set(name), required: options.required, 'aria-invalid': isMissing ? ('true' as const) : undefined, 'aria-describedby': describedBy };
    return (
      <div class="field">
        <label for={id}>
          {label}
          {options.required ? <span class="required"> (required)</span> : null}
        </label>
        {control === 'textarea' ? (
          <textarea {...common} rows={3} maxLength={options.maxLength ?? 2000} />
        ) : control === 'number' ? (
          <input {...common} type="number" inputMode="numeric" min={0} />
        ) : control === 'datetime' ? (
          <input {...common} type="datetime-local" />
        ) : (
          <input {...common} type="text" autoComplete="off" maxLength={options.maxLength ?? 200} />
        )}
        {options.hint ? (
          <p id={`${id}-hint`} class="hint">
            {options.hint}
          </p>
        ) : null}
        {isMissing ? (
          <p id={`${id}-missing`} class="field-error">
            Required.
          </p>
        ) : null}
      </div>
    );
  };

  const select = (name: keyof TaskActionValues, label: string, options: Array<[string, string]>) => (
    <div class="field">
      <label for={`task-${name}`}>{label}</label>
      <select id={`task-${name}`} name={name} value={values[name] ?? ''} onChange={set(name)}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );

  const erasure = kind === 'complete' && needsErasure(task.action, values.outcome);
  return (
    <form id="task-action-form" class="action-form" ref={form} onSubmit={submit} noValidate aria-labelledby="task-action-heading">
      <h4 id="task-action-heading">
        {FORM_HEADINGS[kind]}: {task.systemKey} ({labelOf(DATA_SYSTEM_ACTION_LABELS, task.action).toLowerCase()})
      </h4>
      {kind === 'retry' ? field('reason', 'Reason', 'textarea', { hint: 'Recorded in the audit chain.' }) : null}
      {kind === 'skip' ? field('reason', 'Reason', 'textarea', { required: true, hint: 'Why this system is left out; recorded in the audit chain.' }) : null}
      {kind === 'complete' ? (
        <>
          {select('outcome', 'Outcome', [
            ['complete', 'Done: the system did its part'],
            ['not_found', 'Nothing found in the system'],
          ])}
          {field('evidence', 'Evidence', 'textarea', { required: true, maxLength: 4000, hint: 'What shows the work was done: a ticket, a log line, a statement.' })}
        </>
      ) : null}
      {erasure ? (
        <fieldset class="field">
          <legend>Erasure confirmation</legend>
          {select('erasureResult', 'Result', Object.entries(ERASURE_RESULT_LABELS))}
          {select('erasureMethod', 'Method', Object.entries(ERASURE_METHOD_LABELS))}
          {field('recordsAffected', 'Records affected', 'number', { required: true })}
          {field('categoriesErased', 'Categories erased', 'text', { hint: 'Separated by commas.', maxLength: 2000 })}
          {field('performedBy', 'Performed by', 'text', { required: true, hint: 'A job, a service or a person.' })}
          {field('performedAt', 'Performed at', 'datetime', { hint: 'Default now.' })}
          {field('exceptionReason', 'Why not everything was erased', 'textarea', { hint: 'Required for a partial erasure or an exception.' })}
        </fieldset>
      ) : null}
      {problem ? <ProblemView problem={problem} context={`${TASK_ACTION_LABELS[kind]} was refused`} /> : null}
      <FormButtons submit="Confirm" busy={busy} onCancel={onCancel} />
    </form>
  );
}
