import type { Command } from 'commander';
import { ENDPOINTS } from '../endpoints';
import { EXAMPLE_IDS, type Kit } from '../kit';

const ID = EXAMPLE_IDS.request;

/** Appeals against a request's outcome (docs/lifecycle.md). */
export function appealsCommands(program: Command, kit: Kit): void {
  const appeals = program.command('appeals').description("appeals against a request's outcome");
  kit.api(appeals, {
    name: 'create <id>',
    summary: 'appeal a refused, fulfilled or closed request (POST /requests/:id/appeals)',
    endpoint: ENDPOINTS.fileAppeal,
    body: [
      { flags: '--message <text>', description: 'why the requester disagrees', field: 'message', required: true },
      { flags: '--grounds <text>', description: 'the grounds of the appeal', field: 'grounds' },
    ],
    examples: [`dsar appeals create ${ID} --message "You did not include my order history."`],
  });
  kit.api(appeals, {
    name: 'list <id>',
    summary: "the request's appeals with their due dates and decisions (GET /requests/:id/appeals)",
    endpoint: ENDPOINTS.listAppeals,
    view: { columns: { '': ['id', 'status', 'createdAt', 'dueAt', 'decision', 'message'] } },
    examples: [`dsar appeals list ${ID}`],
  });
  kit.api(appeals, {
    name: 'decide <id> <appealId>',
    summary: 'decide an appeal: approve and partial reopen the request (POST /requests/:id/appeals/:appealId/decide)',
    endpoint: ENDPOINTS.decideAppeal,
    body: [
      { flags: '--decision <decision>', description: 'approve, deny or partial', field: 'decision', required: true },
      { flags: '--explanation <text>', description: 'the decision as the requester is told it', field: 'explanation' },
    ],
    examples: [`dsar appeals decide ${ID} 0b7f3c2e-8d41-4f0a-9b6e-1c2d3e4f5a6b --decision partial --explanation "We add the order history."`],
  });
}
