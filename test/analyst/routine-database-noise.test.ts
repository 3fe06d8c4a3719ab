import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom, series } from './board-builder.ts';

const START = '2026-06-02T03:00:00.000Z';
const services = [{ name: 'web', kind: 'ecs', dependsOn: ['bookings-db'] }, { name: 'bookings-db', kind: 'rds' }];

const routine = Array.from({ length: 30 }, (_, index) => ({ service: 'web', timestamp: at(START, index * 6), level: 'INFO', message: `GET /bookings 200 ${40 + index}ms` }));

const sweep = (evidence: { logs?: { service: string; timestamp: string; level: string; message: string }[]; connections?: (minute: number) => number }) =>
  diagnose(
    boardFrom({
      services,
      logs: [...routine, ...(evidence.logs ?? [])],
      metrics: evidence.connections ? [{ service: 'bookings-db', name: 'DatabaseConnections', points: series(START, 180, evidence.connections) }] : [],
    }),
  ).incident;

describe("a database's routine noise in a sweep", () => {
  const refused = (minute: number) => ({ service: 'bookings-db', timestamp: at(START, minute), level: 'FATAL', message: 'password authentication failed for user "bi_reader"' });

  it('one login refused for its password is one client, not the database failing; refused again and again, it counts', () => {
    const refusals = (minutes: number[]) =>
      collectSignals(boardFrom({ services, logs: [...routine, ...minutes.map(refused)] })).filter((signal) => signal.service === 'bookings-db' && signal.kind === 'errors' && signal.substantial);
    expect(sweep({ logs: [refused(120)] })).toBe(false);
    expect(refusals([120])).toHaveLength(0);
    expect(refusals([120, 125, 130])).toHaveLength(1);
  });

  it('connections a few tens of percent up follow the work; doubled, a pool is filling', () => {
    expect(sweep({ connections: (minute) => (minute < 120 ? 42 : 65) })).toBe(false);
    expect(sweep({ connections: (minute) => (minute < 120 ? 42 : 130) })).toBe(true);
  });
});
