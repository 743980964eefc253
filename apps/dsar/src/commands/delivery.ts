import type { Command } from 'commander';
import { ENDPOINTS } from '../endpoints';
import { EXAMPLE_IDS, examples, type Kit, paramsOf } from '../kit';
import { download, rangeHeader } from '../transfer';

const ID = EXAMPLE_IDS.request;
const ARTIFACT = EXAMPLE_IDS.artifact;

/** Delivery of a fulfilled request through the step-up gate (docs/fulfilment.md#delivery). */
export function deliveryCommands(program: Command, kit: Kit): void {
  const delivery = program.command('delivery').description('deliver fulfilled data: prepare, address check, step-up gate, downloads, logs');

  kit.api(delivery, {
    name: 'prepare <id>',
    summary: 'prepare the delivery of a fulfilled request (POST /requests/:id/delivery/prepare)',
    endpoint: ENDPOINTS.prepareDelivery,
    body: [
      { flags: '--channel <channel>', description: 'portal, email or secure_remote_access', field: 'channel', required: true },
      { flags: '--security-level <level>', description: 'standard or token', field: 'securityLevel', required: true },
    ],
    examples: [`dsar delivery prepare ${ID} --channel portal --security-level token`],
  });

  kit.api(delivery, {
    name: 'verify-address <id>',
    summary: "whether an address is the requestor's known one; without one, the known address masked (POST /requests/:id/delivery/address/verify)",
    endpoint: ENDPOINTS.verifyDeliveryAddress,
    body: [{ flags: '--email <email>', description: 'the address to check', field: 'email' }],
    examples: [`dsar delivery verify-address ${ID} --email jane@example.org`],
  });

  kit.api(delivery, {
    name: 'challenge <id>',
    summary: 'issue a step-up token for the delivery, valid 24 hours; it replaces the previous one (POST /requests/:id/delivery/step-up/challenge)',
    endpoint: ENDPOINTS.issueStepUpChallenge,
    examples: [`dsar delivery challenge ${ID}`],
  });

  kit.api(delivery, {
    name: 'complete <id>',
    summary: 'complete the step-up challenge with the token the data subject received (POST /requests/:id/delivery/step-up/complete)',
    endpoint: ENDPOINTS.completeStepUpChallenge,
    body: [{ flags: '--delivery-token <token>', description: 'the step-up token', field: 'token', required: true }],
    examples: [`dsar delivery complete ${ID} --delivery-token "$STEP_UP_TOKEN"`],
  });

  const get = delivery
    .command('download <id> <artifactId>')
    .description('a delivered artifact through the step-up gate: its metadata, or with --out its bytes (GET /requests/:id/artifacts/:artifactId/download)')
    .requiredOption('--delivery-token <token>', 'the completed step-up token (sent as x-delivery-token)')
    .option('--out <path>', "write the artifact's bytes here (- for standard output) instead of printing its metadata")
    .option('--range <bytes>', 'with --out, only these bytes: start-end, start- or -suffix');
  examples(get, [`dsar delivery download ${ID} ${ARTIFACT} --delivery-token "$STEP_UP_TOKEN"`, `dsar delivery download ${ID} ${ARTIFACT} --delivery-token "$STEP_UP_TOKEN" --out export.zip`]);
  kit.act(get, [ENDPOINTS.downloadDeliveredArtifact], async (ctx, args, opts) => {
    const call = { endpoint: ENDPOINTS.downloadDeliveredArtifact, params: paramsOf(get, args), headers: { 'x-delivery-token': opts.deliveryToken as string } };
    if (opts.out === undefined) return { data: (await ctx.api.call(call)).body };
    const range = rangeHeader(opts.range as string | undefined);
    return download(ctx, { ...call, headers: { ...call.headers, range }, accept: 'application/octet-stream' }, opts.out as string);
  });

  kit.api(delivery, {
    name: 'logs <id>',
    summary: 'every try of the delivery, by delivery event type (GET /requests/:id/delivery/logs)',
    endpoint: ENDPOINTS.getDeliveryLogs,
    examples: [`dsar delivery logs ${ID}`],
  });
}
