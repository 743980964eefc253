import type { Problem } from '../problem';

/** The one way a problem is shown: its title, code and detail, and the fields it names, announced as an alert. */
export function ProblemView({ problem, context }: { problem: Problem; context?: string }) {
  return (
    <div role="alert" class="problem">
      <p class="problem-title">
        {context ? `${context}: ` : ''}
        <strong>{problem.title}</strong>
        {problem.code ? (
          <>
            {' '}
            <code class="problem-code">{problem.code}</code>
          </>
        ) : null}
      </p>
      {problem.detail ? <p class="problem-detail">{problem.detail}</p> : null}
      {problem.errors && problem.errors.length > 0 ? (
        <ul class="problem-fields">
          {problem.errors.map((e, i) => (
            <li key={i}>
              {e.field ? <code>{e.field}</code> : null} {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
