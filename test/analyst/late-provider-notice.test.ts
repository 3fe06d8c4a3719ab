import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

const board = (change: { kind: string; summary: string }) =>
  boardFrom({
    brief: 'CloudWatch alarm "api-5xx" is in ALARM',
    services: [{ name: 'lb', kind: 'elb', dependsOn: ['api'] }, { name: 'api', kind: 'ecs', dependsOn: ['table'] }, { name: 'table', kind: 'dynamodb' }],
    alarms: [{ name: 'api-5xx', service: 'api', state: 'ALARM', since: at(START, 65) }],
    changes: [{ service: 'api', timestamp: at(START, 80), ...change }],
    logs: [
      ...Array.from({ length: 12 }, (_, index) => ({ service: 'api', timestamp: at(START, index * 5), level: 'INFO', message: `POST /quotes 200 ${50 + index}ms` })),
      ...Array.from({ length: 12 }, (_, index) => ({ service: 'api', timestamp: at(START, 61 + index * 2), level: 'ERROR', message: `POST /quotes 500: connect ETIMEDOUT 10.40.64.${index}:443` })),
    ],
  });

describe('a provider posts its infrastructure notice after the impact began', () => {
  it('an infrastructure event posted twenty minutes after the onset still explains it', () => {
    const diagnosis = diagnose(board({ kind: 'infrastructure', summary: 'AWS Health: increased packet loss in one Availability Zone' }));
    expect(diagnosis.draft.rootCause.service).toBe('api');
    expect(diagnosis.draft.rootCause.category).toBe('infrastructure');
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'failover', target: 'api' });
  });

  it('a deploy after the onset did not cause it', () => {
    const diagnosis = diagnose(board({ kind: 'deploy', summary: 'api v2 rolled out' }));
    expect(diagnosis.suspectChange).toBeUndefined();
    expect(diagnosis.draft.rootCause.category).not.toBe('deploy');
  });
});
