import type { CustomPackActivated, CustomPackApproved, CustomPackDeactivated, CustomPackRegistered, PolicyPack, PolicyPackSummary, ReleaseType } from '@dsar/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiResult } from '../../api';
import { useAuth, useSession } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { Link } from '../../components/Link';
import { ProblemView } from '../../components/ProblemView';
import { TextField } from '../../components/TextField';
import { keysOf } from '../../labels';
import type { Problem } from '../../problem';
import { adminPath, navigate } from '../../router';
import { useApiGet } from '../../use-api';
import { useLocation } from '../../use-location';
import {
  activationBody,
  activeScopes,
  approvalBody,
  customPackRows,
  deactivationBody,
  DOCUMENT_MAX_LENGTH,
  emptyRegistration,
  learnt,
  mayDeactivate,
  mayRegister,
  METADATA_MAX_LENGTH,
  ownScopeOf,
  type PackVersion,
  type RegistrationErrors,
  type RegistrationValues,
  RELEASE_TYPE_LABELS,
  registrationOf,
  sameVersion,
  scopeWords,
  searchOfVersion,
  statusWords,
  type VersionAnswer,
  type VersionFacts,
  versionActions,
  versionFromSearch,
  versionOfForm,
  versionWords,
} from './custom-packs';
import { PackFacts } from './PackDocument';
import { FormButtons } from '../../components/FormButtons';

/** Where the pack format is described on every deployment: the API reference, whose `PolicyPack` schema the API checks with. */
const FORMAT_REFERENCE = '/api/docs';

type Known = PackVersion & { facts: VersionFacts };

const versionPath = (v: PackVersion) => `${adminPath('policies')}${searchOfVersion(v)}`;

/**
 * The custom packs of the policies page (docs/console.md): the versions active for the caller and those this page
 * registered or opened, one version's document with its approval and activation (its address names it, so that the
 * registrant can send it to the admin who approves), and the registration form.
 */
