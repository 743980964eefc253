import type { PolicyPack } from '@dsar/contracts';
import { ProblemView } from '../../components/ProblemView';
import { useApiGet } from '../../use-api';

function periodWords(period: PolicyPack['rules']['default']['period']): string {
  return `${period.amount} ${period.unit.replace(/_/g, ' ')}`;
}

/** A pack document read from the catalog (`GET /policies/{packId}`), the version in force today. */
export function PackDocument({ packId }: { packId: string }) {
  const pack = useApiGet<PolicyPack>(`/policies/${encodeURIComponent(packId)}`);
  return (
    <section class="panel pack-document" aria-labelledby="pack-heading">
      <h3 id="pack-heading">Pack {packId}</h3>
      {!pack.result ? <p role="status">Loading the pack…</p> : null}
      {pack.result && !pack.result.ok ? <ProblemView problem={pack.result.problem} context="The pack could not be read" /> : null}
      {pack.result?.ok ? <PackFacts pack={pack.result.data} /> : null}
    </section>
  );
}

/** What a pack document says, in words: its jurisdictions, its default deadline, extension and appeal, its sources and notes. */
export function PackFacts({ pack }: { pack: PolicyPack }) {
  const rule = pack.rules.default;
  return (
    <>
      <dl class="facts">
        <div>
          <dt>Name</dt>
          <dd>
            {pack.name}, version {pack.version}
          </dd>
        </div>
        <div>
          <dt>Jurisdictions</dt>
          <dd>{pack.jurisdictions.map((j) => `${j.name} (${j.code}, ${j.timeZone})`).join('; ')}</dd>
        </div>
        <div>
          <dt>Response period</dt>
          <dd>
            {periodWords(rule.period)}
            {rule.basis === 'service_target' ? ' (a service target: the law sets no day count)' : ''}
          </dd>
        </div>
        <div>
          <dt>Extension</dt>
          <dd>{rule.extension?.maxTotal ? `Up to ${rule.extension.maxTotal.amount} ${rule.extension.maxTotal.unit.replace(/_/g, ' ')}` : rule.extension ? 'No cap set by the law' : 'None'}</dd>
        </div>
        <div>
          <dt>Appeal</dt>
          <dd>{pack.appeal ? `Answered within ${periodWords(pack.appeal.response)}` : 'No appeal to the controller'}</dd>
        </div>
      </dl>
      <h4>Sources</h4>
      <ul>
        {pack.citations.map((citation, i) => (
          <li key={i}>{citation.url ? <a href={citation.url}>{citation.title}</a> : citation.title}</li>
        ))}
      </ul>
      {pack.notes.length > 0 ? (
        <>
          <h4>Notes</h4>
          <ul>
            {pack.notes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
