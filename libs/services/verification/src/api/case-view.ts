import type { VerificationCaseView } from '@dsar/contracts';
import type { EvidenceEntity } from '../infrastructure/evidence.entity';
import type { EvidenceFileEntity } from '../infrastructure/evidence-file.entity';
import type { ReminderClaimEntity } from '../infrastructure/reminder-claim.entity';
import type { VerificationCaseEntity } from '../infrastructure/verification-case.entity';

/** The case as GET …/verification-case answers it: metadata only, never evidence bytes. */
export function caseViewOf(row: VerificationCaseEntity, evidence: Array<{ evidence: EvidenceEntity; files: EvidenceFileEntity[] }>, reminders: ReminderClaimEntity[]): VerificationCaseView {
  return {
    id: row.id,
    requestId: row.requestId,
    status: row.status,
    level: row.level,
    method: row.method,
    methodsAllowed: row.methodsAllowed,
    pauseClock: row.pauseClock,
    reasonForDoubt: row.reasonForDoubt,
    requestedAt: row.requestedAt.toISOString(),
    requestedBy: row.requestedBy,
    reminderDays: row.reminderDays,
    remindersSent: reminders
      .filter((r) => r.eventId !== null)
      .sort((a, b) => a.day - b.day)
      .map((r) => ({ day: r.day, at: r.claimedAt.toISOString() })),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    evidence: evidence.map(({ evidence: e, files }) => ({
      evidenceId: e.id,
      level: e.level,
      status: e.status,
      methodsAllowed: e.methodsAllowed,
      artifacts: e.artifacts,
      files: files.map((f) => ({
        artifactKey: f.artifactKey,
        filename: f.filename,
        contentType: f.contentType,
        size: f.size,
        sha256: f.sha256,
        uploadedAt: f.uploadedAt.toISOString(),
        uploadedBy: f.uploadedBy,
      })),
      hasReasonForDoubt: e.reasonForDoubt !== null,
      createdAt: e.createdAt.toISOString(),
      createdBy: e.createdBy,
    })),
    decision:
      row.status === 'pending' || row.decidedAt === null
        ? null
        : {
            outcome: row.status,
            by: row.decidedBy ?? 'unknown',
            at: row.decidedAt.toISOString(),
            method: row.decisionMethod,
            reason: row.decisionReason,
            note: row.decisionNote,
          },
  };
}
