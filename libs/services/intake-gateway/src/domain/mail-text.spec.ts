import { expectLinearGrowth } from '@dsar/platform/test-measure';
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

describe('the cost of reading what anyone can mail', () => {
  /** Texts built to make a backtracking pattern rescan its input from every position. */
  const HOSTILE: Record<string, (length: number) => string> = {
    'a run of address characters': (n) => 'a.'.repeat(n / 2),
    dashes: (n) => '-'.repeat(n),
    'character references': (n) => '&#1'.repeat(n / 3),
    'bracketed addresses never closed': (n) => `<${'a@'.repeat(n / 2)}`,
    'open tags': (n) => '<'.repeat(n),
    'open tags with names': (n) => '<a'.repeat(n / 2),
    'open comments': (n) => '<!--'.repeat(n / 4),
    'open style elements': (n) => '<style'.repeat(n / 6),
    'open quoted blocks': (n) => '<blockquote>'.repeat(n / 12),
    'a German introduction of many verbs': (n) => `Am Montag ${'schrieb '.repeat(n / 8)}`,
  };

  const readAll = (text: string) => [htmlToText(text), authoredText(text), addressOf(text)];

  // A quadratic pattern takes seconds on 64 KB (16 times as long for 4 times the text); these take a few milliseconds.
  it.each(Object.entries(HOSTILE))('grows linearly with the text: %s', (_name, make) => {
    expectLinearGrowth(make, readAll, 16_384);
  });

  it('reads mail as before, and a comment left open as running to the end of the text', () => {
    expect(addressOf('Jane Doe <jane@example.org>')).toBe('jane@example.org');
    expect(addressOf('reply to jane@example.org, thanks')).toBe('jane@example.org');
    expect(htmlToText('<p>Hi<!-- note --> there</p><style>p{}</style>a &lt; b<blockquote>old</blockquote>')).toBe('Hi there\na < b');
    expect(htmlToText('kept<!-- never closed <p>dropped')).toBe('kept');
    expect(authoredText('Mine.\nAm 1. März 2026 schrieb Jane Doe <jane@example.org>:\n> quoted')).toBe('Mine.');
  });
});
