import { InvalidArgumentError, type Command } from 'commander';
import { ENDPOINTS } from '../endpoints';
import { EXAMPLE_IDS, type FieldFlag, type HeaderFlag, intArg, type Kit, listArg } from '../kit';
import { fileName, mediaTypeOf, uploadCommand } from '../transfer';

const ID = EXAMPLE_IDS.request;
const TASK = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

/** The task token of a claim: from --task-token or DSAR_TASK_TOKEN (kept out of the shell's history that way). */
const TASK_TOKEN: HeaderFlag = {
  flags: '--task-token <token>',
  description: "the task's token, from its claim",
  header: 'x-task-token',
  env: 'DSAR_TASK_TOKEN',
  required: true,
};

const SYSTEM_VIEW = { columns: { items: ['key', 'displayName', 'mode', 'actions', 'required', 'paused', 'version'] } };
const TASK_VIEW = { columns: { items: ['id', 'systemKey', 'action', 'state', 'required', 'attempts', 'dueAt', 'reason'] } };

/** `true` or `false`. */
function booleanArg(value: string): boolean {
  if (value !== 'true' && value !== 'false') throw new InvalidArgumentError('must be true or false');
  return value === 'true';
}

/** `--lease-seconds <n>` of a claim and a heartbeat. */
const LEASE: FieldFlag = {
  flags: '--lease-seconds <n>',
  description: 'the lease, 10 to 3600 s (never beyond the server’s TASK_LEASE_MAX_SECONDS); default 300',
  field: 'leaseSeconds',
  parse: intArg(10, 3600),
};

/** The data systems of the caller's tenant (docs/data-systems.md#the-registry). */
function systemsCommands(program: Command, kit: Kit): void {
  const systems = program.command('systems').description("the tenant's data systems: where requests are sent, and how");
  kit.api(systems, {
    name: 'list',
    summary: "the tenant's data systems, by key (GET /data-systems)",
    endpoint: ENDPOINTS.listDataSystems,
    view: SYSTEM_VIEW,
    examples: ['dsar systems list'],
  });
  kit.api(systems, {
    name: 'get <systemKey>',
    summary: 'one data system; a webhook secret is never shown (GET /data-systems/:systemKey)',
    endpoint: ENDPOINTS.getDataSystem,
    examples: ['dsar systems get crm'],
  });
  kit.api(systems, {
    name: 'put <systemKey>',
    summary: 'register a data system or replace its whole definition (PUT /data-systems/:systemKey)',
    endpoint: ENDPOINTS.putDataSystem,
    body: [
      { flags: '--display-name <name>', description: 'its name for people', field: 'displayName' },
      { flags: '--owner-email <address>', description: 'where reminders and manual tasks go', field: 'owner.email' },
      { flags: '--owner-slack <channel>', description: 'a Slack channel told as well', field: 'owner.slackChannel' },
      { flags: '--actions <list>', description: 'access, erasure, rectification, restriction, objection, opt_out (comma-separated)', field: 'actions', parse: listArg },
      { flags: '--identity-types <list>', description: 'email, phone, account_id (comma-separated)', field: 'identityTypes', parse: listArg },
      { flags: '--data-categories <list>', description: 'the categories it holds (comma-separated)', field: 'dataCategories', parse: listArg },
      { flags: '--after <list>', description: 'systems whose task must finish first (comma-separated keys)', field: 'after', parse: listArg },
      { flags: '--mode <mode>', description: 'push, pull, webhook or manual', field: 'mode', choices: ['push', 'pull', 'webhook', 'manual'] },
      { flags: '--webhook-url <url>', description: 'where a webhook system gets its tasks (its secret goes in --data)', field: 'webhook.url' },
      { flags: '--expected-hours <n>', description: 'its own due date after a task is created (default 72)', field: 'sla.expectedHours', parse: intArg(1) },
      { flags: '--timeout-hours <n>', description: 'when a task times out (default 168)', field: 'sla.timeoutHours', parse: intArg(1) },
      { flags: '--on-timeout <action>', description: 'skip or pause (default pause)', field: 'sla.onTimeout', choices: ['skip', 'pause'] },
      { flags: '--paused <bool>', description: 'true: new tasks wait until it is resumed', field: 'paused', parse: booleanArg },
      { flags: '--required <bool>', description: 'false: fulfilment does not wait for it (default true)', field: 'required', parse: booleanArg },
    ],
    complete: (body) => {
      // A flag of the SLA alone completes it with the defaults of the others, as the API takes the SLA whole.
      const sla = body.sla as Record<string, unknown> | undefined;
      if (sla) body.sla = { expectedHours: 72, timeoutHours: 168, onTimeout: 'pause', ...sla };
    },
    examples: [
      'dsar systems put crm --display-name CRM --owner-email crm-team@acme.example --actions access,erasure --identity-types email --mode pull',
      'dsar systems put warehouse --data @warehouse.json --after crm',
    ],
  });
  kit.api(systems, {
    name: 'delete <systemKey>',
    summary: 'delete a data system: no new tasks; refused while another comes after it (DELETE /data-systems/:systemKey)',
    endpoint: ENDPOINTS.deleteDataSystem,
    examples: ['dsar systems delete legacy-crm'],
  });
}

