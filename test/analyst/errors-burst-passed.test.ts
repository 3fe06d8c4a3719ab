import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-08-19T12:00:00.000Z';
const lines = linesFrom(START);

/** A sweep over four hours: a web tier logs its requests every two minutes; three upstream errors at `burstAt`. */
const sweep = ({ burstAt, cleanAfter = true }: { burstAt: number; cleanAfter?: boolean }) =>
  diagnose(
    boardFrom({
      services: [
        { name: 'web', kind: 'ec2', dependsOn: ['orders'] },
        { name: 'orders', kind: 'ecs' },
      ],
      metrics: [{ service: 'web', name: 'RequestCount', points: series(START, 240, (minute) => 900 + (minute % 7) * 5) }],
      logs: sorted([
        ...lines('web', 0, 2, (cleanAfter ? 240 : burstAt) / 2, 'INFO', (index) => `GET /api/orders/recent 200 ${40 + (index % 9)}ms`),
        ...lines('web', burstAt, 0.5, 3, 'ERROR', () => 'upstream prematurely closed connection while reading response header from upstream, upstream: "http://orders:8080/v1/orders/recent"'),
      ]),
    }),
  );

describe('a burst of errors in a sweep', () => {
  it('has passed when it stopped well before the end and the service has logged its work clean since', () => {
    expect(sweep({ burstAt: 180 }).draft.incident).toBe(false);
  });

  it('is still trouble when it stopped only minutes ago', () => {
    expect(sweep({ burstAt: 225 }).draft.incident).toBe(true);
  });

  it('is still trouble when nothing the service logged since shows it working', () => {
    expect(sweep({ burstAt: 180, cleanAfter: false }).draft.incident).toBe(true);
  });
});
