/**
 * The SDK's version (semver, see README "Versioning"): sent in every call's User-Agent, so that the service's logs
 * show which connectors still run an old one.
 */
export const SDK_VERSION = '1.0.0';

/** The task contract this SDK speaks: the `v1` of dsar.task.*.v1 events and of /api/v1. */
export const TASK_CONTRACT_VERSION = 'v1';
