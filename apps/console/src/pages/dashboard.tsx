import type { RequestStats, TaskStats } from '@dsar/contracts';
import { useSession } from '../auth/auth';
import { DateTime } from '../components/DateTime';
import { Link } from '../components/Link';
import { ProblemView } from '../components/ProblemView';
import { allOpenHref, countOf, deadlineFigures, type Figure, openFigures, pastDueRows, taskFigures, timeToCloseText } from '../dashboard/figures';
import { formatDate } from '../format';
import { useApiGet } from '../use-api';
import { useTitle } from '../use-title';
import './dashboard.css';

/** The dashboard (`/console/dashboard`): the figures of the caller's requests and data-system tasks, each that a queue view lists opening it. */
export function DashboardPage() {
  useTitle('Dashboard');
  const session = useSession();
  const requests = useApiGet<RequestStats>('/stats/requests');
  const tasks = useApiGet<TaskStats>('/stats/tasks');
  const refresh = () => {
    requests.reload();
    tasks.reload();
  };
  const figures = requests.result?.ok ? requests.result.data : null;

  return (
    <>
      <h1 tabIndex={-1}>Dashboard</h1>
      <div class="dashboard-intro">
        <p class="muted">
          The figures of tenant {session.tenantId}
          {session.workspaceId ? `, workspace ${session.workspaceId}` : ''}
          {figures ? (
            <>
              , as of <DateTime value={figures.asOf} />
            </>
          ) : null}
          .
        </p>
        <button type="button" onClick={refresh} disabled={requests.loading || tasks.loading}>
          Refresh
        </button>
      </div>
      {!requests.result ? <p role="status">Loading the figures…</p> : null}
      {requests.result && !requests.result.ok ? <ProblemView problem={requests.result.problem} context="The figures of the requests could not be read" /> : null}
      {figures ? <RequestFigures stats={figures} /> : null}
      <section class="dashboard-section" aria-labelledby="tasks-heading">
        <h2 id="tasks-heading">Data-system tasks</h2>
        {!tasks.result ? <p role="status">Loading the tasks…</p> : null}
        {tasks.result && !tasks.result.ok ? <ProblemView problem={tasks.result.problem} context="The figures of the tasks could not be read" /> : null}
        {tasks.result?.ok ? <TaskFigures stats={tasks.result.data} /> : null}
      </section>
    </>
  );
}

function RequestFigures({ stats }: { stats: RequestStats }) {
  const close = timeToCloseText(stats);
  return (
    <>
      <section class="dashboard-section" aria-labelledby="open-heading">
        <h2 id="open-heading">Open requests</h2>
        <p>
          <Link href={allOpenHref(stats)}>{countOf(stats.open.total, 'open request', 'open requests')}</Link>, by status:
        </p>
        <Tiles figures={openFigures(stats)} label="Open requests by status" />
      </section>
      <section class="dashboard-section" aria-labelledby="deadlines-heading">
        <h2 id="deadlines-heading">Deadlines</h2>
        <Tiles figures={deadlineFigures(stats, formatDate)} label="Deadlines" />
      </section>
      <section class="dashboard-section" aria-labelledby="close-heading">
        <h2 id="close-heading">Time to close</h2>
        <div class="tile tile-wide">
          <p class="tile-figure">{close.figure}</p>
          <p class="tile-detail">{close.detail}</p>
        </div>
      </section>
    </>
  );
}

/** Figures as tiles: the number first, its label, a line more; a figure a queue view lists is a link to it. */
function Tiles({ figures, label }: { figures: Figure[]; label: string }) {
  return (
    <ul class="tiles" aria-label={label}>
      {figures.map((figure) => {
        const body = (
          <>
            <span class="tile-figure">{figure.count.toLocaleString()}</span> <span class="tile-label">{figure.label}</span>
            {figure.alert ? <span class="visually-hidden"> (needs attention)</span> : null}
          </>
        );
        return (
          <li key={figure.key} class={`tile${figure.alert ? ' tile-alert' : ''}`}>
            {figure.href ? (
              <Link href={figure.href} class="tile-link">
                {body}
              </Link>
            ) : (
              <span class="tile-link">{body}</span>
            )}
            {figure.detail ? <span class="tile-detail">{figure.detail}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

function TaskFigures({ stats }: { stats: TaskStats }) {
  const rows = pastDueRows(stats);
  return (
    <>
      <Tiles figures={taskFigures(stats)} label="Data-system tasks" />
      {rows.length === 0 ? (
        <p>No open task is past its due date.</p>
      ) : (
        <div class="dashboard-table-wrap">
          <table class="dashboard-table" aria-label="Tasks past their due date by data system">
            <thead>
              <tr>
                <th scope="col">Data system</th>
                <th scope="col">Tasks past due</th>
                <th scope="col">Longest overdue</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.systemKey}>
                  <th scope="row">
                    {row.name} <code class="muted">{row.systemKey}</code>
                  </th>
                  <td>{row.count.toLocaleString()}</td>
                  <td>
                    {row.overdueBy}, due <DateTime value={row.oldestDueAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
