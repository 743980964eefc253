import { loadLanguageDetector } from '../language/language-detector';
import { classifyAll, confusionTable, languageTable, loadLabelledSet, markdownRows, typeTable } from './evaluation';

/**
 * Prints the rows of the three tables under "### Measured figures" in docs/intake.md, as the evaluation computes
 * them, for when the labelled set or the rules change:
 *
 *   node tools/scripts/run-ts.cjs libs/services/intake-gateway/src/domain/classifier-evaluation/print-figures.ts
 */
async function main(): Promise<void> {
  const set = loadLabelledSet();
  const verdicts = classifyAll(set, await loadLanguageDetector());
  const code = (rows: string[][]): string[][] => rows.map(([first, ...rest]) => [first === 'all' ? first : `\`${first}\``, ...rest]);
  process.stdout.write(`#### Per language\n${markdownRows(code(languageTable(set, verdicts)))}\n\n`);
  process.stdout.write(`#### Per type\n${markdownRows(code(typeTable(set, verdicts)))}\n\n`);
  process.stdout.write(`#### Confusion matrix (held-out)\n${markdownRows(code(confusionTable(set, verdicts)))}\n`);
}

void main();
