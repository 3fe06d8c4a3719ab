import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, step } from './board-builder.ts';

const START = '2026-02-17T07:00:00.000Z';
const IMAGE = '1234.dkr.ecr.eu-west-1.amazonaws.com/quote-api';

/**
 * quote-api's CPU climbs from minute 80 as its load grows; at minute 85 a release rolls out
 * `released`; from minute 90 its new tasks stop, unable to pull `pulled`.
 */
const rollout = ({ released, pulled }: { released: string; pulled: string }) =>
  diagnose(
    boardFrom({
      brief: 'CloudWatch alarm "quote-web-5xx" is in ALARM',
      services: [
        { name: 'quote-web', kind: 'ecs', dependsOn: ['quote-api'] },
        { name: 'quote-api', kind: 'ecs' },
      ],
      alarms: [{ name: 'quote-web-5xx', service: 'quote-web', state: 'ALARM', since: at(START, 100) }],
      changes: [{ service: 'quote-api', timestamp: at(START, 85), kind: 'deploy', summary: 'quote-api deployment started, rolling update', details: { image: `${IMAGE}:${released}` } }],
      metrics: [{ service: 'quote-api', name: 'CPUUtilization', points: series(START, 120, step(80, 50, 97)) }],
      logs: [
        ...Array.from({ length: 20 }, (_, index) => ({ service: 'quote-api', timestamp: at(START, index * 5), level: 'INFO', message: `POST /quotes 200 quote=${index}` })),
        ...Array.from({ length: 8 }, (_, index) => ({
          service: 'quote-api',
          timestamp: at(START, 90 + index * 3),
          level: 'ERROR',
          message: `ECS task stopped: CannotPullContainerError: pull image manifest has been retried 5 time(s): ${IMAGE}:${pulled}: not found`,
        })),
      ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
    }),
  ).draft;

describe('a release whose tasks cannot pull the image it rolled out', () => {
  it('is the change behind the failures, though the service was in trouble a little before it: roll it back', () => {
    const draft = rollout({ released: '4.12.0', pulled: '4.12.0' });
    expect(draft.rootCause.service).toBe('quote-api');
    expect(draft.remediation[0]).toMatchObject({ action: 'rollback', target: 'quote-api' });
  });

  it('is not, when the image that cannot be pulled is another one', () => {
    expect(rollout({ released: '4.12.0', pulled: '4.11.7' }).remediation[0]?.action).not.toBe('rollback');
  });
});

describe('a release elsewhere whose tasks cannot pull its image', () => {
  it('is a failed deployment of its own, not the trouble on the path that paged', () => {
    const { rootCause } = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "quote-web-5xx" is in ALARM',
        services: [
          { name: 'quote-web', kind: 'ecs', dependsOn: ['quote-api'] },
          { name: 'quote-api', kind: 'ecs' },
          { name: 'webhooks', kind: 'ecs' },
        ],
        alarms: [{ name: 'quote-web-5xx', service: 'quote-web', state: 'ALARM', since: at(START, 100) }],
        changes: [{ service: 'webhooks', timestamp: at(START, 88), kind: 'deploy', summary: 'webhooks deployment started, rolling update', details: { image: `${IMAGE.replace('quote-api', 'webhooks')}:3.2.0` } }],
        logs: [
          ...Array.from({ length: 20 }, (_, index) => ({ service: 'quote-api', timestamp: at(START, index * 5), level: 'INFO', message: `POST /quotes 200 quote=${index}` })),
          ...Array.from({ length: 8 }, (_, index) => ({ service: 'quote-api', timestamp: at(START, 91 + index * 3), level: 'ERROR', message: 'java.lang.OutOfMemoryError: Java heap space while rating quote' })),
          ...Array.from({ length: 6 }, (_, index) => ({
            service: 'webhooks',
            timestamp: at(START, 95 + index * 3),
            level: 'ERROR',
            message: `ECS task stopped: CannotPullContainerError: ${IMAGE.replace('quote-api', 'webhooks')}:3.2.0: not found`,
          })),
        ].sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
      }),
    ).draft;
    expect(rootCause.service).toBe('quote-api');
  });
});
