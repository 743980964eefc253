import { classifyMessage } from './message-classifier';

/**
 * The classifier's steps one by one (the labelled set measures it as a whole:
 * classifier-evaluation/).
 */

describe('classifyMessage', () => {
  it("takes a request in the author's words, with its type and language", () => {
    expect(classifyMessage({ subject: 'Delete my account', text: 'Please delete my account and all my data.' })).toMatchObject({
      isRequest: true,
      reason: 'request',
      requestType: 'deletion',
      rule: 'deletion.en',
      language: 'en',
    });
    expect(classifyMessage({ text: 'Bitte löschen Sie alle meine Daten.' })).toMatchObject({ isRequest: true, requestType: 'deletion', language: 'de' });
  });

  it("needs the author's own data, a right or law, or a first-person ask beside the request phrase", () => {
    expect(classifyMessage({ text: 'Could you delete the duplicate line on the March invoice?' })).toMatchObject({ isRequest: false, reason: 'not_a_request' });
    expect(classifyMessage({ text: 'Under the GDPR I would like a copy of the CCTV footage showing me.' })).toMatchObject({ isRequest: true, requestType: 'access', rule: 'default' });
    expect(classifyMessage({ text: 'Please wipe all personal data relating to me.' })).toMatchObject({ isRequest: true, requestType: 'deletion' });
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
    expect(classifyMessage({ text: `Please stop sending me these.\n\n---------- Forwarded message ---------\n${newsletter}` })).toMatchObject({ reason: 'request', requestType: 'objection' });
    // A mailing-list group adds List-Id and List-Unsubscribe to every message: no cue.
    expect(classifyMessage({ text: 'Please delete my data.', headers: { 'list-id': '<privacy.acme.example>', 'list-unsubscribe': '<mailto:x>' } })).toMatchObject({ reason: 'request' });
  });

  it("ignores offers unless the author asks about their own data; and notices about the reader's rights", () => {
    expect(classifyMessage({ text: 'Our software deletes personal data automatically. Book a demo!' })).toMatchObject({ reason: 'spam' });
    expect(classifyMessage({ text: 'I have a gift card from you; please delete my account anyway.' })).toMatchObject({ reason: 'request' });
    expect(classifyMessage({ text: 'We have updated our privacy policy. You have the right to delete your data.' })).toMatchObject({ reason: 'informational' });
  });

  it('says so when there is nothing to read', () => {
    expect(classifyMessage({ subject: '', text: '  \n' })).toMatchObject({ isRequest: false, reason: 'empty_message', language: null });
  });

  it('reports the language of a message that is no request from its common words', () => {
    expect(classifyMessage({ text: 'Ich habe eine Frage zu meiner Bestellung, bitte.' })).toMatchObject({ isRequest: false, language: 'de' });
  });

  it('is deterministic', () => {
    const message = { subject: 'Auskunft', text: 'Ich verlange Auskunft nach Art. 15 DSGVO.' };
    expect(classifyMessage(message)).toEqual(classifyMessage(message));
  });
});
