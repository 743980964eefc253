/**
 * The sizes of a run. A full run (`npm run bench`, about 15 minutes with 3 repetitions) and a smoke run
 * (`--smoke`: seconds, only to prove that every benchmark still runs end to end). Each can be overridden from
 * the environment (BENCH_<NAME>, e.g. BENCH_LOAD_S=20), whole numbers only.
 */
export interface Settings {
  /** Seconds of each measured autocannon run (intake, reads). */
  loadS: number;
  /** Seconds of warm-up load before the first measured run on a server. */
  warmupS: number;
  /** Client counts of the intake benchmark. */
  intakeClients: number[];
  /** Client count of the reads benchmark and the propagation burst. */
  clients: number;
  /** Run the intake benchmark on embedded mode too (0 to skip). */
  intakeEmbedded: number;
  /** Creates of the propagation benchmark at a steady rate… */
  propagationCount: number;
  /** …of this many per second. */
  propagationRate: number;
  /** Seconds of the burst whose backlog must drain. */
  burstS: number;
  /** How long to wait for a backlog to drain before calling it not drained. */
  drainTimeoutS: number;
  /** Requests created for the reads benchmark (the ids read, and the queue paged). */
  readsRows: number;
  /** Outbox rows the relay publishes per repetition. */
  relayEvents: number;
  /** The queue benchmark: requests of the big tenant, of the other tenants, and how many others. */
  queueTenantRows: number;
  queueOtherRows: number;
  queueOtherTenants: number;
  /** Measured rounds per repetition of the queue benchmark (each round calls every shape once; at least 20). */
  queueIterations: number;
  /** Rows of the queue benchmark's bulk insert with and without the request counters' trigger (half each). */
  queueWriteRows: number;
  /** The identity benchmark: requests of the searched tenant, of the other tenants, and how many others (each request with 1–3 identities). */
  identityTenantRows: number;
  identityOtherRows: number;
  identityOtherTenants: number;
  /** Searches by identity per repetition, over every shape (half of them a known email). */
  identitySearches: number;
  /** Creates of each kind per repetition (without identities, with new ones, repeating an open request, with the campaign's identity). */
  identityCreates: number;
  /** The create benchmark: rounds per repetition, each one create of every kind on each database. */
  createRounds: number;
  /** Seconds a started system is left alone before its idle RSS is sampled. */
  settleS: number;
  /** RSS samples (200 ms apart) of an idle process; the median is the figure. */
  rssSamples: number;
  /** Footprint: also start the services from source (run-ts.cjs, as development runs them) for comparison (0 to skip). */
  footprintSource: number;
  /** Footprint: also cold-start embedded mode as `npm start` runs it, from source (0 to skip; then only the built output is started). */
  footprintEmbeddedSource: number;
  /** The longest wait for the system to go idle between phases. */
  quiesceTimeoutS: number;
  /** The soak benchmark: seconds of each run at a steady rate… */
  soakS: number;
  /** …of this many creates per second. */
  soakRate: number;
  /** The short interval, in ms, of every periodic job in the soak's second run. */
  soakJobIntervalMs: number;
  /** Audit chains seeded for that run that no checkpoint covers… */
  soakBacklog: number;
  /** …of which this many are of requests closed long ago (past their retention). */
  soakPurgeable: number;
  /** Runs of each side (the soak ignores --repeat: one run is already minutes). */
  soakRuns: number;
  /** The fanout benchmark: requests fanned out to its five data systems per repetition… */
  fanoutRequests: number;
  /** …and how long to wait for every answer before calling the run failed. */
  fanoutTimeoutS: number;
  /** The fides benchmark: seconds of each measured run on either side, at `clients`… */
  fidesS: number;
  /** …and how long Fides may take to start (its migrations take minutes on a busy machine). */
  fidesReadyTimeoutS: number;
  /**
   * The catchup benchmark: seconds the broker is stopped while creates go on (0: no outage, only the burst; the
   * smoke run never stops the broker, which the tests beside it share)…
   */
  catchupOutageS: number;
  /** …the steady creates per second before, during and after the outage… */
  catchupRate: number;
  /** …the seconds of steady creates before the broker is stopped… */
  catchupLeadS: number;
  /** …the creates of the burst, as fast as the gateway takes them… */
  catchupBurst: number;
  /** …how long to wait for every consumer to drain before calling it not drained… */
  catchupDrainTimeoutS: number;
  /** …and its repetitions at most (each stops the broker and sends the burst: minutes; --repeat above this is cut to it). */
  catchupRepeat: number;
}

