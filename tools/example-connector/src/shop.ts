import type { Pool, PoolClient } from 'pg';
import type { ErasureConfirmation, Task, TaskAnswer, TaskContext, TaskHandler } from '@dsar/connector-sdk';

/**
 * The example data system: a shop's customers and their orders in a PostgreSQL schema of its own. Its handler
 * answers an access task with the customer's rows and orders, and an erasure task with real DELETEs and their
 * counts; a person it does not know is `not_found`.
 */

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The categories of personal data the shop holds, as its data-system registration names them. */
export const SHOP_CATEGORIES = ['contact_details', 'orders'] as const;

export interface SampleCustomer {
  email: string;
  phone?: string;
  accountId?: string;
  name: string;
  orders: Array<{ item: string; amountCents: number; orderedAt: string }>;
}

/** The rows `setup --seed` writes: three customers, one of them without orders. */
export const SAMPLE_CUSTOMERS: SampleCustomer[] = [
  {
    email: 'jane@example.org',
    phone: '+4915112345678',
    accountId: 'acct-1001',
    name: 'Jane Doe',
    orders: [
      { item: 'Espresso machine', amountCents: 24900, orderedAt: '2026-01-12T09:30:00Z' },
      { item: 'Coffee beans 1 kg', amountCents: 1890, orderedAt: '2026-02-03T17:05:00Z' },
    ],
  },
  { email: 'max@example.org', phone: '+4917098765432', accountId: 'acct-1002', name: 'Max Mustermann', orders: [{ item: 'Milk frother', amountCents: 3990, orderedAt: '2026-02-20T11:00:00Z' }] },
  { email: 'erika@example.org', accountId: 'acct-1003', name: 'Erika Musterfrau', orders: [] },
];

/** A schema name, checked (it is written into SQL) and quoted. */
export function schemaName(name: string): string {
  if (!SCHEMA_NAME.test(name)) throw new Error(`the schema name ${JSON.stringify(name.slice(0, 80))} must be lower-case letters, digits and _`);
  return `"${name}"`;
}

/**
 * Creates the shop's tables (if missing), and with `seed` adds the sample customers that are not there yet.
 * `dsar_erasure` records each erasure under its task id: an erasure task run twice (its first answer was lost)
 * answers the first run's confirmation instead of finding nobody.
 */