export function CustomPacksSection({ packs: read, onChanged }: { packs: ApiResult<PolicyPackSummary[]> | null; onChanged: (message: string) => void }) {
  const session = useSession();
  const { api } = useAuth();
  const location = useLocation();
  const opened = useMemo(() => versionFromSearch(location.search), [location.search]);
  const [known, setKnown] = useState<Known[]>([]);
  const [registering, setRegistering] = useState(false);
  const [deactivation, setDeactivation] = useState<{ jurisdiction: string; problem: Problem } | null>(null);
  const [busy, setBusy] = useState(false);
  // A version opened by the page's own forms takes the focus; one in the address at the page's start does not.
  const [focusOpened, setFocusOpened] = useState(false);
  const packs = read?.ok ? read.data : null;

  useEffect(() => {
    if (opened) setKnown((before) => (before.some((k) => sameVersion(k, opened)) ? before : [...before, { ...opened, facts: {} }]));
  }, [opened?.name, opened?.jurisdiction, opened?.version]);

  const learn = (v: PackVersion, answer: VersionAnswer) =>
    setKnown((before) => {
      const found = before.find((k) => sameVersion(k, v));
      const facts = learnt(found?.facts ?? {}, answer);
      return found ? before.map((k) => (k === found ? { ...k, facts } : k)) : [...before, { ...v, facts }];
    });

  const deactivate = async (jurisdiction: string) => {
    if (busy) return;
    setBusy(true);
    setDeactivation(null);
    const result = await api.post<CustomPackDeactivated>('/policies/custom/deactivate', deactivationBody(session, jurisdiction));
    setBusy(false);
    if (result.ok) onChanged(`Custom pack for ${result.data.jurisdictions.join(', ')} deactivated: new requests there use the built-in pack again.`);
    else setDeactivation({ jurisdiction, problem: result.problem });
  };

  const rows = customPackRows(packs ?? [], known);
  const openedFacts = opened ? (known.find((k) => sameVersion(k, opened))?.facts ?? {}) : {};

  return (
    <section class="admin-section" aria-labelledby="custom-heading">
      <h2 id="custom-heading">Custom packs</h2>
      <p class="muted">
        A tenant's own deadline rules for a jurisdiction, never less protective than the law. An admin registers a version; another admin reads and approves it (four eyes); then it is activated for
        new requests. Ending an activation needs one admin.
      </p>
      {!read ? <p role="status">Loading the custom packs…</p> : null}
      {read && !read.ok ? <ProblemView problem={read.problem} context="The active custom packs could not be read" /> : null}
      {packs && rows.length === 0 ? <p class="muted">No custom pack is active, and none was registered or opened here.</p> : null}
      {rows.length > 0 ? (
        <div class="admin-table-wrap">
          <table class="admin-table" aria-label="Custom packs">
            <thead>
              <tr>
                <th scope="col">Pack</th>
                <th scope="col">Jurisdiction</th>
                <th scope="col">Version</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.name} ${row.jurisdiction} ${row.version}`}>
                  <td>
                    {row.title ? `${row.title} ` : null}
                    <code>{row.name}</code>
                  </td>
                  <td>{row.jurisdiction}</td>
                  <td>{row.version}</td>
                  <td>{statusWords(row.facts, row.scopes)}</td>
                  <td>
                    <div class="row-buttons">
                      <Link href={versionPath(row)}>
                        Open<span class="visually-hidden"> {versionWords(row)}</span>
                      </Link>
                      {row.scopes.some((scope) => mayDeactivate(session, scope)) ? (
                        <button type="button" disabled={busy} onClick={() => void deactivate(row.jurisdiction)}>
                          Deactivate<span class="visually-hidden"> {versionWords(row)}</span>
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {deactivation ? <ProblemView problem={deactivation.problem} context={`Deactivating the custom pack for ${deactivation.jurisdiction} was refused`} /> : null}
      <p class="hint">The API lists the active versions only: a version registered here, or opened by its name, stays in this list until the page is left.</p>
      {opened ? (
        <VersionPanel
          key={searchOfVersion(opened)}
          version={opened}
          facts={openedFacts}
          scopes={packs ? activeScopes(packs, opened) : []}
          onAnswer={(answer) => learn(opened, answer)}
          onChanged={onChanged}
          takeFocus={focusOpened}
        />
      ) : null}
      <OpenForm
        onOpen={(v) => {
          setFocusOpened(true);
          navigate(versionPath(v));
        }}
      />
      {mayRegister(session) && !registering ? (
        <div class="form-buttons">
          <button type="button" onClick={() => setRegistering(true)}>
            Register a custom pack
          </button>
        </div>
      ) : null}
      {mayRegister(session) && registering ? (
        <RegisterForm
          onCancel={() => setRegistering(false)}
          onRegistered={(v) => {
            learn(v, { kind: 'registered', by: session.principal });
            setRegistering(false);
            setFocusOpened(true);
            navigate(versionPath(v));
            onChanged(`${versionWords(v)} registered. Another admin approves it: send them this page's address.`);
          }}
        />
      ) : null}
    </section>
  );
}

