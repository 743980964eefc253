import { addressOf, authoredText, fitText, htmlToText, messageIdsOf } from './mail-text';

describe('htmlToText', () => {
  it('keeps the words and line breaks, drops styles, scripts, comments and quoted blocks, decodes entities', () => {
    const html =
      '<html><head><title>x</title><style>p{color:red}</style></head><body><!-- c --><p>Bitte l&ouml;schen&nbsp;Sie <b>meine</b> Daten &amp; mehr&#33;</p>' +
      '<div>Zeile&#x20;2<br>Zeile 3</div><blockquote>zitiert</blockquote><script>alert(1)</script></body></html>';
    expect(htmlToText(html)).toBe('Bitte l&ouml;schen Sie meine Daten & mehr!\nZeile 2\nZeile 3');
  });
});

describe('authoredText', () => {
  it.each([
    ['On Mon, 3 Mar 2026 at 10:00, Team <t@x.example> wrote:'],
    ['Am 03.03.2026 um 10:00 schrieb Team <t@x.example>:'],
    ['Le 3 mars 2026 à 10:00, Équipe <t@x.example> a écrit :'],
    ['El lun, 3 mar 2026 a las 10:00, Equipo (<t@x.example>) escribió:'],
    ['Em seg., 3 de mar. de 2026 às 10:00, Equipe <t@x.example> escreveu:'],
    ['-----Original Message-----'],
    ['-----Ursprüngliche Nachricht-----'],
    ['---------- Forwarded message ---------'],
    ['Begin forwarded message:'],
  ])('cuts at %s', (intro) => {
    expect(authoredText(`Thanks!\n> quoted line\nSecond line\n\n${intro}\nThe old message`)).toBe('Thanks!\nSecond line');
  });

  it('cuts at an Outlook header block and at a quote intro wrapped over two lines', () => {
    expect(authoredText('Yes.\n\nFrom: Team <t@x.example>\nSent: Tuesday\nSubject: Q\nOld')).toBe('Yes.');
    expect(authoredText('Yes.\nOn Mon, 3 Mar 2026 at 10:00, Privacy Team\n<t@x.example> wrote:\nOld')).toBe('Yes.');
  });

  it('keeps a text with nothing quoted', () => {
    expect(authoredText('  Please delete my data.\nThanks  ')).toBe('Please delete my data.\nThanks');
  });
});

describe('addressOf and messageIdsOf', () => {
  it('reads the address of a mailbox, lower case', () => {
    expect(addressOf('Jane Doe <Jane.Doe@Example.org>')).toBe('jane.doe@example.org');
    expect(addressOf('"Doe, Jane" <jane@example.org>')).toBe('jane@example.org');
    expect(addressOf('jane@example.org')).toBe('jane@example.org');
    expect(addressOf('mailto:jane@example.org')).toBe('jane@example.org');
    expect(addressOf('Jane Doe')).toBeUndefined();
  });

  it('lists the Message-IDs of In-Reply-To and References', () => {
    expect(messageIdsOf('<a@x> <b@y>\r\n <c@z>')).toEqual(['a@x', 'b@y', 'c@z']);
    expect(messageIdsOf(['<a@x>', '<b@y>'])).toEqual(['a@x', 'b@y']);
    expect(messageIdsOf('a@x')).toEqual(['a@x']);
    expect(messageIdsOf(undefined)).toEqual([]);
  });
});

describe('fitText', () => {
  it('drops the control characters a request refuses and cuts to the limit on a character', () => {
    expect(fitText('a\u0000b\u0007c\td\ne\rf\u007f', 100)).toBe('abc\td\ne\rf');
    expect(fitText('ab😀cd', 3)).toBe('ab');
    expect(fitText('abcdef', 4)).toBe('abcd');
  });
});
