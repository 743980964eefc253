/**
 * The DSAR connector SDK (README.md): connects a data system to the DSAR service. A feed says which tasks to take
 * (the task topic, or the pending list over HTTP), the runner claims each, keeps its lease alive, calls the handler
 * and sends its outcome.
 */
export { type Backoff, DEFAULT_BACKOFF } from './backoff';
export {
  type FeedContext,
  kafkaFeed,
  type KafkaFeedOptions,
  messageFeed,
  type MessageFeedOptions,
  offerOf,
  pullFeed,
  type PullFeedOptions,
  type TaskFeed,
  type TaskOffer,
  type TaskTopicMessage,
} from './feeds';
export { jsonLogger, type Logger, type LogLevel, silentLogger } from './logger';
export { type Connector, type ConnectorOptions, type ConnectorStats, runConnector, type StopOptions, type Task, TaskError, type TaskContext, type TaskHandler } from './runner';
export { type PendingTask, TaskApi, TaskApiError, type TaskApiOptions, type TaskFileStored, type TaskLease, type UploadBody } from './task-api';
export { SDK_VERSION, TASK_CONTRACT_VERSION } from './version';
export type { ErasureConfirmation, TaskAnswer, TaskWork } from '@dsar/contracts';
