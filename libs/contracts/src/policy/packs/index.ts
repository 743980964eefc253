import auApp from './au-app.json';
import brLgpd from './br-lgpd.json';
import caPipeda from './ca-pipeda.json';
import caQcLaw25 from './ca-qc-law25.json';
import chNfadp from './ch-nfadp.json';
import euGdpr from './eu-gdpr.json';
import inDpdp from './in-dpdp.json';
import jpAppi from './jp-appi.json';
import sgPdpa from './sg-pdpa.json';
import ukGdpr from './uk-gdpr.json';
import ukGdpr110 from './uk-gdpr-1.1.0.json';
import usCaCcpa from './us-ca-ccpa.json';
import usCoCpa from './us-co-cpa.json';
import usCtCtdpa from './us-ct-ctdpa.json';
import usOrOcpa from './us-or-ocpa.json';
import usTxTdpsa from './us-tx-tdpsa.json';
import usUtUcpa from './us-ut-ucpa.json';
import usVaVcdpa from './us-va-vcdpa.json';
import zaPopia from './za-popia.json';

/**
 * Every built-in pack document, each version in its own file. A new version
 * is a new file: requests keep the version they pinned, so a shipped version
 * is never edited or removed.
 */
export const BUILT_IN_PACK_DOCUMENTS: readonly unknown[] = [
  euGdpr,
  ukGdpr,
  ukGdpr110,
  usCaCcpa,
  usVaVcdpa,
  usCoCpa,
  usCtCtdpa,
  usUtUcpa,
  usTxTdpsa,
  usOrOcpa,
  brLgpd,
  caPipeda,
  caQcLaw25,
  auApp,
  sgPdpa,
  zaPopia,
  chNfadp,
  jpAppi,
  inDpdp,
];

/**
 * What each built-in version changed, keyed `packId@version`: one entry for
 * every document in BUILT_IN_PACK_DOCUMENTS, written when the version ships
 * and, like the version itself, never edited afterwards.
 */
export const BUILT_IN_PACK_CHANGELOG: Readonly<Record<string, string>> = {
  'eu-gdpr@1.0.0': 'First release.',
  'uk-gdpr@1.0.0': 'First release.',
  'uk-gdpr@1.1.0':
    'Adds the rules for requests received before 5 February 2026, when the Data (Use and Access) Act 2025 s76 came into force: one month from receipt, identity and fee restarting the clock, and no stop-the-clock for clarification.',
  'us-ca-ccpa@1.0.0': 'First release.',
  'us-va-vcdpa@1.0.0': 'First release.',
  'us-co-cpa@1.0.0': 'First release.',
  'us-ct-ctdpa@1.0.0': 'First release.',
  'us-ut-ucpa@1.0.0': 'First release.',
  'us-tx-tdpsa@1.0.0': 'First release.',
  'us-or-ocpa@1.0.0': 'First release.',
  'br-lgpd@1.0.0': 'First release.',
  'ca-pipeda@1.0.0': 'First release.',
  'ca-qc-law25@1.0.0': 'First release.',
  'au-app@1.0.0': 'First release.',
  'sg-pdpa@1.0.0': 'First release.',
  'za-popia@1.0.0': 'First release.',
  'ch-nfadp@1.0.0': 'First release.',
  'jp-appi@1.0.0': 'First release.',
  'in-dpdp@1.0.0': 'First release.',
};

/** The changelog entry of a built-in pack version, or 'No changelog recorded.' when it has none. */
export function builtInChangelog(packId: string, version: string): string {
  // Keys hold an `@`, so no name inherited from Object.prototype can match.
  return BUILT_IN_PACK_CHANGELOG[`${packId}@${version}`] ?? 'No changelog recorded.';
}
