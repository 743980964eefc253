import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { qualifiedTable, quoteIdent } from './data-source';

/** One parameterized INSERT, UPDATE or DELETE, its placeholders numbered `$1`… within it. */
export interface SqlWrite {
  readonly sql: string;
  readonly params: readonly unknown[];
}

const PLACEHOLDER = /\$(\d+)/g;

/**
 * Several writes as one statement, one round trip: every write but the last becomes a data-modifying CTE of the last
 * (`WITH w1 AS (…), w2 AS (…) <last>`), its placeholders renumbered after those before it. PostgreSQL runs each one to
 * completion, all against the snapshot the statement started with, so none may depend on another's effect: no two
 * writes of one row, no UPDATE of a row another inserts. Constraints hold as for separate statements, and statement
 * triggers fire once the whole statement is done (the request counters' do). A write here is one INSERT, UPDATE or
 * DELETE without a WITH of its own and without a `$` but its placeholders.
 */
export function combinedWrite(writes: readonly SqlWrite[]): SqlWrite {
  if (writes.length === 0) throw new Error('combinedWrite needs at least one write');
  if (writes.length === 1) return writes[0];
  const params: unknown[] = [];
  const parts = writes.map((w) => {
    const offset = params.length;
    params.push(...w.params);
    return offset === 0 ? w.sql : w.sql.replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + offset}`);
  });
  const last = parts.pop() as string;
  return { sql: `WITH ${parts.map((sql, i) => `w${i + 1} AS (${sql})`).join(', ')} ${last}`, params };
}

/**
 * The INSERT of new rows of an entity as raw SQL, from its TypeORM metadata: what `manager.insert` sends, without its
 * query builder, its subscribers or its read-back of generated values (RETURNING), so that it can go out with other
 * writes (`combinedWrite`, `UnitOfWork.defer`). Values are prepared by the driver as TypeORM prepares them (JSON
 * columns serialized, transformers applied). A property left undefined takes the column's default, as with TypeORM,
 * except the version column, which starts at 1; nothing the database fills in is read back.
 */
export function entityInsert<T extends ObjectLiteral>(dataSource: DataSource, target: EntityTarget<T>, rows: readonly T[]): SqlWrite {
  if (rows.length === 0) throw new Error('entityInsert needs at least one row');
  const metadata = dataSource.getMetadata(target);
  const columns = metadata.columns.filter((c) => !c.isVirtual);
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const values = columns.map((column) => {
      const given: unknown = column.getEntityValue(row);
      const value = given === undefined && column.isVersion ? 1 : given;
      if (value === undefined) return 'DEFAULT';
      params.push(dataSource.driver.preparePersistentValue(value, column));
      return `$${params.length}`;
    });
    return `(${values.join(', ')})`;
  });
  const names = columns.map((c) => quoteIdent(c.databaseName)).join(', ');
  return { sql: `INSERT INTO ${qualifiedTable(dataSource, metadata.tableName)} (${names}) VALUES ${tuples.join(', ')}`, params };
}
