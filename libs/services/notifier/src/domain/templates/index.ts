import type { Locale, NotificationKind } from '../notification-kinds';
import type { MessageTemplates } from './compose';
import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { pt } from './pt';

export type { MessageTemplates } from './compose';
export { htmlLayout } from './layout';

/** The built-in catalog: every kind in every locale. */
export const BUILT_IN_TEMPLATES: Readonly<Record<Locale, Readonly<Record<NotificationKind, MessageTemplates>>>> = { en, de, fr, es, pt };
