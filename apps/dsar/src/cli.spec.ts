import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { type ChainEntry, chainEntry, GENESIS_HASH, keyIdOf, leafHash, merkleRoot, statementText } from '@dsar/platform/audit-chain';
import { PRODUCT_VERSION } from '@dsar/contracts';
import { buildOpenApiDocument, ROUTES } from '@dsar/services/api-gateway';
import { chainFindings, checkChain, checkCheckpoint } from './audit-check';
import { buildProgram, type LoadedModule, loadCommands } from './cli';
import { bashCompletion, zshCompletion } from './completion';
import { endpointProblems } from './endpoint-check';
import { type Endpoint, ENDPOINTS } from './endpoints';
import { commandPath, endpointsOf, type Io, Kit } from './kit';
import { renderHuman } from './output';

const root = join(__dirname, '../../..');

/** Every module of commands, loaded once for the file. */
let modules: LoadedModule[];
beforeAll(async () => {
  modules = await loadCommands();
});

function program(): { program: Command; out: () => string } {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d: Buffer) => (text += d.toString()));
  const io = { stdout, stderr: new PassThrough() } as unknown as Io;
  return { program: buildProgram(new Kit(io, 'test'), modules), out: () => text };
}

function allCommands(cmd: Command, into: Command[] = []): Command[] {
  for (const c of cmd.commands) {
    into.push(c);
    allCommands(c, into);
  }
  return into;
}

const leaves = (cmd: Command) => allCommands(cmd).filter((c) => c.commands.length === 0);
const key = (e: Pick<Endpoint, 'method' | 'path'>) => `${e.method} ${e.path}`;

