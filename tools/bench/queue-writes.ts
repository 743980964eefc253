/** What queue.bench.ts measures of the request counters' cost to writers, as it writes it to its JSON for the harness. */

export interface TriggerTimes {
  /** The counters' trigger, per statement (EXPLAIN ANALYZE's trigger time), ms. */
  triggerP50: number;
  triggerP95: number;
  /** The whole statement's execution, trigger included, ms. */
  statementP50: number;
}

export interface WriteCosts {
  bulkRows: number;
  /** Seconds for bulkRows rows by INSERT … SELECT, half with the counters' trigger and half without. */
  withTriggerS: number;
  withoutTriggerS: number;
  /** request_counts_rebuild() over every row afterwards, seconds, and the rows it counted. */
  rebuildS: number;
  rebuildRows: number;
  /** A create's INSERT, a transition's UPDATE (status changed), and an UPDATE that leaves the status (a clock change's). */
  insert: TriggerTimes;
  transition: TriggerTimes;
  unchanged: TriggerTimes;
}
