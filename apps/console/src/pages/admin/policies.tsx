import type { PolicyPackSummary, UpgradeProposal, UpgradeProposalStatus } from '@dsar/contracts';
import { useState } from 'preact/hooks';
import { useAuth, useSession } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { ProblemView } from '../../components/ProblemView';
import { formatDate } from '../../format';
import { labelOf } from '../../labels';
import type { Problem } from '../../problem';
import { useApiGet } from '../../use-api';
import { useTitle } from '../../use-title';
import './admin.css';
import { CustomPacksSection } from './CustomPacks';
import { PackDocument } from './PackDocument';
import { changeWords, MANAGE_POLICIES, nextStep, openRequestsWords, PROPOSAL_STATUS_LABELS, type ProposalStep, STEP_LABELS, stepPath } from './proposals';

/**
 * Policy packs (`/console/policies`): the packs the tenant's new requests use, one pack's document, the tenant's custom
 * packs (register, approve by another admin, activate, deactivate: CustomPacks.tsx), and upgrade proposals under four
 * eyes (propose, approve by another admin, apply).
 */
export function PoliciesPage() {
  useTitle('Policy packs');
  const session = useSession();
  const packs = useApiGet<PolicyPackSummary[]>('/policies');
  const proposals = useApiGet<UpgradeProposal[]>('/policies/upgrades');
  const [shownPack, setShownPack] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const canManage = session.permissions.includes(MANAGE_POLICIES);

  const changed = (message: string) => {
    setDone(message);
    proposals.reload();
    packs.reload();
  };

  return (
    <>
      <h1 tabIndex={-1}>Policy packs</h1>
      <p role="status" class="done">
        {done ?? ''}
      </p>
      <section class="admin-section" aria-labelledby="catalog-heading">
        <h2 id="catalog-heading">Packs in use</h2>
        <p class="muted">The deadline rules the tenant's new requests use today.</p>
        {!packs.result ? <p role="status">Loading the packs…</p> : null}
        {packs.result && !packs.result.ok ? <ProblemView problem={packs.result.problem} context="The packs could not be read" /> : null}
        {packs.result?.ok && packs.result.data.length === 0 ? <p class="muted">No pack.</p> : null}
        {packs.result?.ok && packs.result.data.length > 0 ? (
          <div class="admin-table-wrap">
            <table class="admin-table" aria-label="Policy packs">
              <thead>
                <tr>
                  <th scope="col">Pack</th>
                  <th scope="col">Jurisdictions</th>
                  <th scope="col">Version</th>
                  <th scope="col">Effective from</th>
                  <th scope="col">Source</th>
                  <th scope="col">Document</th>
                </tr>
              </thead>
              <tbody>
                {packs.result.data.map((pack) => (
                  <tr key={`${pack.packId}-${pack.activatedFor?.jurisdiction ?? ''}-${pack.activatedFor?.workspaceId ?? ''}`}>
                    <td>
                      {pack.name} <code>{pack.packId}</code>
                    </td>
                    <td>{pack.jurisdictions.join(', ')}</td>
                    <td>{pack.version}</td>
                    <td>{formatDate(pack.effectiveFrom)}</td>
                    <td>
                      {pack.source === 'custom' ? 'Custom' : 'Built in'}
                      {pack.activatedFor ? <span class="muted"> ({pack.activatedFor.workspaceId ? `workspace ${pack.activatedFor.workspaceId}` : 'whole tenant'})</span> : null}
                    </td>
                    <td>
                      <button type="button" aria-expanded={shownPack === pack.packId ? 'true' : 'false'} onClick={() => setShownPack(shownPack === pack.packId ? null : pack.packId)}>
                        Show<span class="visually-hidden"> {pack.packId}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {shownPack ? <PackDocument key={shownPack} packId={shownPack} /> : null}
      </section>
      <CustomPacksSection packs={packs.result} onChanged={changed} />
      <section class="admin-section" aria-labelledby="upgrades-heading">
        <h2 id="upgrades-heading">Upgrade proposals</h2>
        <p class="muted">An upgrade moves the tenant's packs to their newest releases. Another admin than the one who proposed it approves it (four eyes); then it is applied.</p>
        {canManage ? <ProposeForm onDone={(status) => changed(`Upgrade proposed (${labelOf(PROPOSAL_STATUS_LABELS, status.status).toLowerCase()}).`)} /> : null}
        {!proposals.result ? <p role="status">Loading the proposals…</p> : null}
        {proposals.result && !proposals.result.ok ? <ProblemView problem={proposals.result.problem} context="The proposals could not be read" /> : null}
        {proposals.result?.ok && proposals.result.data.length === 0 ? <p class="muted">No upgrade was proposed yet.</p> : null}
        {proposals.result?.ok
          ? proposals.result.data.map((proposal) => (
              <Proposal key={proposal.proposalId} proposal={proposal} permissions={session.permissions} onDone={(step) => changed(`${STEP_LABELS[step]}: done.`)} />
            ))
          : null}
      </section>
    </>
  );
}

function ProposeForm({ onDone }: { onDone: (status: UpgradeProposalStatus) => void }) {
  const { api } = useAuth();
  const [repin, setRepin] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const result = await api.post<UpgradeProposalStatus>('/policies/upgrades/propose', { repinOpenRequests: repin });
    setBusy(false);
    if (result.ok) onDone(result.data);
    else setProblem(result.problem);
  };
  return (
    <form class="panel admin-form" onSubmit={submit} aria-label="Propose an upgrade">
      <div class="field field-check">
        <input id="propose-repin" type="checkbox" checked={repin} onChange={(e) => setRepin(e.currentTarget.checked)} />
        <label for="propose-repin">Move open requests to the new versions too</label>
      </div>
      {problem ? <ProblemView problem={problem} context="The proposal was refused" /> : null}
      <div class="form-buttons">
        <button type="submit" class="primary" disabled={busy}>
          Propose an upgrade
        </button>
      </div>
    </form>
  );
}

function Proposal({ proposal, permissions, onDone }: { proposal: UpgradeProposal; permissions: readonly string[]; onDone: (step: ProposalStep) => void }) {
  const { api } = useAuth();
  const step = nextStep(proposal, permissions);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = `proposal-${proposal.proposalId}`;
  const take = async (chosen: ProposalStep) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const result = await api.post<UpgradeProposalStatus>(stepPath(proposal.proposalId, chosen), undefined);
    setBusy(false);
    if (result.ok) onDone(chosen);
    else setProblem(result.problem);
  };
  return (
    <article class="panel proposal" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Proposal of <DateTime value={proposal.proposedAt} />: {labelOf(PROPOSAL_STATUS_LABELS, proposal.status)}
      </h3>
      <ul>
        {proposal.changes.map((change, i) => (
          <li key={i}>
            {changeWords(change)}, {openRequestsWords(change.openRequests)}
            {change.changelog ? <span class="muted"> — {change.changelog}</span> : null}
          </li>
        ))}
      </ul>
      <dl class="facts">
        <div>
          <dt>Proposed by</dt>
          <dd>{proposal.proposedBy}</dd>
        </div>
        <div>
          <dt>Open requests</dt>
          <dd>{proposal.repinOpenRequests ? 'Moved to the new versions when applied' : 'Keep the version they pinned'}</dd>
        </div>
        {proposal.approvedBy && proposal.approvedAt ? (
          <div>
            <dt>Approved by</dt>
            <dd>
              {proposal.approvedBy}, <DateTime value={proposal.approvedAt} />
            </dd>
          </div>
        ) : null}
        {proposal.appliedBy && proposal.appliedAt ? (
          <div>
            <dt>Applied by</dt>
            <dd>
              {proposal.appliedBy}, <DateTime value={proposal.appliedAt} />
            </dd>
          </div>
        ) : null}
      </dl>
      {problem ? <ProblemView problem={problem} context={step ? `${STEP_LABELS[step]} was refused` : 'Refused'} /> : null}
      {step ? (
        <div class="form-buttons">
          <button type="button" class="primary" disabled={busy} onClick={() => void take(step)}>
            {STEP_LABELS[step]}
            <span class="visually-hidden"> the proposal of {formatDate(proposal.proposedAt)}</span>
          </button>
        </div>
      ) : null}
    </article>
  );
}
