/**
 * What the notifier can send. Subject kinds go to the person who made the
 * request; operator kinds go to the team handling requests, and owner kinds to
 * the owner of a data system about its task: neither carries the data
 * subject's personal data (see operator-context.ts).
 */
import { NOTIFICATION_KINDS, type NotificationKind, OPERATOR_NOTIFICATION_KINDS, type OperatorNotificationKind, OWNER_NOTIFICATION_KINDS, type OwnerNotificationKind } from '@dsar/contracts';

// The kinds are part of the HTTP contract (`eventType` of the history): one list, in libs/contracts.
export {
  NOTIFICATION_KINDS,
  type NotificationKind,
  OPERATOR_NOTIFICATION_KINDS,
  type OperatorNotificationKind,
  OWNER_NOTIFICATION_KINDS,
  type OwnerNotificationKind,
  SUBJECT_NOTIFICATION_KINDS,
  type SubjectNotificationKind,
} from '@dsar/contracts';

/** The languages every built-in template is written in; English is the fallback. */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];
export const FALLBACK_LOCALE: Locale = 'en';

export function isNotificationKind(value: string): value is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

export function isOperatorKind(kind: NotificationKind): kind is OperatorNotificationKind {
  return (OPERATOR_NOTIFICATION_KINDS as readonly string[]).includes(kind);
}

export function isOwnerKind(kind: NotificationKind): kind is OwnerNotificationKind {
  return (OWNER_NOTIFICATION_KINDS as readonly string[]).includes(kind);
}

/** Kinds written for staff (operators, owners of data systems): built from the allow-list of operator-context.ts. */
export function isStaffKind(kind: NotificationKind): boolean {
  return isOperatorKind(kind) || isOwnerKind(kind);
}

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}
