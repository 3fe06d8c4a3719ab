export {
  backoffDelay,
  ModelChainError,
  realSleep,
  ResilientModel,
  type AttemptEvent,
  type AttemptNext,
  type ResilienceOptions,
} from './resilient-model.ts';
export { defaultShrink, evictOldestToolResults, isEvicted, type EvictionOptions, type ShrinkRequest } from './shrink.ts';