/** One registered version: its document, what is known of its approval, and the approval and activation the session may ask for. */
function VersionPanel({
  version,
  facts,
  scopes,
  onAnswer,
  onChanged,
  takeFocus,
}: {
  version: PackVersion;
  facts: VersionFacts;
  scopes: (string | null)[];
  onAnswer: (answer: VersionAnswer) => void;
  onChanged: (message: string) => void;
  takeFocus: boolean;
}) {
  const session = useSession();
  const { api } = useAuth();
  const query = useMemo(() => new URLSearchParams({ version: version.version }), [version.version]);
  const read = useApiGet<PolicyPack>(`/policies/${encodeURIComponent(version.name)}`, query);
  const actions = versionActions(session, facts, scopes, read.result?.ok === true);
  const [refusal, setRefusal] = useState<{ step: string; problem: Problem } | null>(null);
  const [busy, setBusy] = useState(false);
  const words = versionWords(version);
  const ownScope = scopeWords(ownScopeOf(session));
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, []);

  const refused = (step: string, problem: Problem) => {
    setRefusal({ step, problem });
    onAnswer({ kind: 'refused', problem, principal: session.principal });
  };

  const approve = async () => {
    if (busy) return;
    setBusy(true);
    setRefusal(null);
    const result = await api.post<CustomPackApproved>('/policies/custom/approve', approvalBody(version));
    setBusy(false);
    if (!result.ok) return refused('The approval', result.problem);
    onAnswer({ kind: 'approved', answer: result.data });
    onChanged(`${words} approved by ${result.data.approvedBy}.`);
  };

  const activate = async () => {
    if (busy) return;
    setBusy(true);
    setRefusal(null);
    const result = await api.post<CustomPackActivated>('/policies/custom/activate', activationBody(session, version));
    setBusy(false);
    if (!result.ok) return refused('The activation', result.problem);
    onChanged(`${words} activated for ${scopeWords(result.data.workspaceId)}: new requests there use it.`);
  };

  return (
    <section class="panel pack-version" aria-labelledby="version-heading">
      <h3 id="version-heading" ref={headingRef} tabIndex={-1}>
        Custom pack {words}
      </h3>
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd>{statusWords(facts, scopes)}</dd>
        </div>
        {facts.registeredBy ? (
          <div>
            <dt>Registered by</dt>
            <dd>{facts.registeredBy}</dd>
          </div>
        ) : null}
        {facts.approvedBy && facts.approvedAt ? (
          <div>
            <dt>Approved by</dt>
            <dd>
              {facts.approvedBy}, <DateTime value={facts.approvedAt} />
            </dd>
          </div>
        ) : null}
      </dl>
      {!facts.approvedBy && scopes.length === 0 ? (
        <p class="hint">
          Another admin than the one who registered it approves it: send them this page's address. Who approved a version shows once it is approved, as the API does not list approvals.
        </p>
      ) : null}
      {!read.result ? <p role="status">Loading the document…</p> : null}
      {read.result && !read.result.ok ? <ProblemView problem={read.result.problem} context="The version could not be read" /> : null}
      {read.result?.ok ? (
        <>
          <PackFacts pack={read.result.data} />
          <details>
            <summary>The whole document (JSON)</summary>
            <pre class="pack-json" tabIndex={0}>
              {JSON.stringify(read.result.data, null, 2)}
            </pre>
          </details>
        </>
      ) : null}
      {refusal ? <ProblemView problem={refusal.problem} context={`${refusal.step} was refused`} /> : null}
      {actions.approve || actions.activate ? (
        <div class="form-buttons">
          {actions.approve ? (
            <button type="button" class="primary" disabled={busy} onClick={() => void approve()}>
              Approve<span class="visually-hidden"> {words}</span>
            </button>
          ) : null}
          {actions.activate ? (
            <button type="button" disabled={busy} onClick={() => void activate()}>
              Activate for {ownScope}
              <span class="visually-hidden"> ({words})</span>
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** Opens a registered version by its name, jurisdiction and version (what the registrant sends the approver). */
function OpenForm({ onOpen }: { onOpen: (v: PackVersion) => void }) {
  const [values, setValues] = useState<PackVersion>({ name: '', jurisdiction: '', version: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof PackVersion, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    const outcome = versionOfForm(values);
    setErrors(outcome.ok ? {} : outcome.errors);
    if (outcome.ok) onOpen(outcome.version);
    else formRef.current?.querySelector<HTMLElement>(`[name="${Object.keys(outcome.errors)[0]}"]`)?.focus();
  };
  const field = (name: keyof PackVersion, label: string, hint: string, maxLength: number) => (
    <TextField id={`open-${name}`} name={name} label={label} hint={hint} error={errors[name]}>
      {(common) => (
        <input {...common} type="text" autoComplete="off" maxLength={maxLength} value={values[name]} onInput={(e) => setValues((before) => ({ ...before, [name]: e.currentTarget.value }))} />
      )}
    </TextField>
  );
  return (
    <form class="panel admin-form" ref={formRef} onSubmit={submit} noValidate aria-labelledby="open-heading">
      <h3 id="open-heading">Open a registered version</h3>
      <div class="admin-form-grid">
        {field('name', 'Pack id', 'Such as acme-uk.', 64)}
        {field('jurisdiction', 'Jurisdiction', 'Such as GB.', 6)}
        {field('version', 'Version', 'Such as 1.1.0.', 20)}
      </div>
      <div class="form-buttons">
        <button type="submit">Open</button>
      </div>
    </form>
  );
}

/** Registers a version: the document as JSON, read in the browser first; what the API refuses shows as its problem. */
function RegisterForm({ onCancel, onRegistered }: { onCancel: () => void; onRegistered: (v: PackVersion) => void }) {
  const { api } = useAuth();
  const [values, setValues] = useState<RegistrationValues>(emptyRegistration);
  const [errors, setErrors] = useState<RegistrationErrors>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, textarea')?.focus();
  }, []);

  const set = <K extends keyof RegistrationValues>(field: K, value: RegistrationValues[K]) => setValues((before) => ({ ...before, [field]: value }));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const outcome = registrationOf(values);
    setErrors(outcome.ok ? {} : outcome.errors);
    if (!outcome.ok) {
      formRef.current?.querySelector<HTMLElement>(`[name="${Object.keys(outcome.errors)[0]}"]`)?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    const result = await api.post<CustomPackRegistered>('/policies/custom/register', outcome.body);
    setBusy(false);
    if (result.ok) onRegistered({ name: result.data.name, jurisdiction: result.data.jurisdiction, version: result.data.version });
    else setProblem(result.problem);
  };

  const text = (field: 'name' | 'version' | 'jurisdiction', label: string, hint: string, maxLength: number) => (
    <TextField id={`register-${field}`} name={field} label={label} hint={hint} error={errors[field]}>
      {(common) => <input {...common} type="text" autoComplete="off" maxLength={maxLength} value={values[field]} onInput={(e) => set(field, e.currentTarget.value)} />}
    </TextField>
  );
  const area = (field: 'changelog' | 'compatibilityNotes', label: string, hint: string) => (
    <TextField id={`register-${field}`} name={field} label={label} hint={hint} error={errors[field]}>
      {(common) => <textarea {...common} rows={2} maxLength={METADATA_MAX_LENGTH} value={values[field]} onInput={(e) => set(field, e.currentTarget.value)} />}
    </TextField>
  );

  return (
    <form class="panel admin-form" ref={formRef} onSubmit={submit} noValidate aria-labelledby="register-heading">
      <h3 id="register-heading">Register a custom pack</h3>
      <div class="admin-form-grid">
        {text('name', 'Pack id', "Empty: the document's packId.", 64)}
        {text('version', 'Version', "Empty: the document's version.", 20)}
        {text('jurisdiction', 'Jurisdiction', "Empty: the document's first jurisdiction.", 6)}
        <div class="field">
          <label for="register-releaseType">Release type</label>
          <select id="register-releaseType" name="releaseType" value={values.releaseType} onChange={(e) => set('releaseType', e.currentTarget.value as ReleaseType)}>
            {keysOf(RELEASE_TYPE_LABELS).map((type) => (
              <option key={type} value={type}>
                {RELEASE_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {area('changelog', 'Changelog', 'What this version changes.')}
      {area('compatibilityNotes', 'Compatibility notes', 'What users of the previous version should know.')}
      <TextField
        id="register-document"
        name="document"
        label="Pack document (JSON)"
        error={errors.document}
        hint={
          <>
            A complete policy pack: the <code>PolicyPack</code> schema of the <a href={FORMAT_REFERENCE}>API reference</a>, explained in docs/policy-packs/README.md. It may not give the data subject
            less than the law of its jurisdiction.
          </>
        }
      >
        {(common) => <textarea {...common} rows={14} spellcheck={false} maxLength={DOCUMENT_MAX_LENGTH} value={values.document} onInput={(e) => set('document', e.currentTarget.value)} />}
      </TextField>
      {problem ? <ProblemView problem={problem} context="The registration was refused" /> : null}
      <FormButtons submit="Register the pack" busy={busy} onCancel={onCancel} />
    </form>
  );
}
