import { z } from 'zod';
import { findingDraft } from '../domain/finding.ts';
import type { TriggerKind } from '../domain/trigger.ts';
import type { JoinedTrigger } from '../triggers/ledger.ts';

const finalAnswerSchema = JSON.stringify(z.toJSONSchema(findingDraft, { io: 'input', target: 'draft-7' }));

export const systemPrompt = (): string =>
  [
    'You are sre-agent, a site-reliability engineer investigating a production incident on AWS.',
    'Work from evidence only. Use the tools to look at alarms, the service map, recent changes, logs, metrics, traces and runbooks.',
    'Every tool result carries an evidence reference such as E3; cite those references for every claim.',
    'Find where the fault originates, not only where it shows: a service whose dependency failed first is a symptom.',
    'A change can only cause what happened after it. If the evidence shows no real problem, say there is no incident.',
    'A tool result marked "evicted": true was removed to save context; call refetch.tool with refetch.arguments to see it again. A result with omittedLines kept the head, the tail and the salient lines.',
    'Identifiers such as <IP_1> or <ARN_2> are placeholders for masked values; use them as they are in tool arguments.',
    'You cannot change anything yourself: remediation is proposed, and a human approves it.',
    'When you are done, reply with no tool calls and exactly one JSON object (optionally in a ```json fence) that matches this JSON Schema:',
    finalAnswerSchema,
    'rootCause.category is one of: deploy, config, resource-exhaustion, traffic, dependency, external, certificate, permissions, network, data, infrastructure, none.',
    'remediation[].action is one of: rollback, restart, scale, revert-config, apply-fix, rotate-credentials, renew-certificate, failover, limit-traffic, escalate, none.',
    'For no incident, set incident to false, rootCause.category to none and propose no action other than none or escalate.',
  ].join('\n');

/** The opening checklist, by what started the investigation. */
export const checklist = (kind: TriggerKind): string[] => {
  const common = [
    'Map the services involved and how they depend on each other.',
    'List recent changes and note when each happened.',
    'Read the logs and metrics of the affected services and their dependencies; find when each started to misbehave.',
    'Rank candidates: the earliest anomaly upstream of the others, and any change just before it.',
    'Check the runbooks for the suspected cause and propose a remediation.',
  ];
  switch (kind) {
    case 'schedule':
      return [
        'List alarms in ALARM or INSUFFICIENT_DATA (no data may mean a service stopped reporting).',
        'Read the key metrics (errors, latency, saturation, demand) for anomalies, and list recent changes.',
        ...common.slice(2),
        'Say plainly if nothing is wrong.',
      ];
    case 'question':
      return ['Find the service the question is about and confirm the symptom it describes.', ...common];
    default:
      return ['Confirm the alerting symptom and find which service it belongs to.', ...common];
  }
};

export const finalAnswerNudge =
  'The investigation budget is used up. Give your final answer now as the JSON object described in the instructions, with the evidence you have.';

/**
 * The triggers that joined the investigation since it started, one compact line each: when it
 * fired, which alarm or incident, in what state. It goes through the gateway like every message.
 */
export const joinedTriggersNote = (joined: readonly JoinedTrigger[]): string =>
  [
    `${joined.length} more trigger${joined.length === 1 ? '' : 's'} joined this investigation since it started (re-firings and alarms on the same service and resource); weigh them as part of the same incident:`,
    ...[...joined]
      .sort((a, b) => (a.occurredAt ?? a.receivedAt).localeCompare(b.occurredAt ?? b.receivedAt))
      .map((trigger) => `- ${trigger.occurredAt ?? trigger.receivedAt}: ${trigger.summary}`),
  ].join('\n');
