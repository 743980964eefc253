import type { Command } from 'commander';
import { ENDPOINTS } from '../endpoints';
import { usage } from '../errors';
import { EXAMPLE_IDS, examples, type Kit, listArg, paramsOf } from '../kit';
import { download, fileName, mediaTypeOf, rangeHeader, uploadCommand } from '../transfer';

const ID = EXAMPLE_IDS.request;

/** `--evidence ev_<key>` (a file uploaded to the request) or `--evidence system=reference` (held elsewhere). */
function evidenceArg(value: string, previous: unknown): unknown[] {
  const list = Array.isArray(previous) ? previous : [];
  if (/^ev_[0-9a-f]{32}$/.test(value)) return [...list, { type: 'upload', artifactKey: value }];
  const [system, ...rest] = value.split('=');
  if (!system || rest.length === 0) throw usage('--evidence takes an uploaded artifactKey (ev_…) or system=reference');
  return [...list, { type: 'external', system, reference: rest.join('=') }];
}

/** Identity verification of a request (docs/verification.md). */
export function verificationCommands(program: Command, kit: Kit): void {
  const verification = program.command('verification').description('identity verification: cases, evidence files, decisions');

  kit.api(verification, {
    name: 'request <id>',
    summary: 'open a verification case; the request waits in verification_pending (POST /requests/:id/verification/request)',
    endpoint: ENDPOINTS.requestVerification,
    body: [
      { flags: '--level <level>', description: 'reasonable or enhanced; default by request type', field: 'level' },
      { flags: '--method <method>', description: 'existing_auth, manual (default), document, account_match, signed_declaration', field: 'method' },
      { flags: '--methods-allowed <list>', description: 'methods the person may use (comma-separated); default the method', field: 'methodsAllowed', parse: listArg },
      { flags: '--reason-for-doubt <text>', description: 'why the identity is in doubt', field: 'reasonForDoubt' },
      { flags: '--pause-clock', description: 'pause the legal clock while identity is checked (the default)', field: 'pauseClock' },
      { flags: '--no-pause-clock', description: 'keep the clock running', field: 'pauseClock' },
    ],
    examples: [`dsar verification request ${ID}`, `dsar verification request ${ID} --level enhanced --method document --reason-for-doubt "Address differs"`],
  });

  kit.api(verification, {
    name: 'evidence <id>',
    summary: 'record identity evidence: uploaded files and evidence held elsewhere (POST /requests/:id/verification/evidence)',
    endpoint: ENDPOINTS.recordVerificationEvidence,
    body: [
      { flags: '--level <level>', description: 'reasonable or enhanced', field: 'level', required: true },
      { flags: '--evidence <ref>', description: "an uploaded file's artifactKey (ev_…) or system=reference; repeat for more", field: 'evidenceArtifacts', parse: evidenceArg, required: true },
      { flags: '--methods-allowed <list>', description: 'allowed verification methods (comma-separated)', field: 'methodsAllowed', parse: listArg, required: true },
      { flags: '--reason-for-doubt <text>', description: 'why the identity is in doubt', field: 'reasonForDoubt' },
    ],
    examples: [`dsar verification evidence ${ID} --level reasonable --methods-allowed document --evidence ev_0123456789abcdef0123456789abcdef --evidence crm=CASE-118`],
  });

  uploadCommand(kit, verification, {
    name: 'upload <id>',
    summary: 'upload an identity evidence file, streamed and encrypted at rest (POST /requests/:id/verification/evidence/upload)',
    endpoint: ENDPOINTS.uploadVerificationEvidence,
    headers: [
      { flags: '--filename <name>', description: "the file name to record; default the file's own", header: 'x-evidence-filename', encode: true, fallback: fileName },
      { flags: '--content-type <type>', description: 'its media type; default by extension, else recognized by the server', header: 'x-evidence-content-type', fallback: mediaTypeOf },
      { flags: '--level <level>', description: "reasonable or enhanced; default the case's", header: 'x-evidence-level' },
    ],
    examples: [`dsar verification upload ${ID} --file passport.pdf`, `dsar verification upload ${ID} --file scan.png --level enhanced`],
  });

  kit.api(verification, {
    name: 'approve <id>',
    summary: 'approve identity verification; the request is in_progress again (POST /requests/:id/verification/approve)',
    endpoint: ENDPOINTS.approveVerification,
    body: [
      { flags: '--method <method>', description: "how identity was established; default the case's method", field: 'method' },
      { flags: '--note <text>', description: 'a note for the record', field: 'note' },
    ],
    examples: [`dsar verification approve ${ID} --method document`],
  });

  kit.api(verification, {
    name: 'reject <id>',
    summary: 'reject identity verification; the request is refused (POST /requests/:id/verification/reject)',
    endpoint: ENDPOINTS.rejectVerification,
    body: [
      { flags: '--reason <reason>', description: 'insufficient_evidence (default), evidence_mismatch, suspected_fraud, no_response, other', field: 'reason' },
      { flags: '--message <text>', description: 'what the person is told', field: 'message' },
    ],
    examples: [`dsar verification reject ${ID} --reason evidence_mismatch`],
  });

  kit.api(verification, {
    name: 'case <id>',
    summary: "the request's verification case with its evidence (GET /requests/:id/verification-case)",
    endpoint: ENDPOINTS.getVerificationCase,
    examples: [`dsar verification case ${ID}`],
  });

  const get = verification
    .command('download <id> <artifactKey>')
    .description('download an evidence file, decrypted as it streams (GET /requests/:id/verification/evidence/:artifactKey/download)')
    .requiredOption('--out <path>', 'where to write it; - for standard output')
    .option('--range <bytes>', 'only these bytes: start-end, start- or -suffix');
  examples(get, [`dsar verification download ${ID} ev_0123456789abcdef0123456789abcdef --out passport.pdf`]);
  kit.act(get, [ENDPOINTS.downloadVerificationEvidence], (ctx, args, opts) =>
    download(
      ctx,
      { endpoint: ENDPOINTS.downloadVerificationEvidence, params: paramsOf(get, args), headers: { range: rangeHeader(opts.range as string | undefined) }, accept: '*/*' },
      opts.out as string,
    ),
  );
}
