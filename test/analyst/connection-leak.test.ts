import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-05-01T10:00:00.000Z';

describe('a client pool that never releases its connections', () => {
  it('is resource exhaustion at the service that holds the pool, named as a leak, with the idle database cleared', () => {
    const diagnosis = diagnose(
      boardFrom({
        brief: 'Question: is the database overloaded?',
        services: [{ name: 'api', kind: 'ecs', dependsOn: ['db'] }, { name: 'db', kind: 'rds' }, { name: 'web', kind: 'ecs', dependsOn: ['api'] }],
        metrics: [
          { service: 'api', name: 'DbPoolCheckedOut', points: series(START, 120, (minute) => Math.min(20, 2 + minute * 0.2)) },
          { service: 'db', name: 'CPUUtilization', points: series(START, 120, () => 12) },
        ],
        logs: [
          ...Array.from({ length: 12 }, (_, index) => ({ service: 'api', timestamp: at(START, index * 8), level: 'INFO', message: `POST /bookings 201 ${60 + index}ms` })),
          ...Array.from({ length: 10 }, (_, index) => ({
            service: 'api',
            timestamp: at(START, 95 + index * 2),
            level: 'ERROR',
            message: `timeout exceeded when trying to connect (pool totalCount=20 idleCount=0 waitingCount=${40 + index})`,
          })),
        ],
      }),
    );
    expect(diagnosis.draft.rootCause.service).toBe('api');
    expect(diagnosis.draft.rootCause.category).toBe('resource-exhaustion');
    expect(diagnosis.draft.rootCause.summary).toMatch(/connection leak/);
    expect(diagnosis.draft.remediation.map((step) => step.action)).toEqual(['restart', 'apply-fix']);
  });
});
