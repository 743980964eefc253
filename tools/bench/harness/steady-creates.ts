import { jsonHeaders } from './api';
import { percentileOf, sleep } from './util';

/** One create of a steady client: when it was sent (ms of performance.now()), how long its answer took, its status (`no answer`: a transport error or the client's timeout). */
interface Answer {
  at: number;
  ms: number;
  status: string;
  accepted: boolean;
}

/** The answers of a span of time: how many creates were accepted and refused (by status), and the accepted ones' p50 and p99 in ms. */
export interface Answers {
  accepted: number;
  refused: number;
  refusedBy: Record<string, number>;
  p50: number;
  p99: number;
}

/** Creates at a steady rate through the gateway, each on its own schedule (not after the answer before), until stopped. */
export class SteadyCreates {
  readonly ids: string[] = [];
  private readonly answers: Answer[] = [];
  refused = 0;
  /** How far behind its schedule the client fell (a busy machine, not the system). */
  maxLagMs = 0;
  private stopping = false;
  private readonly done: Promise<void>;

  constructor(
    private readonly gatewayUrl: string,
    private readonly token: string,
    private readonly rate: number,
    private readonly bodyOf: (n: number) => string,
  ) {
    this.done = this.run();
  }

  /** Sends no more, and waits for the answers of what was sent. */
  stop(): Promise<void> {
    this.stopping = true;
    return this.done;
  }

  private async run(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    const start = performance.now();
    for (let n = 0; ; n++) {
      const due = start + (n * 1000) / this.rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      if (this.stopping) break;
      this.maxLagMs = Math.max(this.maxLagMs, performance.now() - due);
      const create = this.create(this.bodyOf(n)).finally(() => inFlight.delete(create));
      inFlight.add(create);
    }
    await Promise.all(inFlight);
  }

  private async create(body: string): Promise<void> {
    const at = performance.now();
    const answered = (status: string, accepted: boolean) => {
      this.answers.push({ at, ms: performance.now() - at, status, accepted });
      if (!accepted) this.refused++;
    };
    try {
      // Longer than the gateway's own upstream deadline (10 s): a create refused is the system's answer, not the client giving up.
      const res = await fetch(`${this.gatewayUrl}/api/v1/requests`, { method: 'POST', headers: jsonHeaders(this.token), body, signal: AbortSignal.timeout(30_000) });
      const json = (await res.json()) as { id?: unknown };
      const accepted = res.status === 202 && typeof json.id === 'string';
      if (accepted) this.ids.push(json.id as string);
      answered(String(res.status), accepted);
    } catch {
      answered('no answer', false);
    }
  }

  /** The answers to the creates sent from `from` until `to` (performance.now() ms). */
  between(from: number, to: number): Answers {
    const sent = this.answers.filter((a) => a.at >= from && a.at < to);
    const ms = sent.filter((a) => a.accepted).map((a) => a.ms);
    const refusedBy: Record<string, number> = {};
    for (const a of sent) if (!a.accepted) refusedBy[a.status] = (refusedBy[a.status] ?? 0) + 1;
    return { accepted: ms.length, refused: sent.length - ms.length, refusedBy, p50: percentileOf(ms, 0.5), p99: percentileOf(ms, 0.99) };
  }
}