export async function setupShop(pool: Pool, schema: string, options: { seed?: SampleCustomer[] } = {}): Promise<void> {
  const s = schemaName(schema);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.customer (
      id bigserial PRIMARY KEY,
      email text NOT NULL UNIQUE,
      phone text,
      account_id text UNIQUE,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.customer_order (
      id bigserial PRIMARY KEY,
      customer_id bigint NOT NULL REFERENCES ${s}.customer (id),
      item text NOT NULL,
      amount_cents integer NOT NULL,
      ordered_at timestamptz NOT NULL)`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.dsar_erasure (
      task_id uuid PRIMARY KEY,
      records_affected integer NOT NULL,
      categories text[] NOT NULL,
      performed_by text NOT NULL,
      performed_at timestamptz NOT NULL)`);
    for (const customer of options.seed ?? []) {
      const inserted = await client.query<{ id: string }>(`INSERT INTO ${s}.customer (email, phone, account_id, name) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id`, [
        customer.email,
        customer.phone ?? null,
        customer.accountId ?? null,
        customer.name,
      ]);
      const id = inserted.rows[0]?.id;
      if (id === undefined) continue;
      for (const order of customer.orders) {
        await client.query(`INSERT INTO ${s}.customer_order (customer_id, item, amount_cents, ordered_at) VALUES ($1, $2, $3, $4)`, [id, order.item, order.amountCents, order.orderedAt]);
      }
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** The ids of the customers any of the task's identities names (email compared without case). */
async function customersOf(db: Pool | PoolClient, s: string, task: Task, lock = false): Promise<string[]> {
  const values = (type: string) => task.identities.filter((i) => i.type === type).map((i) => i.value);
  const emails = values('email').map((e) => e.toLowerCase());
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM ${s}.customer WHERE lower(email) = ANY($1::text[]) OR phone = ANY($2::text[]) OR account_id = ANY($3::text[]) ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
    [emails, values('phone'), values('account_id')],
  );
  return rows.map((r) => r.id);
}

export interface ShopHandlerOptions {
  /** Who erases, as the confirmation's `performedBy` says. */
  performedBy: string;
  /** The time of an erasure (tests pass their clock). */
  now?: () => Date;
}

/** The connector's handler: access and erasure on the shop's tables; any other action is skipped with its reason. */
export function shopHandler(pool: Pool, schema: string, options: ShopHandlerOptions): TaskHandler {
  const s = schemaName(schema);
  const now = options.now ?? (() => new Date());
  return async (task: Task, context: TaskContext): Promise<TaskAnswer> => {
    switch (task.action) {
      case 'access':
        return access(pool, s, task, context);
      case 'erasure':
        return erase(pool, s, task, options.performedBy, now);
      default:
        return { outcome: 'skipped', reason: `the example shop does not take ${task.action} tasks` };
    }
  };
}

async function access(pool: Pool, s: string, task: Task, context: TaskContext): Promise<TaskAnswer> {
  const ids = await customersOf(pool, s, task);
  if (ids.length === 0) return { outcome: 'not_found', note: 'no customer with these identities' };
  const customers = await pool.query(`SELECT id, email, phone, account_id, name, created_at FROM ${s}.customer WHERE id = ANY($1::bigint[]) ORDER BY id`, [ids]);
  const orders = await pool.query(`SELECT id, customer_id, item, amount_cents, ordered_at FROM ${s}.customer_order WHERE customer_id = ANY($1::bigint[]) ORDER BY id`, [ids]);
  // The profile as rows (the service packages them), the orders as a file of the shop's own making: both ways a connector can answer.
  await context.uploadRows(customers.rows as Record<string, unknown>[], 'contact_details');
  const document = Buffer.from(`${JSON.stringify({ system: 'example-shop', taskId: task.taskId, orders: orders.rows }, null, 2)}\n`);
  await context.uploadFile(`orders-${task.taskId}.json`, 'application/json', document, { title: 'Orders' });
  return { outcome: 'complete', note: `${customers.rowCount} customer record(s), ${orders.rowCount} order(s)` };
}

/**
 * Deletes the customers and their orders in one transaction and records the erasure under the task id, so that a
 * task run again after its answer was lost gets the same confirmation.
 */
async function erase(pool: Pool, s: string, task: Task, performedBy: string, now: () => Date): Promise<TaskAnswer> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const done = await client.query<{ records_affected: number; categories: string[]; performed_by: string; performed_at: Date }>(
      `SELECT records_affected, categories, performed_by, performed_at FROM ${s}.dsar_erasure WHERE task_id = $1`,
      [task.taskId],
    );
    if (done.rows[0]) {
      await client.query('ROLLBACK');
      const first = done.rows[0];
      return { outcome: 'complete', erasure: confirmation(first.records_affected, first.categories, first.performed_by, first.performed_at) };
    }
    const ids = await customersOf(client, s, task, true);
    if (ids.length === 0) {
      await client.query('ROLLBACK');
      return { outcome: 'not_found', note: 'no customer with these identities' };
    }
    const orders = await client.query(`DELETE FROM ${s}.customer_order WHERE customer_id = ANY($1::bigint[])`, [ids]);
    const customers = await client.query(`DELETE FROM ${s}.customer WHERE id = ANY($1::bigint[])`, [ids]);
    const records = (orders.rowCount ?? 0) + (customers.rowCount ?? 0);
    const categories = ['contact_details', ...((orders.rowCount ?? 0) > 0 ? ['orders'] : [])];
    const at = now();
    await client.query(`INSERT INTO ${s}.dsar_erasure (task_id, records_affected, categories, performed_by, performed_at) VALUES ($1, $2, $3, $4, $5)`, [
      task.taskId,
      records,
      categories,
      performedBy,
      at,
    ]);
    await client.query('COMMIT');
    return { outcome: 'complete', note: `${customers.rowCount} customer(s) and ${orders.rowCount} order(s) deleted`, erasure: confirmation(records, categories, performedBy, at) };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

function confirmation(records: number, categories: string[], performedBy: string, at: Date): ErasureConfirmation {
  return { result: 'erased', recordsAffected: records, categoriesErased: categories, method: 'delete', performedBy, performedAt: at.toISOString() };
}
