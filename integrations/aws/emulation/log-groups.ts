import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceArnOf, serviceNamed } from './service-identity.ts';

/** Everything recorded up to the incident's clock. */
const ALL_HISTORY_MINUTES = 10 * 365 * 24 * 60;

/** The log group a service of this kind writes to by convention, when the scenario's line does not name one. */
export const conventionalLogGroupOf = (environment: RecordedEnvironment, serviceName: string): string => {
  switch (serviceNamed(environment, serviceName)?.kind) {
    case 'lambda':
      return `/aws/lambda/${serviceName}`;
    case 'ecs':
      return `/ecs/${serviceName}`;
    case 'rds':
      return `/aws/rds/instance/${serviceName}/postgresql`;
    default:
      return `/app/${serviceName}`;
  }
};

export interface EmulatedLogEvent {
  millis: number;
  service: string;
  logGroup: string;
  /** The event as CloudWatch stores it: a JSON line, as a structured logger (Powertools) writes it. */
  message: string;
  /** Stable per event, as Insights' `@ptr` is. */
  pointer: string;
  /** The recorded level, for the pattern command's severity label. */
  level: string;
}

const cache = new WeakMap<RecordedEnvironment, EmulatedLogEvent[]>();

/**
 * The scenario's log lines as CloudWatch Logs holds them, oldest first. A line in a group several
 * services write to (an EventBridge rule's target for ECS events) names its source, as such records
 * do (an ECS event's `group: service:<name>`, a structured logger's `service` key); elsewhere the
 * group says it.
 */
export const emulatedLogEvents = (environment: RecordedEnvironment): EmulatedLogEvent[] => {
  const cached = cache.get(environment);
  if (cached) return cached;
  const lines = environment.logs(ALL_HISTORY_MINUTES).map((line) => ({ line, logGroup: line.logGroup ?? conventionalLogGroupOf(environment, line.service) }));
  const writers = new Map<string, Set<string>>();
  for (const { line, logGroup } of lines) writers.set(logGroup, (writers.get(logGroup) ?? new Set()).add(line.service));
  const events = lines.map(({ line, logGroup }, index) => {
    const shared = (writers.get(logGroup)?.size ?? 0) > 1;
    return {
      millis: Date.parse(line.timestamp),
      service: line.service,
      logGroup,
      message: JSON.stringify({ level: line.level, message: line.message, ...(shared ? { service: line.service } : {}), ...(line.fields ?? {}) }),
      pointer: `CmQKJQohMTIzNDU2Nzg5MDEyOi${index.toString(36).padStart(6, '0')}`,
      level: line.level,
    };
  });
  cache.set(environment, events);
  return events;
};

/** Each service's log groups: those its recorded lines are in, else its conventional one. Empty when the scenario recorded no logs. */
export const emulatedLogGroups = (environment: RecordedEnvironment): Map<string, string[]> => {
  const groups = new Map<string, string[]>();
  if (!environment.has('logs')) return groups;
  for (const event of emulatedLogEvents(environment)) {
    const owned = groups.get(event.service) ?? [];
    if (!owned.includes(event.logGroup)) owned.push(event.logGroup);
    groups.set(event.service, owned);
  }
  for (const service of environment.services) if (!groups.has(service.name)) groups.set(service.name, [conventionalLogGroupOf(environment, service.name)]);
  return groups;
};

/**
 * The log groups that exist in the emulated account: every service's, and each Lambda function's
 * `/aws/lambda/<function>` (Lambda creates it), even when the scenario recorded its lines elsewhere.
 */
export const existingLogGroups = (environment: RecordedEnvironment): Set<string> => {
  const existing = new Set([...emulatedLogGroups(environment).values()].flat());
  for (const service of environment.services) {
    const functionName = /:function:([^:]+)/.exec(serviceArnOf(environment, service) ?? '')?.[1];
    if (functionName) existing.add(`/aws/lambda/${functionName}`);
  }
  return existing;
};
