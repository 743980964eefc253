import { markdownTableUnder, unquote } from '../docs/markdown-table';
import { type Permission, PERMISSIONS, ROLE_PERMISSIONS, ROLES } from './roles';

/**
 * docs/security.md shows the roles matrix as a table under
 * "## Roles and permissions"; it must say exactly what ROLE_PERMISSIONS
 * grants, so the documentation can never drift from what the gateway enforces.
 */

const GRANTED = 'yes';
const NOT_GRANTED = '—';

describe('docs/security.md roles matrix', () => {
  const table = markdownTableUnder('security.md', '## Roles and permissions');
  const roleColumn = (role: string) => table.header.findIndex((h) => unquote(h) === role);

  it('has a permission column, a description column and one column per role', () => {
    expect(table.header.length).toBe(2 + ROLES.length);
    expect(table.header[0]).toBe('Permission');
    expect(table.header.slice(2).map(unquote)).toEqual([...ROLES]);
  });

  it('has one row per permission, each once, in backticks, with its description', () => {
    const names = table.rows.map((r) => r[0]);
    expect(names.filter((n) => !/^`[^`]+`$/.test(n))).toEqual([]);
    expect(names.map(unquote)).toEqual(Object.keys(PERMISSIONS));
    expect(Object.fromEntries(table.rows.map((r) => [unquote(r[0]), r[1]]))).toEqual(PERMISSIONS);
  });

  it('grants exactly what ROLE_PERMISSIONS grants', () => {
    const documented: Record<string, string[]> = {};
    const badCells: string[] = [];
    for (const role of ROLES) {
      documented[role] = [];
      const column = roleColumn(role);
      for (const row of table.rows) {
        const cell = row[column];
        if (cell === GRANTED) documented[role].push(unquote(row[0]));
        else if (cell !== NOT_GRANTED) badCells.push(`${unquote(row[0])} / ${role}: "${cell ?? ''}" (expected ${GRANTED} or ${NOT_GRANTED})`);
      }
    }
    expect(badCells).toEqual([]);
    const expected = Object.fromEntries(ROLES.map((role) => [role, Object.keys(PERMISSIONS).filter((p) => ROLE_PERMISSIONS[role].includes(p as Permission))]));
    expect(documented).toEqual(expected);
  });
});