/** The tasks requests send their data systems: a connector's or a manual owner's work, and the operator's (docs/data-systems.md#tasks). */
function tasksCommands(program: Command, kit: Kit): void {
  const tasks = program.command('tasks').description('the tasks requests send their data systems: claim, answer, and settle them');
  kit.api(tasks, {
    name: 'list <id>',
    summary: "a request's tasks, one per system and action, with state, attempts and due dates (GET /requests/:id/tasks)",
    endpoint: ENDPOINTS.listRequestTasks,
    view: TASK_VIEW,
    examples: [`dsar tasks list ${ID}`],
  });
  kit.api(tasks, {
    name: 'pending <systemKey>',
    summary: "a system's tasks waiting for a claim, oldest first (GET /data-systems/:systemKey/tasks)",
    endpoint: ENDPOINTS.listPendingTasks,
    query: [{ flags: '--limit <n>', description: 'at most this many, 1 to 100 (default 20)', field: 'limit', parse: intArg(1, 100) }],
    view: { columns: { items: ['taskId', 'requestId', 'action', 'dueAt', 'attempt'] } },
    examples: ['dsar tasks pending crm --limit 5'],
  });
  kit.api(tasks, {
    name: 'claim <taskId>',
    summary: 'claim a task under a lease: its identities and a new task token (POST /tasks/:taskId/claim)',
    endpoint: ENDPOINTS.claimTask,
    body: [{ flags: '--worker <name>', description: 'who claims: a host, an instance, a person', field: 'worker', required: true }, LEASE],
    examples: [`dsar tasks claim ${TASK} --worker "$(hostname)"`, `export DSAR_TASK_TOKEN=$(dsar tasks claim ${TASK} --worker alice -o json | jq -r .data.token)`],
  });
  kit.api(tasks, {
    name: 'heartbeat <taskId>',
    summary: "extend a claimed task's lease (POST /tasks/:taskId/heartbeat)",
    endpoint: ENDPOINTS.heartbeatTask,
    body: [LEASE],
    headers: [TASK_TOKEN],
    examples: [`dsar tasks heartbeat ${TASK} --lease-seconds 600`],
  });
  kit.api(tasks, {
    name: 'answer <taskId>',
    summary: 'answer a claimed task: complete, not_found, error, action_required or skipped (POST /tasks/:taskId/answer)',
    endpoint: ENDPOINTS.answerTask,
    body: [
      {
        flags: '--outcome <outcome>',
        description: 'complete, not_found, error, action_required or skipped',
        field: 'outcome',
        choices: ['complete', 'not_found', 'error', 'action_required', 'skipped'],
        required: true,
      },
      { flags: '--note <text>', description: 'with complete or not_found', field: 'note' },
      { flags: '--message <text>', description: 'with error or action_required', field: 'message' },
      { flags: '--retryable <bool>', description: 'with error: true to try again later', field: 'retryable', parse: booleanArg },
      { flags: '--code <code>', description: "with error: the system's own error code", field: 'code' },
      { flags: '--reason <text>', description: 'with skipped', field: 'reason' },
    ],
    headers: [TASK_TOKEN],
    examples: [`dsar tasks answer ${TASK} --outcome not_found --note "No customer with that address"`, `dsar tasks answer ${TASK} --outcome complete --data @erasure-confirmation.json`],
  });
  uploadCommand(kit, tasks, {
    name: 'upload <taskId>',
    summary: "add a file to a claimed access task's answer, streamed and encrypted at rest (POST /tasks/:taskId/files)",
    endpoint: ENDPOINTS.uploadTaskFile,
    headers: [
      { flags: '--filename <name>', description: "the file name shown in the manifest; default the file's own", header: 'x-artifact-filename', encode: true, fallback: fileName },
      {
        flags: '--content-type <type>',
        description: 'its media type; default by extension, else application/octet-stream',
        header: 'x-artifact-content-type',
        fallback: (f) => mediaTypeOf(f) ?? 'application/octet-stream',
      },
      { flags: '--title <title>', description: 'a title for reviewers and the data subject', header: 'x-artifact-title', encode: true },
      { flags: '--sha256 <hex>', description: "the file's SHA-256, checked by the server", header: 'x-content-sha256' },
      // The token, as for the JSON commands: the flag, else DSAR_TASK_TOKEN.
      { flags: '--task-token <token>', description: "the task's token, from its claim (default: $DSAR_TASK_TOKEN)", header: 'x-task-token', fallback: () => process.env.DSAR_TASK_TOKEN },
    ],
    examples: [`dsar tasks upload ${TASK} --file orders.csv --title "Orders"`],
  });
  kit.api(tasks, {
    name: 'rows <taskId>',
    summary: "add structured rows to a claimed access task's answer, packaged into a JSON file (POST /tasks/:taskId/rows)",
    endpoint: ENDPOINTS.uploadTaskRows,
    body: [{ flags: '--category <name>', description: 'the data category of the rows; also the file title', field: 'category' }],
    headers: [TASK_TOKEN],
    examples: [`dsar tasks rows ${TASK} --category orders --data @rows.json`],
  });
  kit.api(tasks, {
    name: 'retry <id> <taskId>',
    summary: 'queue a failed, skipped, blocked or action_required task again (POST /requests/:id/tasks/:taskId/retry)',
    endpoint: ENDPOINTS.retryTask,
    body: [{ flags: '--reason <text>', description: 'why, for the audit chain', field: 'reason' }],
    examples: [`dsar tasks retry ${ID} ${TASK} --reason "CRM back online"`],
  });
  kit.api(tasks, {
    name: 'skip <id> <taskId>',
    summary: 'skip a task with a reason (POST /requests/:id/tasks/:taskId/skip)',
    endpoint: ENDPOINTS.skipTask,
    body: [{ flags: '--reason <text>', description: 'why the system is skipped (recorded)', field: 'reason', required: true }],
    examples: [`dsar tasks skip ${ID} ${TASK} --reason "System decommissioned in 2025; no data"`],
  });
  kit.api(tasks, {
    name: 'complete <id> <taskId>',
    summary: 'settle a task by hand, with the evidence (POST /requests/:id/tasks/:taskId/complete)',
    endpoint: ENDPOINTS.completeTask,
    body: [
      { flags: '--outcome <outcome>', description: 'complete or not_found', field: 'outcome', choices: ['complete', 'not_found'], required: true },
      { flags: '--evidence <text>', description: 'what shows the work was done: a ticket, a log line', field: 'evidence', required: true },
    ],
    examples: [`dsar tasks complete ${ID} ${TASK} --outcome not_found --evidence "Searched by hand, ticket OPS-1234"`, `dsar tasks complete ${ID} ${TASK} --data @erased-by-hand.json`],
  });
}

/** Data systems and their tasks ([fanout]). */
export function dataSystemsCommands(program: Command, kit: Kit): void {
  systemsCommands(program, kit);
  tasksCommands(program, kit);
}