describe('the command tree', () => {
  let tree: Command;
  beforeAll(() => {
    tree = program().program;
  });

  it('has a command for every operation of the OpenAPI document, and calls nothing else', () => {
    // docs/api/openapi.json is the document the gateway serves (tools/scripts/openapi-doc.spec.ts fails when it is behind).
    const doc = JSON.parse(readFileSync(join(root, 'docs/api/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
    const published = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      // The inbound webhooks are called by the mail and chat providers, with their signatures, and the download page's
      // routes by the person's browser, with the link: not by operators.
      if (path.startsWith('/webhooks/') || path.startsWith('/portal/')) continue;
      for (const [method, op] of Object.entries(operations)) if (op.operationId) published.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    }
    const table = Object.values(ENDPOINTS) as Endpoint[];
    const used = new Set(leaves(tree).flatMap((c) => endpointsOf(c).map(key)));
    expect([...published].filter((e) => !table.some((t) => key(t) === e))).toEqual([]);
    expect(table.filter((t) => !published.has(key(t))).map(key)).toEqual([]);
    expect(table.map(key).filter((e) => !used.has(e))).toEqual([]);
  });

  it('prints the version of package.json, the one the OpenAPI document publishes', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect({ cli: tree.version(), contracts: PRODUCT_VERSION, openapi: (buildOpenApiDocument().info as { version: string }).version }).toEqual({
      cli: manifest.version,
      contracts: manifest.version,
      openapi: manifest.version,
    });
  });

  it("has an endpoint for every route of the gateway's table but the providers' webhooks and the download page's, sending its body as the route takes it, and no other", () => {
    expect(endpointProblems(ROUTES)).toEqual([]);
  });

  it('gives every command a description, and every command that acts examples in its help', () => {
    for (const cmd of allCommands(tree)) expect({ cmd: commandPath(cmd), description: cmd.description().length > 0 }).toEqual({ cmd: commandPath(cmd), description: true });
    for (const cmd of leaves(tree)) {
      const { program: fresh, out } = program();
      const same = allCommands(fresh).find((c) => commandPath(c) === commandPath(cmd))!;
      same.outputHelp();
      expect({ cmd: commandPath(cmd), examples: /Examples:\n {2}\$ dsar /.test(out()) }).toEqual({ cmd: commandPath(cmd), examples: true });
    }
  });
});

describe('docs/cli.md', () => {
  it('lists every command with its endpoint and an example', () => {
    const doc = readFileSync(join(root, 'docs/cli.md'), 'utf8');
    const { program: tree } = program();
    for (const cmd of leaves(tree).filter((c) => c.name() !== 'completion')) {
      const path = commandPath(cmd);
      const row = doc.split('\n').find((line) => new RegExp(`^\\| \`${path}( [<[][^\`]*)?\` \\|`).test(line));
      expect({ path, row: row !== undefined && row.includes(`\`dsar ${path}`) }).toEqual({ path, row: true });
    }
    expect(doc).toContain('dsar completion bash');
  });
});

describe('shell completion', () => {
  let tree: Command;
  beforeAll(() => {
    tree = program().program;
  });
  const run = promisify(execFile);

  /** What bash completes for the words, the last one being completed. */
  async function complete(...words: string[]): Promise<string[]> {
    const script = `${bashCompletion(tree)}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _dsar; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const { stdout } = await run('bash', ['-c', script]);
    return stdout.split('\n').filter(Boolean).sort();
  }

  it('completes commands, subcommands, their flags, the global flags and the choices of a flag (bash)', async () => {
    expect(await complete('dsar', 'ma')).toEqual(['manifest']);
    expect(await complete('dsar', 'manifest', '')).toEqual(['download', 'get', 'replace', 'upload', 'validate']);
    expect(await complete('dsar', '--output', 'json', 'audit', 'checkpoints', 'v')).toEqual(['verify']);
    expect(await complete('dsar', 'requests', 'list', '--s')).toEqual(['--sort-by', '--sort-order', '--status']);
    expect(await complete('dsar', 'requests', 'list', '--ou')).toEqual(['--output']);
    expect(await complete('dsar', 'requests', 'list', '--output', '')).toEqual(['json', 'table', 'yaml']);
    expect(await complete('dsar', 'policies', 'upgrades', 'list', '--status', '')).toEqual(['applied', 'approved', 'pending_approval']);
    expect(await complete('dsar', 'policies', 'custom', 'register', '--release-type', '')).toEqual(['major', 'minor', 'patch']);
    expect(await complete('dsar', 'completion', '')).toEqual([]);
  }, 30_000);

  it("offers each command's own values of a flag two commands share, and the output formats after -o (bash)", async () => {
    const requestStatuses = ['clarification_pending', 'closed', 'fulfilled', 'in_progress', 'received', 'refused', 'verification_pending'];
    expect(await complete('dsar', 'requests', 'list', '--status', '')).toEqual(requestStatuses);
    expect(await complete('dsar', '-o', 'json', 'requests', 'list', '--status', 'in')).toEqual(['in_progress']);
    expect(await complete('dsar', 'policies', 'upgrades', 'list', '--status', '')).toEqual(['applied', 'approved', 'pending_approval']);
    expect(await complete('dsar', 'requests', 'list', '-o', '')).toEqual(['json', 'table', 'yaml']);
    expect(await complete('dsar', '-o', '')).toEqual(['json', 'table', 'yaml']);
    // The value of -o is not taken for a command's name.
    expect(await complete('dsar', '-o', 'yaml', 'req')).toEqual(['requestor', 'requests']);
    expect(await complete('dsar', '-o', 'yaml', 'requests', '')).toEqual(['capture', 'clock', 'correct', 'create', 'duplicate', 'find', 'get', 'list', 'reveal', 'timeline', 'watch']);
  }, 30_000);

  it('writes the same per-command values and short flags into the zsh script', () => {
    const script = zshCompletion(tree);
    expect(script).toContain(`'requests list|--status') reply=('received' 'in_progress'`);
    expect(script).toContain(`'policies upgrades list|--status') reply=('pending_approval' 'approved' 'applied') ;;`);
    expect(script).toMatch(/_dsar_value_options=\([^)]* -o\)/);
  }); // spawns bash several times: more than the default 5 s on a busy machine

  it('writes a zsh function with described commands and options, loadable by compinit or by source', () => {
    const script = zshCompletion(tree);
    expect(script.startsWith('#compdef dsar\n')).toBe(true);
    expect(script).toContain(`'requests') reply=('create:submit a data subject request'`);
    expect(script).toContain(`'requests list') reply=(`);
    expect(script).toContain(`*'|--output'|*'|-o') reply=('json' 'table' 'yaml') ;;`);
    expect(script).toMatch(/compdef _dsar dsar\n/);
  });
});

describe('table output', () => {
  it('shows an object as field lines, nested objects dotted, lists as tables with the chosen columns', () => {
    const text = renderHuman(
      { id: 'r1', requestor: { type: 'subject', name: null }, tags: ['a', 'b'], none: [], artifacts: [{ artifactId: 'x', size: 3, sha256: 'f'.repeat(64) }] },
      { columns: { artifacts: ['artifactId', 'size'] } },
    );
    expect(text).toBe(
      ['id              r1', 'requestor.type  subject', 'requestor.name  -', 'tags            a, b', 'none            (none)', '', 'artifacts (1):', 'artifactId  size', 'x           3'].join('\n'),
    );
    expect(renderHuman([])).toBe('(none)');
    expect(renderHuman(null)).toBe('done');
  });
});

describe('offline verification', () => {
  function chain(length: number): ChainEntry[] {
    const out: ChainEntry[] = [];
    for (let i = 0; i < length; i++) {
      out.push(
        chainEntry(out.at(-1) ?? { sequence: 0, hash: GENESIS_HASH }, {
          tenantId: 'acme',
          requestId: '7f0c2a56-95a1-4d3e-9d7b-3f1f1b2a9c10',
          eventId: `00000000-0000-4000-8000-00000000000${i}`,
          eventType: 'dsar.request.created.v1',
          source: '/dsar/lifecycle-clock',
          actor: 'ops@acme',
          occurredAt: '2026-05-04T10:00:00.000Z',
          recordedAt: '2026-05-04T10:00:01.000Z',
          payload: { step: i },
        }),
      );
    }
    return out;
  }

  it('verifies a chain, and names the entry whose content changed and a removed one', async () => {
    const entries = chain(4);
    const good = await checkChain(entries, { sequence: 0, hash: GENESIS_HASH });
    expect(good).toMatchObject({ entries: 4, head: { sequence: 4, hash: entries[3].hash }, problems: [] });
    expect(chainFindings(good, entries[3].hash)).toBeUndefined();
    expect(chainFindings(good, GENESIS_HASH)).toMatch(/the head \(sequence 4\) is sha256:\w+, not the expected root/);

    const edited = await checkChain(
      entries.map((e) => (e.sequence === 2 ? { ...e, payload: { step: 99 } } : e)),
      { sequence: 0, hash: GENESIS_HASH },
    );
    expect(edited.mismatches).toEqual([expect.objectContaining({ sequence: 2, kind: 'content', eventId: entries[1].eventId })]);
    const gap = await checkChain([entries[0], entries[2], entries[3]], { sequence: 0, hash: GENESIS_HASH });
    expect(gap.mismatches).toEqual([expect.objectContaining({ sequence: 3, kind: 'sequence' })]);
    const junk = await checkChain([entries[0], { hello: 'world' }], { sequence: 0, hash: GENESIS_HASH });
    expect(junk.problems).toEqual(['entry 2 is not an audit chain entry']);
    expect((await checkChain([], { sequence: 0, hash: GENESIS_HASH })).problems).toEqual(['the chain has no entries']);
  });

  it("starts a chain whose start was purged from its purge checkpoint, or from its first link for the server's export", async () => {
    const entries = chain(4).slice(2);
    const strict = await checkChain(entries, { sequence: 0, hash: GENESIS_HASH });
    expect(strict.problems).toEqual(["the chain starts at sequence 3: if retention purged its start, give --purged-through 2 and --purged-hash (the export's purgedPrefix)"]);
    expect(strict.mismatches).toEqual([expect.objectContaining({ sequence: 3, kind: 'sequence' })]);
    const checkpoint = { sequence: 2, hash: chain(2)[1].hash };
    expect(await checkChain(entries, checkpoint)).toMatchObject({ start: checkpoint, problems: [], mismatches: [], entries: 2 });
    expect((await checkChain(entries, { sequence: 2, hash: GENESIS_HASH })).mismatches).toEqual([expect.objectContaining({ sequence: 3, kind: 'link' })]);
    expect(await checkChain(entries, { sequence: 0, hash: GENESIS_HASH }, { purgedStartFromFirst: true })).toMatchObject({ start: checkpoint, problems: [], mismatches: [] });
  });

  it('verifies a signed checkpoint against the trusted key, its signature and its Merkle root', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const leaves = ['a', 'b', 'c'].map((requestId, i) => ({ requestId, sequence: i + 1, hash: chain(1)[0].hash }));
    const statement = {
      algorithm: 'ed25519' as const,
      createdAt: '2026-11-21T10:00:00.000Z',
      keyId: keyIdOf(publicKey),
      leafCount: 3,
      number: 1,
      previousRoot: null,
      root: merkleRoot(leaves.map(leafHash)),
      tenantId: 'acme',
    };
    const signature = sign(null, Buffer.from(statementText(statement)), privateKey).toString('base64');
    const checkpoint = { checkpointId: '00000000-0000-4000-8000-000000000009', ...statement, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(), signature, leaves };

    expect(checkCheckpoint(checkpoint, { keyId: statement.keyId })).toMatchObject({ failures: [], data: { trustedKey: true, signatureValid: true, rootMatchesLeaves: true } });
    expect(checkCheckpoint(checkpoint, { publicKeyPem: checkpoint.publicKey }).failures).toEqual([]);
    expect(checkCheckpoint(checkpoint, { keyId: `sha256:${'0'.repeat(64)}` }).failures).toEqual([`signed by key ${statement.keyId}, not the trusted key sha256:${'0'.repeat(64)}`]);
    expect(checkCheckpoint({ ...checkpoint, number: 2 }, { keyId: statement.keyId }).failures).toEqual(['the signature does not cover its statement under its key']);
    expect(checkCheckpoint({ ...checkpoint, leaves: leaves.slice(1) }, { keyId: statement.keyId }).failures).toEqual([
      'leafCount is 3 but it has 2 leaves',
      expect.stringMatching(/^its root is sha256:\w+, but its leaves give sha256:\w+$/),
    ]);
    expect(() => checkCheckpoint({ root: 'x' }, { keyId: statement.keyId })).toThrow(/not a checkpoint with its leaves/);
  });
});
