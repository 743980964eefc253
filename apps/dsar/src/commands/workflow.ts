import type { Command } from 'commander';
import { usage } from '../errors';
import { ENDPOINTS } from '../endpoints';
import { EXAMPLE_IDS, type FieldFlag, intArg, type Kit } from '../kit';

const ID = EXAMPLE_IDS.request;

const channelFlag: FieldFlag = { flags: '--channel <channel>', description: "how the requester is told; default the request's intake channel", field: 'channel' };

/** `--evidence type[=reference]`, given once per piece: evidence held elsewhere, by reference. */
function evidenceArg(value: string, previous: unknown): Array<Record<string, string>> {
  const [type, ...rest] = value.split('=');
  if (!type) throw usage('--evidence takes type[=reference], e.g. power_of_attorney=dms://poa/17');
  const reference = rest.join('=');
  return [...(Array.isArray(previous) ? previous : []), reference ? { type, reference } : { type }];
}

/** The workflow steps of a request (docs/lifecycle.md) and its clock (docs/clock.md). */
export function workflowCommands(program: Command, kit: Kit): void {
  kit.api(program, {
    name: 'acknowledge <id>',
    summary: 'record that the requester was told of receipt; received → in_progress (POST /requests/:id/acknowledgements)',
    endpoint: ENDPOINTS.acknowledgeRequest,
    body: [channelFlag, { flags: '--message <text>', description: 'the acknowledgement as sent', field: 'message' }],
    examples: [`dsar acknowledge ${ID}`, `dsar acknowledge ${ID} --channel email --message "We received your request."`],
  });

  const clarify = program.command('clarify').description('ask the requester to clarify, and record the answer');
  kit.api(clarify, {
    name: 'request <id>',
    summary: 'ask for a clarification; the clock pauses as the pack says (POST /requests/:id/clarifications/request)',
    endpoint: ENDPOINTS.requestClarification,
    body: [{ flags: '--message <text>', description: 'what the requester is asked, as sent to them', field: 'message', required: true }, channelFlag],
    examples: [`dsar clarify request ${ID} --message "Which account do you mean?"`],
  });
  kit.api(clarify, {
    name: 'receive <id>',
    summary: 'record the clarification; the clock resumes (POST /requests/:id/clarifications/receive)',
    endpoint: ENDPOINTS.receiveClarification,
    body: [
      { flags: '--message <text>', description: "the requester's answer", field: 'message' },
      { flags: '--received-at <time>', description: 'when the answer arrived (ISO 8601); default now', field: 'receivedAt' },
    ],
    examples: [`dsar clarify receive ${ID} --message "The one with jane@example.org"`],
  });

  kit.api(program, {
    name: 'extend <id>',
    summary: "extend the deadline as the request's policy pack allows (POST /requests/:id/extensions)",
    endpoint: ENDPOINTS.extendRequestDeadline,
    body: [
      { flags: '--days <n>', description: 'days to add (packs that extend in days); default what is left of the maximum', field: 'additionalDays', parse: intArg(1, 366) },
      { flags: '--months <n>', description: 'months to add (packs that extend in months)', field: 'additionalMonths', parse: intArg(1, 12) },
      { flags: '--justification <label>', description: 'why, as a snake_case label (default policy_extension), e.g. complexity', field: 'justification' },
      { flags: '--reason <text>', description: 'the reasons as the requester is told them (required by some packs)', field: 'reason' },
    ],
    examples: [`dsar extend ${ID} --months 2 --justification complexity --reason "Your request covers many systems."`],
  });

  kit.api(program, {
    name: 'refuse <id>',
    summary: 'refuse the request (POST /requests/:id/refusals)',
    endpoint: ENDPOINTS.refuseRequest,
    body: [
      {
        flags: '--reason <reason>',
        description: 'manifestly_unfounded, excessive, identity_not_verified, no_data_held, exemption_applies, outside_jurisdiction, duplicate, other (default)',
        field: 'reason',
      },
      { flags: '--message <text>', description: 'what the requester is told; default a notice of the reason and the right to complain', field: 'message' },
      { flags: '--rationale <text>', description: 'the internal rationale, kept for the record', field: 'rationale' },
    ],
    examples: [`dsar refuse ${ID} --reason duplicate --rationale "Same as request 3c1…"`],
  });

  kit.api(program, {
    name: 'close <id>',
    summary: 'close the request: withdrawn while open, completed once finished (POST /requests/:id/closures)',
    endpoint: ENDPOINTS.closeRequest,
    body: [
      { flags: '--reason <reason>', description: 'withdrawn, completed, duplicate, requester_unresponsive, transferred, other', field: 'reason' },
      { flags: '--message <text>', description: 'a note on the closure', field: 'message' },
    ],
    examples: [`dsar close ${ID}`, `dsar close ${ID} --reason requester_unresponsive`],
  });

  const requestor = program.command('requestor').description("the request's requestor");
  kit.api(requestor, {
    name: 'set <id>',
    summary: 'replace the requestor snapshot as a whole, in any status; a notice that found no address is sent again (PUT /requests/:id/requestor)',
    endpoint: ENDPOINTS.replaceRequestor,
    body: [
      { flags: '--type <type>', description: 'subject, authorized_agent, parent_or_guardian, legal_representative, other', field: 'type', required: true },
      { flags: '--name <name>', description: "the requestor's name", field: 'name' },
      { flags: '--email <email>', description: "the requestor's email address", field: 'email' },
      { flags: '--relation <relation>', description: 'how the requestor relates to the data subject', field: 'relation' },
    ],
    examples: [`dsar requestor set ${ID} --type authorized_agent --name "Sam Lee" --email sam@agency.example --relation "attorney"`],
  });

  const authority = program.command('authority').description("evidence of the requestor's authority to act for the subject, and its review");
  kit.api(authority, {
    name: 'submit <id>',
    summary: 'submit the evidence, replacing any earlier submission (POST /requests/:id/authority/submit)',
    endpoint: ENDPOINTS.submitAuthority,
    body: [
      { flags: '--evidence <type[=reference]>', description: 'one piece of evidence held elsewhere; repeat for more', field: 'evidenceArtifacts', parse: evidenceArg, required: true },
      { flags: '--status <status>', description: 'normally submitted', field: 'status', required: true },
      { flags: '--verified-at <time>', description: 'when it was verified (ISO 8601)', field: 'verifiedAt' },
    ],
    examples: [`dsar authority submit ${ID} --status submitted --evidence power_of_attorney=dms://poa/17`],
  });
  kit.api(authority, {
    name: 'approve <id>',
    summary: 'approve submitted evidence (POST /requests/:id/authority/approve)',
    endpoint: ENDPOINTS.approveAuthority,
    body: [{ flags: '--note <text>', description: 'a note for the record', field: 'note' }],
    examples: [`dsar authority approve ${ID} --note "Signed POA checked"`],
  });
  kit.api(authority, {
    name: 'reject <id>',
    summary: 'reject submitted evidence (POST /requests/:id/authority/reject)',
    endpoint: ENDPOINTS.rejectAuthority,
    body: [{ flags: '--reason <text>', description: 'why the evidence does not show authority', field: 'reason' }],
    examples: [`dsar authority reject ${ID} --reason "The POA is expired"`],
  });

  const clock = program.command('clock').description('the legal clock: explain, pause, resume');
  kit.api(clock, {
    name: 'explain <id>',
    summary: 'how the deadline was computed (GET /requests/:id/clock/explain; also `dsar requests clock`)',
    endpoint: ENDPOINTS.explainRequestClock,
    examples: [`dsar clock explain ${ID}`],
  });
  kit.api(clock, {
    name: 'pause <id>',
    summary: 'pause the clock for verification, clarification or a fee (POST /requests/:id/clock/pauses)',
    endpoint: ENDPOINTS.pauseRequestClock,
    body: [
      { flags: '--reason <reason>', description: 'verification, clarification or fee', field: 'reason', required: true },
      { flags: '--at <time>', description: 'when the pause began (ISO 8601); default now', field: 'at' },
      { flags: '--note <text>', description: 'a note for the record', field: 'note' },
    ],
    examples: [`dsar clock pause ${ID} --reason fee --note "fee requested"`],
  });
  kit.api(clock, {
    name: 'resume <id>',
    summary: 'end the open pause (POST /requests/:id/clock/resume)',
    endpoint: ENDPOINTS.resumeRequestClock,
    body: [
      { flags: '--at <time>', description: 'when the pause ended (ISO 8601); default now', field: 'at' },
      { flags: '--note <text>', description: 'a note for the record', field: 'note' },
    ],
    examples: [`dsar clock resume ${ID}`],
  });
}
