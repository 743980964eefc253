import type { DataSystemView, pendingTaskList } from '@dsar/contracts';
import type { z } from 'zod';
import { useRef, useState } from 'preact/hooks';
import { useAuth, useSession } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { Link } from '../../components/Link';
import { ProblemView } from '../../components/ProblemView';
import { labelOf } from '../../labels';
import type { Problem } from '../../problem';
import { referenceOf } from '../../reference';
import { requestPath } from '../../router';
import { useApiGet } from '../../use-api';
import { useTitle } from '../../use-title';
import './admin.css';
import { DATA_SYSTEM_ACTION_LABELS, dataSystemPath } from './data-system-form';
import { DataSystemForm } from './DataSystemForm';

type PendingTaskList = z.infer<typeof pendingTaskList>;

const MANAGE = 'systems:manage';
const WORK_TASKS = 'tasks:work';

type Editing = { kind: 'register' } | { kind: 'change'; system: DataSystemView } | null;

/** The data-system registry (`/console/data-systems`): the list, register or change one, delete one after a confirmation. */
export function DataSystemsPage() {
  useTitle('Data systems');
  const session = useSession();
  const canManage = session.permissions.includes(MANAGE);
  const canSeeTasks = session.permissions.includes(WORK_TASKS);
  const list = useApiGet<{ items: DataSystemView[] }>('/data-systems');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<DataSystemView | null>(null);
  const [tasksOf, setTasksOf] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const registerButton = useRef<HTMLButtonElement>(null);
  const systems = list.result?.ok ? list.result.data.items : [];

  const finished = (message: string) => {
    setEditing(null);
    setDeleting(null);
    setDone(message);
    list.reload();
    registerButton.current?.focus();
  };

  return (
    <>
      <h1 tabIndex={-1}>Data systems</h1>
      <p class="muted">The systems of your tenant that hold personal data: what each does for a request, how it gets its tasks and how long it may take.</p>
      <p role="status" class="done">
        {done ?? ''}
      </p>
      {canManage ? (
        <p>
          <button
            type="button"
            class="primary"
            ref={registerButton}
            aria-expanded={editing?.kind === 'register' ? 'true' : 'false'}
            onClick={() => {
              setDone(null);
              setDeleting(null);
              setEditing(editing?.kind === 'register' ? null : { kind: 'register' });
            }}
          >
            Register a data system
          </button>
        </p>
      ) : null}
      {editing ? (
        <DataSystemForm
          key={editing.kind === 'change' ? `change-${editing.system.key}` : 'register'}
          existing={editing.kind === 'change' ? editing.system : null}
          others={systems.map((s) => s.key)}
          onCancel={() => setEditing(null)}
          onDone={(key, created) => finished(created ? `Data system ${key} registered.` : `Data system ${key} changed.`)}
        />
      ) : null}
      {deleting ? <DeleteConfirmation system={deleting} onCancel={() => setDeleting(null)} onDone={() => finished(`Data system ${deleting.key} deleted.`)} /> : null}
      {!list.result ? <p role="status">Loading the data systems…</p> : null}
      {list.result && !list.result.ok ? <ProblemView problem={list.result.problem} context="The data systems could not be read" /> : null}
      {list.result?.ok && systems.length === 0 ? <p class="muted">No data system is registered yet.</p> : null}
      {systems.length > 0 ? (
        <div class="admin-table-wrap">
          <table class="admin-table" aria-label="Data systems">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Mode</th>
                <th scope="col">Does</th>
                <th scope="col">Owner</th>
                <th scope="col">State</th>
                <th scope="col">Changed</th>
                {canManage || canSeeTasks ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {systems.map((system) => (
                <tr key={system.key}>
                  <td>
                    <code>{system.key}</code>
                  </td>
                  <td>{system.displayName}</td>
                  <td>{system.mode}</td>
                  <td>{system.actions.map((a) => labelOf(DATA_SYSTEM_ACTION_LABELS, a)).join(', ')}</td>
                  <td>{[system.owner.email, system.owner.slackChannel].filter(Boolean).join(', ')}</td>
                  <td>
                    {system.paused ? 'Paused' : 'Active'}
                    {system.required ? '' : ', optional'}
                    {system.after.length > 0 ? <span class="muted"> (after {system.after.join(', ')})</span> : null}
                  </td>
                  <td>
                    <DateTime value={system.updatedAt} /> <span class="muted">v{system.version}</span>
                  </td>
                  {canManage || canSeeTasks ? (
                    <td>
                      <div class="row-buttons">
                        {canManage ? (
                          <>
                            <button
                              type="button"
                              onClick={() => {
                                setDone(null);
                                setDeleting(null);
                                setEditing({ kind: 'change', system });
                              }}
                            >
                              Change<span class="visually-hidden"> {system.key}</span>
                            </button>
                            <button
                              type="button"
                              onClick={() => {
                                setDone(null);
                                setEditing(null);
                                setDeleting(system);
                              }}
                            >
                              Delete<span class="visually-hidden"> {system.key}</span>
                            </button>
                          </>
                        ) : null}
                        {canSeeTasks ? (
                          <button type="button" aria-expanded={tasksOf === system.key ? 'true' : 'false'} onClick={() => setTasksOf(tasksOf === system.key ? null : system.key)}>
                            Pending tasks<span class="visually-hidden"> of {system.key}</span>
                          </button>
                        ) : null}
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {tasksOf ? <PendingTasks key={tasksOf} systemKey={tasksOf} /> : null}
    </>
  );
}

function DeleteConfirmation({ system, onCancel, onDone }: { system: DataSystemView; onCancel: () => void; onDone: () => void }) {
  const { api } = useAuth();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const result = await api.delete(dataSystemPath(system.key));
    setBusy(false);
    if (result.ok) onDone();
    else setProblem(result.problem);
  };
  return (
    <section class="panel admin-form" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete {system.key}?</h2>
      <p>
        No new task goes to <strong>{system.displayName}</strong>. Its open tasks stay on their requests and wait for an operator; answered tasks and their proof stay.
      </p>
      {problem ? <ProblemView problem={problem} context="The deletion was refused" /> : null}
      <div class="form-buttons">
        <button type="button" class="primary" disabled={busy} onClick={remove} ref={(button) => button?.focus()}>
          Delete {system.key} for good
        </button>
        <button type="button" onClick={onCancel}>
          Keep it
        </button>
      </div>
    </section>
  );
}

function PendingTasks({ systemKey }: { systemKey: string }) {
  const tasks = useApiGet<PendingTaskList>(`${dataSystemPath(systemKey)}/tasks`);
  return (
    <section class="panel" aria-labelledby="tasks-heading">
      <h2 id="tasks-heading">Pending tasks of {systemKey}</h2>
      {!tasks.result ? <p role="status">Loading the tasks…</p> : null}
      {tasks.result && !tasks.result.ok ? <ProblemView problem={tasks.result.problem} context="The tasks could not be read" /> : null}
      {tasks.result?.ok && tasks.result.data.items.length === 0 ? <p class="muted">No task waits for a claim.</p> : null}
      {tasks.result?.ok && tasks.result.data.items.length > 0 ? (
        <ul>
          {tasks.result.data.items.map((task) => (
            <li key={task.taskId}>
              <Link href={requestPath(task.requestId)}>{referenceOf(task.requestId)}</Link>: {labelOf(DATA_SYSTEM_ACTION_LABELS, task.action)}, due <DateTime value={task.dueAt} />, {task.attempt}{' '}
              {task.attempt === 1 ? 'claim' : 'claims'} so far
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
