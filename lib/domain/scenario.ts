import { z } from 'zod';
import { isoTimestamp } from './time.ts';
import { trigger } from './trigger.ts';
import { changeKinds, remediationAction, rootCauseCategory, serviceKinds } from './vocabulary.ts';

const stringMap = z.record(z.string(), z.string());

export const serviceSpec = z.object({
  name: z.string().min(1),
  kind: z.enum(serviceKinds).optional(),
  dependsOn: z.array(z.string()).optional(),
  arn: z.string().optional(),
  tags: stringMap.optional(),
});

export const logEntry = z.object({
  service: z.string(),
  timestamp: isoTimestamp,
  level: z.string(),
  message: z.string(),
  logGroup: z.string().optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
});

export const metricSeries = z.object({
  service: z.string(),
  name: z.string(),
  points: z.array(z.tuple([isoTimestamp, z.number()])),
  namespace: z.string().optional(),
  dimensions: stringMap.optional(),
  unit: z.string().optional(),
  stat: z.string().optional(),
  periodSeconds: z.number().positive().optional(),
});

export const changeRecord = z.object({
  service: z.string(),
  timestamp: isoTimestamp,
  kind: z.enum(changeKinds),
  summary: z.string(),
  actor: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const alarmRecord = z.object({
  name: z.string(),
  service: z.string(),
  state: z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA']),
  since: isoTimestamp.optional(),
  reason: z.string().optional(),
  severity: z.string().optional(),
});

export const runbook = z.object({
  id: z.string(),
  title: z.string(),
  service: z.string().optional(),
  match: z.array(z.string()).optional(),
  steps: z.array(z.string()),
});

export const traceRecord = z.object({
  service: z.string(),
  timestamp: isoTimestamp,
  durationMs: z.number(),
  fault: z.boolean().optional(),
  error: z.string().optional(),
  segments: z.array(z.object({ service: z.string(), durationMs: z.number(), error: z.string().optional() })).optional(),
});

/** What the tools can see. Every array is optional: a missing one means "no data". */
export const environment = z.object({
  region: z.string().optional(),
  accountId: z.string().regex(/^\d{12}$/, 'expected a 12-digit AWS account id').optional(),
  services: z.array(serviceSpec).optional(),
  logs: z.array(logEntry).optional(),
  metrics: z.array(metricSeries).optional(),
  changes: z.array(changeRecord).optional(),
  alarms: z.array(alarmRecord).optional(),
  runbooks: z.array(runbook).optional(),
  traces: z.array(traceRecord).optional(),
});
export type Environment = z.infer<typeof environment>;

export const truth = z.object({
  incident: z.boolean(),
  rootCause: z
    .object({
      service: z.string(),
      category: z.union([rootCauseCategory, z.array(rootCauseCategory).min(1)]),
      keywords: z.array(z.array(z.string()).min(1)).optional(),
    })
    .optional(),
  remediation: z.array(z.object({ action: remediationAction, target: z.string() })).optional(),
  distractors: z.array(z.string()).optional(),
});
export type Truth = z.infer<typeof truth>;

/**
 * A scenario file (`sre-scenario/v1`, the public contract in shared/scenario-format.md) as
 * `investigate` reads it: the answer key is optional, since only `eval` grades.
 */
export const investigableScenario = z.object({
  format: z.literal('sre-scenario/v1'),
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'expected a kebab-case id such as checkout-latency-after-deploy'),
  title: z.string(),
  description: z.string().optional(),
  now: isoTimestamp,
  trigger,
  environment,
  truth: truth.optional(),
});
export type InvestigableScenario = z.infer<typeof investigableScenario>;

/** A scenario with its answer key, as `eval` needs it. */
export const scenario = investigableScenario.extend({ truth });
export type Scenario = z.infer<typeof scenario>;