const FULL: Settings = {
  loadS: 10,
  warmupS: 3,
  intakeClients: [16, 64],
  clients: 16,
  intakeEmbedded: 1,
  propagationCount: 1000,
  propagationRate: 50,
  burstS: 20,
  drainTimeoutS: 60,
  readsRows: 1000,
  relayEvents: 10_000,
  queueTenantRows: 1_000_000,
  queueOtherRows: 200_000,
  queueOtherTenants: 99,
  queueIterations: 30,
  queueWriteRows: 100_000,
  identityTenantRows: 1_000_000,
  identityOtherRows: 200_000,
  identityOtherTenants: 99,
  identitySearches: 600,
  identityCreates: 300,
  createRounds: 300,
  settleS: 5,
  rssSamples: 10,
  footprintSource: 1,
  footprintEmbeddedSource: 1,
  quiesceTimeoutS: 60,
  fanoutRequests: 1000,
  fanoutTimeoutS: 600,
  fidesS: 20,
  fidesReadyTimeoutS: 900,
  catchupOutageS: 60,
  catchupRate: 50,
  catchupLeadS: 5,
  catchupBurst: 20_000,
  catchupDrainTimeoutS: 300,
  catchupRepeat: 1,
  soakS: 180,
  soakRate: 20,
  soakJobIntervalMs: 15_000,
  soakBacklog: 50_000,
  soakPurgeable: 500,
  soakRuns: 1,
};

const SMOKE: Settings = {
  loadS: 1,
  warmupS: 0,
  intakeClients: [16, 64],
  clients: 16,
  intakeEmbedded: 1,
  propagationCount: 20,
  propagationRate: 50,
  burstS: 1,
  drainTimeoutS: 30,
  readsRows: 40,
  relayEvents: 300,
  queueTenantRows: 12_000,
  queueOtherRows: 990,
  queueOtherTenants: 99,
  queueIterations: 20,
  queueWriteRows: 2_000,
  identityTenantRows: 5_000,
  identityOtherRows: 1_000,
  identityOtherTenants: 9,
  identitySearches: 60,
  identityCreates: 10,
  createRounds: 10,
  settleS: 1,
  rssSamples: 3,
  footprintSource: 0,
  // The intake benchmark has started embedded mode from source already; the smoke run starts the built one only.
  footprintEmbeddedSource: 0,
  quiesceTimeoutS: 5,
  fanoutRequests: 20,
  fanoutTimeoutS: 120,
  fidesS: 2,
  fidesReadyTimeoutS: 900,
  // Stopping the broker would break the tests that share it: the smoke run measures a small burst only.
  catchupOutageS: 0,
  catchupRate: 50,
  catchupLeadS: 1,
  catchupBurst: 200,
  catchupDrainTimeoutS: 60,
  catchupRepeat: 1,
  soakS: 5,
  soakRate: 20,
  soakJobIntervalMs: 1_000,
  soakBacklog: 2_000,
  soakPurgeable: 50,
  soakRuns: 1,
};

const envName = (key: string): string => `BENCH_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

export function settingsFor(smoke: boolean, env: NodeJS.ProcessEnv = process.env): Settings {
  const base = { ...(smoke ? SMOKE : FULL) };
  for (const key of Object.keys(base) as (keyof Settings)[]) {
    const raw = env[envName(key)];
    if (raw === undefined || raw === '') continue;
    const values = raw.split(',').map(Number);
    if (values.some((v) => !Number.isInteger(v) || v < 0)) throw new Error(`${envName(key)} must be a whole number (or a list of them), got ${raw}`);
    (base as Record<string, unknown>)[key] = Array.isArray(base[key]) ? values : values[0];
  }
  return base;
}

/** The environment variables settingsFor reads, for --help. */
export const settingNames = (): string[] => Object.keys(FULL).map(envName);
