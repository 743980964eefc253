import type { Timeline } from '@dsar/contracts';
import { DateTime } from '../components/DateTime';
import { ProblemView } from '../components/ProblemView';
import { sentenceOf } from '../format';
import type { Loaded } from '../use-api';

/** A payload's plain facts (text, numbers, yes/no), for the event's details; nested values are left out. */
function factsOf(payload: Record<string, unknown>): Array<[string, string]> {
  return Object.entries(payload)
    .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
    .map(([k, v]) => [k, String(v)]);
}

/** The request's events, oldest first, each with its facts behind a disclosure. */
export function TimelineView({ timeline }: { timeline: Loaded<Timeline> }) {
  const { result, loading } = timeline;
  if (!result) return <p role="status">{loading ? 'Loading the timeline…' : ''}</p>;
  if (!result.ok) return <ProblemView problem={result.problem} context="The timeline could not be read" />;
  if (result.data.events.length === 0) return <p>No events yet.</p>;
  return (
    <ol class="timeline">
      {result.data.events.map((event) => {
        const facts = factsOf(event.payload);
        return (
          <li key={event.id}>
            <span class="timeline-what">{sentenceOf(event.eventType)}</span> <DateTime value={event.createdAt} />
            {facts.length > 0 ? (
              <details>
                <summary>Details</summary>
                <dl class="facts">
                  {facts.map(([k, v]) => (
                    <div key={k}>
                      <dt>{k}</dt>
                      <dd>{v}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
