import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted, step } from './board-builder.ts';

const START = '2026-06-30T08:00:00.000Z';
const lines = linesFrom(START);

/** An API killed for its memory from minute 50; from minute 65 it also waits on its content service (its cache empties at each restart). */
const evidence = (killed: boolean) =>
  boardFrom({
    brief: 'PagerDuty event incident.triggered at 2026-06-30T10:00:00Z. Title: "ALARM: bff-5xx"',
    services: [
      { name: 'bff', kind: 'ecs', dependsOn: ['lessons-api'] },
      { name: 'lessons-api', kind: 'ecs', dependsOn: ['content'] },
      { name: 'content', kind: 'ecs' },
    ],
    metrics: [
      { service: 'lessons-api', name: 'MemoryUtilization', points: series(START, 120, step(35, 58, 90)) },
      { service: 'content', name: 'TargetResponseTime', points: series(START, 120, (minute) => (minute >= 65 && minute < 110 ? 0.9 : 0.12)) },
    ],
    logs: sorted([
      ...lines('lessons-api', 0, 5, 24, 'INFO', (index) => `GET /lessons/${index} 200`),
      ...(killed
        ? lines('lessons-api', 50, 8, 9, 'WARN', (index) => `ECS Task State Change: task/${index} lastStatus=STOPPED stopCode=EssentialContainerExited exitCode=137 reason="OutOfMemoryError: Container killed due to memory usage"`)
        : []),
      ...lines('lessons-api', 65, 3, 14, 'WARN', (index) => `content GET /v1/bundles/u${index} slow: 2100ms (cache miss)`),
      ...lines('bff', 51, 3, 20, 'ERROR', () => 'upstream lessons-api returned 502 Bad Gateway'),
    ]),
  });

describe('a service killed for the memory it uses fails by itself', () => {
  it('its slow calls to a callee that began after the kills are their echo: the killed service is the root', () => {
    expect(diagnose(evidence(true)).root).toBe('lessons-api');
    expect(diagnose(evidence(true)).principles).toContain('own-defect-first');
  });

  it('without the kills, the slow callee it complains about is followed', () => {
    expect(diagnose(evidence(false)).root).toBe('content');
  });
});

/** An API whose tasks are killed for memory from minute 50, logged at INFO as ECS logs task state changes; its database's connection count rose at minute 40, when more copies started, and refused no one. */
const killedBesideBusierDatabase = (killLevel: string, killed = true) =>
  boardFrom({
    brief: 'CloudWatch alarm "bff-5xx" is in ALARM',
    services: [
      { name: 'bff', kind: 'ecs', dependsOn: ['lessons-api'] },
      { name: 'lessons-api', kind: 'ecs', dependsOn: ['lessons-db'] },
      { name: 'lessons-db', kind: 'rds' },
    ],
    alarms: [{ name: 'bff-5xx', service: 'bff', state: 'ALARM', since: at(START, 55) }],
    metrics: [
      { service: 'lessons-api', name: 'MemoryUtilization', points: series(START, 120, step(45, 60, 97)) },
      { service: 'lessons-db', name: 'DatabaseConnections', points: series(START, 120, step(40, 80, 170)) },
    ],
    logs: sorted([
      ...lines('lessons-api', 0, 5, 24, 'INFO', (index) => `GET /lessons/${index} 200`),
      ...(killed
        ? lines('lessons-api', 50, 4, 15, killLevel, (index) => `ECS Task State Change: task/${index} lastStatus=STOPPED stopCode=EssentialContainerExited exitCode=137 reason="OutOfMemoryError: Container killed due to memory usage"`)
        : []),
      ...lines('bff', 51, 3, 20, 'ERROR', () => 'upstream lessons-api returned 502 Bad Gateway'),
    ]),
  });

describe('a service killed for its memory, beside a callee that only got busier', () => {
  it('is the root, though the callee’s connection count rose first: it never complained of the callee', () => {
    expect(diagnose(killedBesideBusierDatabase('WARN')).root).toBe('lessons-api');
  });

  it('is so when the kills are logged at INFO: the words state the failure', () => {
    expect(diagnose(killedBesideBusierDatabase('INFO')).root).toBe('lessons-api');
  });

  it('without the kills, the callee that turned first is followed', () => {
    expect(diagnose(killedBesideBusierDatabase('INFO', false)).root).toBe('lessons-db');
  });
});
