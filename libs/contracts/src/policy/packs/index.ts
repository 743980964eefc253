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
