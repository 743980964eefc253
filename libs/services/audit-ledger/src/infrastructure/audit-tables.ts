/** Table names of the ledger's schema; SQL lives in AuditStore and the migrations. */
export const AuditTables = {
  entries: 'audit_entries',
  heads: 'audit_chain_heads',
  purgedPrefixes: 'audit_purged_prefixes',
  salts: 'audit_request_salts',
  checkpoints: 'audit_checkpoints',
  checkpointLeaves: 'audit_checkpoint_leaves',
  checkpointTenants: 'audit_checkpoint_tenants',
} as const;
