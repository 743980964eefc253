import { z } from 'zod';
import { text, timestamp } from './fields';
import { requestor } from './requests';

/**
 * How `GET /requests/:idOrReference` shows the requestor's identities: `clear` as recorded (the default, which API
 * clients, the CLI and host applications have always had), or `masked` (the console's view, until an operator reveals
 * them with a reason through `POST /requests/:id/requestor/reveal`, which is recorded). docs/lifecycle.md#the-requestor-masked-and-revealed.
 */
export const REQUESTOR_VIEWS = ['clear', 'masked'] as const;
export type RequestorView = (typeof REQUESTOR_VIEWS)[number];

export const requestDetailQuery = z
  .strictObject({
    requestor: z
      .enum(REQUESTOR_VIEWS)
      .optional()
      .describe(
        "`clear` (default): the requestor's identities as recorded. `masked`: the requestor's name, email and phone, the intake contact and the account ids of `account_id` evidence masked (`j***@example.org`), and each of them masked where the intake text repeats it; `POST /requests/{id}/requestor/reveal` shows them, and records that it did",
      ),
  })
  .meta({ id: 'RequestDetailQuery' });
export type RequestDetailQuery = z.infer<typeof requestDetailQuery>;

/**
 * The identities of a requestor that the masked detail hides and a reveal shows: the requestor's `name`, `email` and
 * `phone`, the intake `contact`, and the references of `account_id` evidence (at intake or with the authority).
 */
export const REQUESTOR_IDENTITY_FIELDS = ['name', 'email', 'phone', 'contact', 'account_id'] as const;
export type RequestorIdentityField = (typeof REQUESTOR_IDENTITY_FIELDS)[number];

/** `POST /requests/:id/requestor/reveal`: why the caller needs the requestor's identities in clear. */
export const requestorRevealCommand = z
  .strictObject({
    reason: text(500).describe('Why the identities are needed in clear: recorded with the reveal (a salted hash on the audit chain)'),
  })
  .meta({ id: 'RequestorRevealCommand' });
export type RequestorRevealCommand = z.infer<typeof requestorRevealCommand>;

/** The answer of a reveal: the requestor block and the other identities the masked detail hides, in clear. */
export const requestorReveal = z
  .object({
    requestId: z.uuid(),
    requestor: requestor.describe("The detail's `requestor` block in clear"),
    contact: z.string().nullable().describe("The detail's `intakeSource.contact` in clear; null when intake recorded none"),
    accountIds: z.array(z.string()).describe('The references of `account_id` evidence, given at intake and then with the authority, each once, in clear'),
    fields: z.array(z.enum(REQUESTOR_IDENTITY_FIELDS)).describe('Which identities the request has and this reveal showed, as recorded (never their values)'),
    revealedAt: timestamp,
    eventId: z.uuid().describe('The `dsar.request.requestor_revealed.v1` event that records the reveal, on the timeline and the audit chain'),
  })
  .meta({ id: 'RequestorReveal' });
export type RequestorReveal = z.infer<typeof requestorReveal>;
