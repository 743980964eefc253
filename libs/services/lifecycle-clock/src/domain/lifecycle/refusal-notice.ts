import type { RefusalReason } from '@dsar/contracts';

/** Why the request is refused, as the notice tells the requester (completes "…because …"). */
const REASON_TEXT: Readonly<Record<Exclude<RefusalReason, 'other'>, string>> = {
  manifestly_unfounded: 'it is manifestly unfounded',
  excessive: 'it is excessive, in particular because it repeats earlier requests',
  identity_not_verified: 'we could not verify your identity',
  no_data_held: 'we hold no personal data about you',
  exemption_applies: 'a legal exemption applies to the data it concerns',
  outside_jurisdiction: 'the law it relies on does not apply to it',
  duplicate: 'it repeats a request of yours that we are handling or have answered',
};

/** What the notice needs to know of the request's policy pack. */
export interface RefusalNoticeContext {
  /** The jurisdiction's name in the pack (e.g. `Germany`), or its code when the pack is not at hand. */
  readonly jurisdictionName: string;
  /** The supervisory authority the pack names, if it names one; built-in packs do not (yet). */
  readonly supervisoryAuthority?: string;
  /** Whether the pack gives an appeal to the controller. */
  readonly appealAvailable: boolean;
  /** A duplicate's refusal: the reference (`DSAR-1A2B3C4D`) of the request it repeats, which the notice names. */
  readonly repeatsReference?: string;
}

/**
 * The refusal notice sent when the caller gives no message (docs/lifecycle.md):
 * the reasons for not acting and the right to complain to the supervisory
 * authority and to seek a judicial remedy, as GDPR Art. 12(4) and its
 * counterparts require. The controller's internal rationale never appears in it.
 */
export function defaultRefusalNotice(reason: RefusalReason, context: RefusalNoticeContext): string {
  const because =
    reason === 'other'
      ? undefined
      : reason === 'duplicate' && context.repeatsReference
        ? `it repeats your request ${context.repeatsReference}, which we are handling or have answered`
        : REASON_TEXT[reason];
  const why = because === undefined ? 'We will not act on your request.' : `We will not act on your request because ${because}.`;
  const authority = context.supervisoryAuthority ?? `the data protection supervisory authority responsible for ${context.jurisdictionName}`;
  const complaint = `You have the right to lodge a complaint with ${authority} and to seek a judicial remedy.`;
  const appeal = context.appealAvailable ? ' You may also appeal this decision to us.' : '';
  return `${why} ${complaint}${appeal}`;
}
