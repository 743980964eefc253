import type { Command } from 'commander';
import { ENDPOINTS } from '../endpoints';
import { usage } from '../errors';
import { EXAMPLE_IDS, examples, intArg, type Kit, listArg } from '../kit';
import { download, fileName, mediaTypeOf, rangeHeader, type UploadHeader, uploadCommand } from '../transfer';

const ID = EXAMPLE_IDS.request;
const ARTIFACT = EXAMPLE_IDS.artifact;

/** `--artifact <artifactId>[:category,category]`: one artifact of the callback's manifest. */
function artifactArg(value: string, previous: unknown): unknown[] {
  const [artifactId, categories] = value.split(':');
  if (!artifactId) throw usage('--artifact takes artifactId[:category,category]');
  const entry = categories ? { artifactId, dataCategories: listArg(categories, []) } : { artifactId };
  return [...(Array.isArray(previous) ? previous : []), entry];
}

/** The headers of an upload and of a replacement (whose title and type default to the artifact's). */
function artifactHeaders(replacement: boolean): UploadHeader[] {
  return [
    { flags: '--filename <name>', description: "the file name shown to reviewers and in the download; default the file's own", header: 'x-artifact-filename', encode: true, fallback: fileName },
    {
      flags: '--content-type <type>',
      description: 'its media type; default by extension, else application/octet-stream',
      header: 'x-artifact-content-type',
      fallback: (f) => mediaTypeOf(f) ?? 'application/octet-stream',
    },
    { flags: '--title <title>', description: `a title for reviewers and the data subject; default ${replacement ? "the artifact's" : 'the file name'}`, header: 'x-artifact-title', encode: true },
    { flags: '--type <type>', description: `profile_data, account_data, support_tickets, audit_logs or other; default ${replacement ? "the artifact's" : 'other'}`, header: 'x-artifact-type' },
    ...(replacement
      ? [{ flags: '--reason <text>', description: "why the file is replaced (what was redacted): recorded in the artifact's redactionsApplied", header: 'x-artifact-redaction-reason', encode: true }]
      : []),
  ];
}

/** The fulfilment manifest, its artifacts and review, the upstream callback, and the fulfilment (docs/fulfilment.md). */
export function fulfilmentCommands(program: Command, kit: Kit): void {
  const manifest = program.command('manifest').description('the fulfilment manifest and its artifact files');

  kit.api(manifest, {
    name: 'get <id>',
    summary: 'the manifest: artifacts, categories, review state and history (GET /requests/:id/manifest)',
    endpoint: ENDPOINTS.getManifest,
    view: { columns: { artifacts: ['artifactId', 'version', 'filename', 'contentType', 'size', 'sha256'] } },
    examples: [`dsar manifest get ${ID}`],
  });

  uploadCommand(kit, manifest, {
    name: 'upload <id>',
    summary: 'upload an artifact file, streamed and encrypted at rest (POST /requests/:id/manifest/artifact/upload)',
    endpoint: ENDPOINTS.uploadManifestArtifact,
    headers: artifactHeaders(false),
    examples: [
      `dsar manifest upload ${ID} --file export.zip --type account_data --title "Account export"`,
      `pg_dump … | dsar manifest upload ${ID} --file - --filename dump.sql --content-type application/sql`,
    ],
  });

  uploadCommand(kit, manifest, {
    name: 'replace <id> <artifactId>',
    summary: "replace an artifact's file, e.g. with a redacted one; it keeps its display name (PUT /requests/:id/manifest/artifact/:artifactId/replace)",
    endpoint: ENDPOINTS.replaceManifestArtifact,
    headers: artifactHeaders(true),
    examples: [`dsar manifest replace ${ID} ${ARTIFACT} --file export-redacted.zip --reason "Third-party names redacted"`],
  });

  const get = manifest
    .command('download <id> <artifactId>')
    .description('download an artifact for review, decrypted as it streams (GET /requests/:id/manifest/artifact/download)')
    .requiredOption('--out <path>', 'where to write it; - for standard output')
    .option('--version <n>', 'a replaced version still held; default the current one', intArg(1))
    .option('--range <bytes>', 'only these bytes: start-end, start- or -suffix');
  examples(get, [`dsar manifest download ${ID} ${ARTIFACT} --out export.zip`, `dsar manifest download ${ID} ${ARTIFACT} --version 1 --out original.zip`]);
  kit.act(get, [ENDPOINTS.downloadManifestArtifact], (ctx, args, opts) =>
    download(
      ctx,
      {
        endpoint: ENDPOINTS.downloadManifestArtifact,
        params: { id: args[0] },
        query: { artifactId: args[1], version: opts.version as number | undefined },
        headers: { range: rangeHeader(opts.range as string | undefined) },
        accept: '*/*',
      },
      opts.out as string,
    ),
  );

  kit.api(manifest, {
    name: 'validate <id>',
    summary: 'approve or reject the manifest, with another key than the one that uploaded it under four eyes (POST /requests/:id/manifest/validate)',
    endpoint: ENDPOINTS.validateManifest,
    body: [
      { flags: '--action <action>', description: 'approved or rejected', field: 'action', required: true },
      { flags: '--comment <text>', description: "the reviewer's comment", field: 'comment' },
      { flags: '--version <n>', description: 'the manifest version you reviewed (manifest get); refused (409) when it changed since', field: 'version', parse: intArg(1) },
    ],
    examples: [`dsar manifest validate ${ID} --action approved --version 3 --token "$REVIEWER_TOKEN"`, `dsar manifest validate ${ID} --action rejected --comment "Redact the third-party names"`],
  });

  kit.api(program, {
    name: 'fulfil <id>',
    summary: 'fulfil an in_progress request with its approved manifest (POST /requests/:id/fulfilment)',
    endpoint: ENDPOINTS.fulfilRequest,
    body: [
      {
        flags: '--override-reason <text>',
        description: 'fulfil although a required data system has not answered (or an erasure is unconfirmed); recorded in the audit chain',
        field: 'override.reason',
      },
    ],
    examples: [`dsar fulfil ${ID}`, `dsar fulfil ${ID} --override-reason "Legacy CRM confirmed by phone; ticket OPS-1234"`],
  });

  kit.api(program, {
    name: 'callback <id>',
    summary: 'record the manifest an upstream system produced, pending review (POST /requests/:id/fulfilment/callback)',
    endpoint: ENDPOINTS.recordFulfilmentCallback,
    body: [
      {
        flags: '--artifact <artifactId[:categories]>',
        description: 'an uploaded artifact and the data categories it holds; repeat for more',
        field: 'manifest.artifacts',
        parse: artifactArg,
        required: true,
      },
      { flags: '--data-categories <list>', description: "the manifest's data categories (comma-separated)", field: 'manifest.dataCategories', parse: listArg },
      { flags: '--supplementary-info-inline <text>', description: 'the supplementary information itself', field: 'manifest.supplementaryInfoInline' },
      { flags: '--supplementary-info-ref <ref>', description: 'where the supplementary information is kept', field: 'manifest.supplementaryInfoRef' },
    ],
    examples: [`dsar callback ${ID} --artifact ${ARTIFACT}:contact_details,orders`, `dsar callback ${ID} --data @manifest.json`],
  });
}
