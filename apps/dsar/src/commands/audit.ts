import { readFile, writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { type ChainReport, chainFindings, chainStart, checkChain, checkCheckpoint, jsonLines, openChainFile, type TrustedKey } from '../audit-check';
import { ENDPOINTS } from '../endpoints';
import { CliError, usage } from '../errors';
import { type Context, EXAMPLE_IDS, examples, intArg, type Kit } from '../kit';
import { download } from '../transfer';

const ID = EXAMPLE_IDS.request;
const CHECKPOINT = '7a0e5d2c-1b3f-4e6a-9c8d-2f1e0b9a8c7d';
const MEDIA_TYPES: Readonly<Record<string, string>> = { jsonl: 'application/x-ndjson', csv: 'text/csv' };
const ROOT_HASH_HEADER = 'x-audit-root-hash';
const HASH = /^sha256:[0-9a-f]{64}$/;

const hashArg = (value: string): string => {
  if (!HASH.test(value)) throw usage(`not a hash (sha256: and 64 lowercase hex digits): ${value}`);
  return value;
};

interface ServerVerdict {
  verified: boolean;
  status: string;
  mismatches: Array<{ sequence: number; kind: string; eventId: string }>;
  checkedEntries: number;
}

/** Asks the ledger to recompute its chain up to `sequence` and compare it with the hash (and link) we hold. */
async function serverVerify(ctx: Context, id: string, claim: { hash: string; sequence: number; prevHash?: string }): Promise<ServerVerdict> {
  const verdict = (await ctx.api.call({ endpoint: ENDPOINTS.verifyAuditChain, params: { id }, json: claim })).body as ServerVerdict;
  if (!verdict.verified) {
    const found = verdict.mismatches.map((m) => `sequence ${m.sequence} (event ${m.eventId}): ${m.kind}`).join('; ');
    throw CliError.of('CLI-CHAIN-INVALID', `the server does not verify sequence ${claim.sequence} with ${claim.hash}: ${verdict.status}${found ? ` (${found})` : ''}`);
  }
  return verdict;
}

function failIfBroken(report: ChainReport, source: string, expectedRoot: string | undefined): void {
  const findings = chainFindings(report, expectedRoot);
  if (findings) throw CliError.of('CLI-CHAIN-INVALID', `the chain in ${source} does not verify: ${findings}`);
}

function chainData(report: ChainReport, source: string): Record<string, unknown> {
  const { start } = report;
  return {
    verified: true,
    source,
    requestId: report.requestId,
    entries: report.entries,
    head: report.head && { sequence: report.head.sequence, hash: report.head.hash },
    ...(start.sequence > 0 ? { purgedThrough: start } : {}),
  };
}

async function verifyChain(ctx: Context, id: string | undefined, opts: Record<string, unknown>): Promise<Record<string, unknown>> {
  const claimed = opts.hash as string | undefined;
  if (claimed !== undefined || opts.sequence !== undefined) {
    if (!id || claimed === undefined || opts.sequence === undefined) throw usage('verifying a hash you hold needs <id>, --hash and --sequence');
    const verdict = await serverVerify(ctx, id, { hash: claimed, sequence: opts.sequence as number, prevHash: opts.prevHash as string | undefined });
    return { verified: true, source: 'server', requestId: id, sequence: opts.sequence, hash: claimed, status: verdict.status, checkedEntries: verdict.checkedEntries };
  }
  const file = opts.file as string | undefined;
  let report: ChainReport;
  let source: string;
  if (file) {
    const chain = await openChainFile(file);
    const start = chainStart(opts.purgedThrough as number | undefined, opts.purgedHash as string | undefined, chain.start);
    report = await checkChain(chain.entries, start, { requestId: id });
    source = file;
    failIfBroken(report, source, (opts.expectRoot as string | undefined) ?? chain.rootHash);
  } else {
    if (!id) throw usage("give <id> to check a request's chain as the server exports it, or --file for an export you hold");
    // The chain as the server exports it, streamed (one entry per line) and checked as it arrives.
    const res = await ctx.api.open({ endpoint: ENDPOINTS.exportAuditChain, params: { id }, accept: MEDIA_TYPES.jsonl });
    const start = chainStart(opts.purgedThrough as number | undefined, opts.purgedHash as string | undefined, undefined);
    report = await checkChain(jsonLines(res.body), start, { requestId: id, purgedStartFromFirst: true });
    source = "the server's export";
    failIfBroken(report, source, (opts.expectRoot as string | undefined) ?? res.headers.get(ROOT_HASH_HEADER) ?? undefined);
  }
  const data = chainData(report, source);
  const { head, requestId } = report;
  if ((!file || opts.server) && head && requestId) {
    const verdict = await serverVerify(ctx, id ?? requestId, { hash: head.hash, sequence: head.sequence, prevHash: head.prevHash });
    data.server = { status: verdict.status, checkedEntries: verdict.checkedEntries };
  }
  return data;
}

interface ServedKey {
  keyId: string;
  publicKey: string;
}

/**
 * The key a checkpoint must be signed by: the one given (--public-key, --trusted-key-id or DSAR_AUDIT_KEY_ID), else
 * the one the ledger serves (GET /audit/checkpoints/keys) under the id the checkpoint names.
 */
async function trustedKey(ctx: Context, opts: Record<string, unknown>, keyId: string | undefined): Promise<TrustedKey & { source: string }> {
  const given = await givenKey(opts);
  if (given) return { ...given, source: opts.publicKey ? 'public-key' : 'trusted-key-id' };
  const served = ((await ctx.api.call({ endpoint: ENDPOINTS.listAuditSigningKeys })).body as { keys?: ServedKey[] }).keys ?? [];
  if (served.length === 0)
    throw CliError.of('CLI-CHECKPOINT-INVALID', 'the server serves no audit signing key (checkpoints are off there); give the key you trust with --trusted-key-id or --public-key');
  // A file without a key id is not a checkpoint: the check names what it lacks.
  const key = keyId === undefined ? served[0] : served.find((k) => k.keyId === keyId);
  if (!key) {
    throw CliError.of(
      'CLI-CHECKPOINT-INVALID',
      `the checkpoint is signed by key ${String(keyId)}, but the server's signing key is ${served.map((k) => k.keyId).join(', ')}; for a checkpoint of an earlier key give that key with --trusted-key-id or --public-key`,
    );
  }
  return { publicKeyPem: key.publicKey, source: 'server' };
}

async function givenKey(opts: Record<string, unknown>): Promise<TrustedKey | undefined> {
  if (opts.publicKey) {
    try {
      return { publicKeyPem: await readFile(opts.publicKey as string, 'utf8') };
    } catch (e) {
      throw CliError.of('CLI-FILE', `cannot read ${String(opts.publicKey)}: ${(e as Error).message}`);
    }
  }
  if (opts.trustedKeyId) return { keyId: opts.trustedKeyId as string };
  return undefined;
}

async function readCheckpointFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw CliError.of('CLI-FILE', `cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    // Also the envelope `dsar audit checkpoints get --output json` prints.
    return parsed.ok === true && typeof parsed.data === 'object' ? parsed.data : parsed;
  } catch {
    throw CliError.of('CLI-CHECKPOINT-INVALID', `${path} is not JSON`);
  }
}

async function verifyCheckpoint(ctx: Context, checkpointId: string | undefined, opts: Record<string, unknown>): Promise<Record<string, unknown>> {
  let checkpoint: unknown;
  if (opts.file) checkpoint = await readCheckpointFile(opts.file as string);
  else if (checkpointId) checkpoint = (await ctx.api.call({ endpoint: ENDPOINTS.getAuditCheckpoint, params: { checkpointId } })).body;
  else throw usage('give <checkpointId> or --file checkpoint.json');
  const named = (checkpoint as { keyId?: unknown } | null)?.keyId;
  const trusted = await trustedKey(ctx, opts, typeof named === 'string' ? named : undefined);
  const { data, failures } = checkCheckpoint(checkpoint, trusted);
  data.trustedKeyFrom = trusted.source;
  if (opts.chain) {
    // Ties a chain to the checkpoint: the chain verifies, and its entry at its leaf's sequence has the leaf's hash.
    const leaves = (checkpoint as { leaves: Array<{ requestId: string; sequence: number; hash: string }> }).leaves;
    const chain = await openChainFile(opts.chain as string);
    let atLeaf: string | undefined;
    const report = await checkChain(chain.entries, chainStart(undefined, undefined, chain.start), {
      onEntry: (e) => {
        if (leaves.some((l) => l.requestId === e.requestId && l.sequence === e.sequence)) atLeaf = e.hash;
      },
    });
    failIfBroken(report, opts.chain as string, undefined);
    const leaf = leaves.find((l) => l.requestId === report.requestId);
    if (!leaf) failures.push(`it has no leaf for request ${report.requestId}`);
    else if (atLeaf !== leaf.hash) failures.push(`the chain's entry ${leaf.sequence} is ${atLeaf ?? 'missing'}, not the leaf's ${leaf.hash}`);
    else data.chain = { requestId: leaf.requestId, sequence: leaf.sequence, hash: leaf.hash, entries: report.entries };
  }
  if (failures.length > 0) throw CliError.of('CLI-CHECKPOINT-INVALID', `checkpoint ${String(data.number)} does not verify: ${failures.join('; ')}`);
  return { verified: true, ...data };
}

/** The audit chain: export, verification locally and by the server, signed checkpoints (docs/audit.md). */
export function auditCommands(program: Command, kit: Kit): void {
  const audit = program.command('audit').description("a request's audit hash chain: export and verify; signed checkpoints");

  const exportCmd = audit
    .command('export <id>')
    .description('export the chain: with --out a streamed file (JSON Lines or CSV), else the JSON export (GET /requests/:id/audit/export)')
    .addOption(new Option('--format <format>', 'jsonl (default) or csv').choices(['jsonl', 'csv']))
    .option('--out <path>', 'stream the export file here (- for standard output)');
  examples(exportCmd, [`dsar audit export ${ID} --out audit.jsonl`, `dsar audit export ${ID} --format csv --out audit.csv`, `dsar audit export ${ID} --output json > audit.json`]);
  kit.act(exportCmd, [ENDPOINTS.exportAuditChain], async (ctx, args, opts) => {
    const format = opts.format as string | undefined;
    const call = { endpoint: ENDPOINTS.exportAuditChain, params: { id: args[0] }, query: { format } };
    if (opts.out === undefined) return { data: (await ctx.api.call(call)).body };
    return download(ctx, { ...call, accept: MEDIA_TYPES[format ?? 'jsonl'] }, opts.out as string);
  });

  const verify = audit
    .command('verify [id]')
    .description(
      "check a chain: an export file (--file) offline, and with --server also by the ledger; without --file, the server's export as it streams and then the ledger; with --hash and --sequence, only the ledger against a hash you hold (POST /requests/:id/audit/verify)",
    )
    .option('--file <path>', 'an export: JSON Lines (audit export --out) or the JSON export')
    .option('--server', "with --file: also have the ledger verify the file's head")
    .option('--expect-root <hash>', 'the head hash you hold (from an earlier export or a checkpoint)', hashArg)
    .option('--purged-through <sequence>', "for a chain whose start retention purged: the purge checkpoint's sequence", intArg(1))
    .option('--purged-hash <hash>', "and its hash (the export's purgedPrefix)", hashArg)
    .option('--hash <hash>', 'verify by the ledger only: the hash you hold for the entry at --sequence', hashArg)
    .option('--sequence <n>', 'the entry --hash is for', intArg(1))
    .option('--prev-hash <hash>', 'its previous link, to check continuity', hashArg);
  examples(verify, [`dsar audit verify --file audit.jsonl`, `dsar audit verify ${ID} --file audit.jsonl --server`, `dsar audit verify ${ID}`, `dsar audit verify ${ID} --hash sha256:… --sequence 12`]);
  kit.act(verify, [ENDPOINTS.exportAuditChain, ENDPOINTS.verifyAuditChain], async (ctx, args, opts) => ({ data: await verifyChain(ctx, args[0], opts) }));

  const checkpoints = audit.command('checkpoints').description("the tenant's Ed25519-signed Merkle checkpoints over its chain heads");
  kit.api(checkpoints, {
    name: 'list',
    summary: 'the checkpoints, newest first (GET /audit/checkpoints)',
    endpoint: ENDPOINTS.listAuditCheckpoints,
    query: [{ flags: '--limit <n>', description: 'how many, 1 to 100 (default 20)', field: 'limit', parse: intArg(1, 100) }],
    view: { columns: { '': ['checkpointId', 'number', 'createdAt', 'leafCount', 'root', 'keyId'] } },
    examples: ['dsar audit checkpoints list --limit 5'],
  });

  const getCmd = checkpoints
    .command('get <checkpointId>')
    .description('a checkpoint with its leaves (GET /audit/checkpoints/:checkpointId)')
    .option('--out <path>', 'also save it as JSON, to verify it later offline');
  examples(getCmd, [`dsar audit checkpoints get ${CHECKPOINT} --out checkpoint.json`]);
  kit.act(getCmd, [ENDPOINTS.getAuditCheckpoint], async (ctx, args, opts) => {
    const body = (await ctx.api.call({ endpoint: ENDPOINTS.getAuditCheckpoint, params: { checkpointId: args[0] } })).body;
    if (opts.out) {
      try {
        await writeFile(opts.out as string, `${JSON.stringify(body, null, 2)}\n`);
      } catch (e) {
        throw CliError.of('CLI-FILE', `cannot write ${String(opts.out)}: ${(e as Error).message}`);
      }
    }
    return { data: body, view: { columns: { leaves: ['requestId', 'sequence', 'hash'] } } };
  });

  kit.api(checkpoints, {
    name: 'create',
    summary: "make a checkpoint of the tenant's chains now, or answer with the newest one when nothing changed since it (POST /audit/checkpoints)",
    endpoint: ENDPOINTS.createAuditCheckpoint,
    view: { columns: { made: ['checkpointId', 'number', 'createdAt', 'leafCount', 'root', 'keyId'] } },
    examples: ['dsar audit checkpoints create'],
  });

  kit.api(checkpoints, {
    name: 'keys',
    summary: "the ledger's public key that signs checkpoints: key id, PEM and JWK (GET /audit/checkpoints/keys)",
    endpoint: ENDPOINTS.listAuditSigningKeys,
    view: { columns: { keys: ['keyId', 'algorithm'] } },
    examples: ['dsar audit checkpoints keys', 'dsar audit checkpoints keys --output json | jq -r .data.keys[0].publicKey > ledger-pub.pem'],
  });

  const verifyCp = checkpoints
    .command('verify [checkpointId]')
    .description(
      "check a signed checkpoint: the trusted key signed it, the signature covers it, its root is its leaves'; with --chain, that a chain leads to its leaf. The trusted key is the one given, else the server's (GET /audit/checkpoints/keys)",
    )
    .option('--file <path>', 'a checkpoint saved before (checkpoints get --out), instead of fetching <checkpointId>')
    .addOption(new Option('--trusted-key-id <keyId>', "the ledger's key id you were given (sha256:…); without it or --public-key, the key the server serves").env('DSAR_AUDIT_KEY_ID'))
    .option('--public-key <pem>', "or the ledger's public key (PEM file)")
    .option('--chain <path>', "an export of one request's chain (JSON Lines or JSON) to tie to its leaf");
  examples(verifyCp, [
    `dsar audit checkpoints verify ${CHECKPOINT}`,
    `dsar audit checkpoints verify ${CHECKPOINT} --trusted-key-id sha256:…`,
    'dsar audit checkpoints verify --file checkpoint.json --public-key ledger-pub.pem --chain audit.jsonl',
  ]);
  kit.act(verifyCp, [ENDPOINTS.getAuditCheckpoint, ENDPOINTS.listAuditSigningKeys], async (ctx, args, opts) => ({ data: await verifyCheckpoint(ctx, args[0], opts) }));
}
