import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, type DuplicateResolvedV1, LifecycleEventTypes, type RequestCorrectedV1, type RequestStatus } from '@dsar/contracts';
import { UnitOfWork } from '@dsar/platform/persistence';
import { DATA_SYSTEM_SETTINGS, type DataSystemSettings } from '../../data-systems/data-system-settings';
import { TaskFanout } from '../application/task-fanout';

/** What every workflow event of lifecycle-clock says of the request's move. */
interface Move {
  requestId: string;
  tenantId: string;
  workspaceId: string | null;
  actor: string;
  fromStatus: RequestStatus;
  status: RequestStatus;
}

/** The workflow events that can move a request (those with `fromStatus` and `status`). */
const MOVES = [
  LifecycleEventTypes.acknowledged,
  LifecycleEventTypes.clarificationRequested,
  LifecycleEventTypes.clarificationReceived,
  LifecycleEventTypes.verificationRequested,
  LifecycleEventTypes.verified,
  LifecycleEventTypes.refused,
  LifecycleEventTypes.closed,
  LifecycleEventTypes.reopened,
  LifecycleEventTypes.authoritySubmitted,
  LifecycleEventTypes.authorityApproved,
  LifecycleEventTypes.authorityRejected,
  LifecycleEventTypes.appealDecided,
];

/**
 * Keeps a request's data-system tasks in step with its workflow: a move into `in_progress` (acknowledged without
 * verification, verified, a clarification received, reopened…) asks for its fan-out, made by the fan-out job
 * once this event's transaction commits; a refusal or a closure cancels its open tasks (and a fan-out not made yet).
 * A request in triage (no type yet) fans out once a correction names its type, and one marked as a duplicate once an
 * operator separates it from the request it repeats, if it is in progress by then.
 */
@Controller()
export class RequestTasksHandler {
  constructor(
    private readonly fanout: TaskFanout,
    private readonly uow: UnitOfWork,
    @Inject(DATA_SYSTEM_SETTINGS) private readonly settings: DataSystemSettings,
  ) {}

  @EventPattern(MOVES)
  async onMove(@Payload() event: CloudEventEnvelope): Promise<void> {
    const move = event.data as unknown as Move;
    // The handler runs in the inbox's transaction: these writes join it.
    if (this.fansOut(event.type, move)) {
      await this.uow.run((tx) => this.fanout.ask(tx, move.tenantId, move.workspaceId, move.requestId));
    } else if ((move.status === 'refused' || move.status === 'closed') && move.fromStatus !== move.status) {
      await this.uow.run((tx) => this.fanout.cancel(tx, move.tenantId, move.workspaceId, move.requestId, move.actor));
    }
  }

  @EventPattern(LifecycleEventTypes.corrected)
  async onCorrected(@Payload() event: CloudEventEnvelope): Promise<void> {
    const correction = event.data as unknown as RequestCorrectedV1 & Move;
    // Only the type named for a request in triage starts anything (a later correction changes no task, docs/data-systems.md).
    if (correction.previousRequestType !== null || correction.requestType === null || correction.status !== 'in_progress') return;
    await this.uow.run((tx) => this.fanout.askAgain(tx, correction.requestId));
  }

  @EventPattern(LifecycleEventTypes.duplicateResolved)
  async onDuplicateResolved(@Payload() event: CloudEventEnvelope): Promise<void> {
    const decision = event.data as unknown as DuplicateResolvedV1;
    // A confirmed duplicate is refused in the same step (its refusal cancels what there is); a separated one is worked on.
    if (decision.resolution !== 'separated' || decision.status !== 'in_progress') return;
    await this.uow.run((tx) => this.fanout.askAgain(tx, decision.requestId));
  }

  /** Whether the move makes the request workable: into in_progress, or only by its verification (FANOUT_REQUIRES_VERIFICATION). */
  private fansOut(type: string, move: Move): boolean {
    if (move.status !== 'in_progress' || move.fromStatus === 'in_progress') return false;
    return !this.settings.fanoutRequiresVerification || type === LifecycleEventTypes.verified;
  }
}
