import { type LanguageDetector, loadLanguageDetector } from './language/language-detector';
import { classifyMessage as classifyWith, type InboundText } from './message-classifier';

/**
 * The classifier's steps one by one (the labelled set measures it as a whole:
 * classifier-evaluation/).
 */

let detector: LanguageDetector;
beforeAll(async () => {
  detector = await loadLanguageDetector();
}, 30_000);
const classifyMessage = (message: InboundText) => classifyWith(message, detector);

describe('classifyMessage', () => {
  it("takes a request in the author's words, with its type and language", () => {
    expect(classifyMessage({ subject: 'Delete my account', text: 'Please delete my account and all my data.' })).toMatchObject({
      isRequest: true,
      reason: 'request',
      reading: { requestType: 'deletion', rule: 'deletion.en', language: 'en', locale: 'en' },
    });
    expect(classifyMessage({ text: 'Bitte löschen Sie alle meine Daten.' })).toMatchObject({ isRequest: true, reading: { requestType: 'deletion', language: 'de' } });
  });

  it("needs the author's own data, a right or law, or a first-person ask beside the request phrase", () => {
    expect(classifyMessage({ text: 'Could you delete the duplicate line on the March invoice?' })).toMatchObject({ isRequest: false, reason: 'not_a_request' });
    expect(classifyMessage({ text: 'Under the GDPR I would like the pictures your door camera took of me.' })).toMatchObject({
      isRequest: true,
      reading: { requestType: null, triageReason: 'no_rule_matched' },
    });
    expect(classifyMessage({ text: 'Please wipe all personal data relating to me.' })).toMatchObject({ isRequest: true, reading: { requestType: 'deletion' } });
  });

  it('reads only what the author wrote: not the quoted message, nor the subject of a reply, nor a quoted reference', () => {
    const reply = {
      subject: 'Re: Your request DSAR-1A2B3C4D: please confirm your identity',
      text: 'Thanks, attached is a copy of my passport.\n\nOn Mon, 3 Mar 2026 at 10:00, Privacy Team <privacy@acme.example> wrote:\n> Please confirm your request to delete your personal data.',
    };
    expect(classifyMessage(reply)).toMatchObject({ isRequest: false, reason: 'not_a_request' });
    expect(classifyMessage({ subject: 'DSAR-1A2B3C4D', text: 'Thank you.' })).toMatchObject({ isRequest: false, cues: [] });
  });

  it('ignores delivery reports by sender, header, subject, or body when nothing is asked', () => {
    expect(classifyMessage({ from: 'Mail Delivery System <MAILER-DAEMON@mx.example.org>', text: 'Please delete my data' })).toMatchObject({ reason: 'bounce' });
    expect(classifyMessage({ text: 'x', headers: { 'content-type': 'multipart/report; report-type=delivery-status' } })).toMatchObject({ reason: 'bounce' });
    expect(classifyMessage({ subject: 'Undeliverable: your request', text: 'The mailbox is full.' })).toMatchObject({ reason: 'bounce' });
    expect(classifyMessage({ text: 'Your message could not be delivered. This is a permanent error.' })).toMatchObject({ reason: 'bounce' });
  });

  it('ignores automatic replies; a weak "auto-generated" header does not hide a request', () => {
    expect(classifyMessage({ subject: 'Automatic reply: hello', text: 'Please delete my data' })).toMatchObject({ reason: 'auto_reply' });
    expect(classifyMessage({ text: 'I am out of the office until Monday.', headers: { 'auto-submitted': 'auto-replied' } })).toMatchObject({ reason: 'auto_reply' });
    expect(classifyMessage({ text: 'I am out of the office until Monday.' })).toMatchObject({ reason: 'auto_reply' });
    expect(classifyMessage({ text: 'Please delete my personal data.', headers: { 'auto-submitted': 'auto-generated' } })).toMatchObject({ reason: 'request' });
    expect(classifyMessage({ text: 'Thanks for your message.', headers: { 'auto-submitted': 'auto-generated' } })).toMatchObject({ reason: 'auto_reply' });
    expect(classifyMessage({ text: 'Please delete my personal data.', headers: { 'auto-submitted': 'no' } })).toMatchObject({ reason: 'request' });
  });

  it('ignores bulk mail by its footer, and a forwarded newsletter is read for what the author wrote above it', () => {
    const newsletter = 'Save 40% today!\n\nYou are receiving this email because you subscribed. Unsubscribe here.';
    expect(classifyMessage({ text: `Please unsubscribe me from your marketing. ${newsletter}` })).toMatchObject({ reason: 'bulk_mail' });
    expect(classifyMessage({ text: 'x', headers: { precedence: 'bulk' } })).toMatchObject({ reason: 'bulk_mail' });
    expect(classifyMessage({ text: `Please stop sending me these.\n\n---------- Forwarded message ---------\n${newsletter}` })).toMatchObject({
      reason: 'request',
      reading: { requestType: 'opt_out' },
    });
    // A mailing-list group adds List-Id and List-Unsubscribe to every message: no cue.
    expect(classifyMessage({ text: 'Please delete my data.', headers: { 'list-id': '<privacy.acme.example>', 'list-unsubscribe': '<mailto:x>' } })).toMatchObject({ reason: 'request' });
  });

  it("ignores offers unless the author asks about their own data; and notices about the reader's rights", () => {
    expect(classifyMessage({ text: 'Our software deletes personal data automatically. Book a demo!' })).toMatchObject({ reason: 'spam' });
    expect(classifyMessage({ text: 'I have a gift card from you; please delete my account anyway.' })).toMatchObject({ reason: 'request' });
    expect(classifyMessage({ text: 'We have updated our privacy policy. You have the right to delete your data.' })).toMatchObject({ reason: 'informational' });
  });

  it('says so when there is nothing to read', () => {
    expect(classifyMessage({ subject: '', text: '  \n' })).toMatchObject({ isRequest: false, reason: 'empty_message', reading: { language: null } });
  });

  it('reports the detected language of a message that is no request', () => {
    expect(classifyMessage({ text: 'Ich habe eine Frage zu meiner Bestellung, bitte.' })).toMatchObject({ isRequest: false, reading: { language: 'de', requestType: null } });
  });

  it('takes no support question, complaint about lost data, feature request or survey for a request', () => {
    expect(classifyMessage({ subject: 'Question', text: 'I have a question about my invoice: what is the service fee?' })).toMatchObject({ isRequest: false });
    expect(classifyMessage({ text: 'Since your update my saved recipes are gone! I never asked you to delete them. Please bring them back.' })).toMatchObject({
      isRequest: false,
      reason: 'not_a_request',
      cues: expect.arrayContaining(['complaint']) as unknown,
    });
    expect(classifyMessage({ text: 'Feature request: could your API offer an endpoint to export a contact for Art. 20 GDPR portability? Our customers ask us for it.' })).toMatchObject({
      isRequest: false,
      cues: expect.arrayContaining(['feature_request']) as unknown,
    });
    expect(classifyMessage({ text: 'For my thesis I run a short survey on how shops handle erasure requests under the GDPR. Could you answer it?' })).toMatchObject({
      isRequest: false,
      cues: expect.arrayContaining(['research']) as unknown,
    });
  });

  it('still takes a complaint that asks for a right by its article', () => {
    expect(classifyMessage({ text: 'You lost my parcel and now I want out: under Art. 17 GDPR erase my account and data.' })).toMatchObject({
      isRequest: true,
      reading: { requestType: 'deletion' },
    });
  });

  it('captures a request in a language it does not read, for triage, by a law named or a few words of personal data and asking', () => {
    expect(classifyMessage({ subject: 'RODO', text: 'Na podstawie art. 15 RODO proszę o kopię moich danych.' })).toMatchObject({
      isRequest: true,
      reading: { requestType: null, suggestedType: null, triageReason: 'unsupported_language', language: 'pl', locale: null },
      cues: expect.arrayContaining(['unsupported_language', 'citation']) as unknown,
    });
    expect(classifyMessage({ text: 'Hej, jag ber er att radera alla mina personuppgifter och mitt konto. Tack!' })).toMatchObject({
      isRequest: true,
      reading: { triageReason: 'unsupported_language', language: 'sv' },
    });
    expect(classifyMessage({ text: 'Hej, hvornår kommer min pakke? Jeg har ventet i to uger.' })).toMatchObject({ isRequest: false, reading: { language: 'da' } });
  });

  it("sets the agent's requestor type", () => {
    expect(classifyMessage({ text: 'On behalf of my client, and with the attached power of attorney, I request erasure of her personal data.' })).toMatchObject({
      isRequest: true,
      reading: { requestorType: 'authorized_agent', requestType: 'deletion' },
      cues: expect.arrayContaining(['agent']) as unknown,
    });
  });

  it('is deterministic', () => {
    const message = { subject: 'Auskunft', text: 'Ich verlange Auskunft nach Art. 15 DSGVO.' };
    expect(classifyMessage(message)).toEqual(classifyMessage(message));
  });
});
