import { isSupportedLanguage, loadLanguageDetector } from './language-detector';

describe('the language detector', () => {
  it('reads the seven languages of the rules and tells others apart', async () => {
    const detector = await loadLanguageDetector();
    expect(detector.detect('Bitte löschen Sie mein Konto und alle meine Daten')).toBe('de');
    expect(detector.detect('Verwijder mijn account en al mijn gegevens alstublieft')).toBe('nl');
    expect(detector.detect('Chcę usunąć wszystkie moje dane osobowe z waszej bazy.')).toBe('pl');
    expect(isSupportedLanguage('nl')).toBe(true);
    expect(isSupportedLanguage('pl')).toBe(false);
  });
});
