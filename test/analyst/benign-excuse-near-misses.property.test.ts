import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, series, type SyntheticEvidence } from './board-builder.ts';

/**
 * Every benign excuse needs its own evidence, about this alert: an announcement whose stated window
 * holds the alarm's onset and that is about this service, the alarm's own OK transition after it
 * fired, a retirement of this very resource, a backlog still falling. An excuse that almost fits
 * (another window, another service, an OK from before the new ALARM, another resource retired, a
 * backlog growing again, an alarm still firing after its window closed) leaves the alarm
 * unexplained, and an unexplained alarm is an incident.
 */

const START = '2026-05-01T10:00:00.000Z';
const END_MINUTE = 120;
const services = [
  { name: 'web', kind: 'ecs', dependsOn: ['api'] },
  { name: 'api', kind: 'ecs', dependsOn: ['db'] },
  { name: 'db', kind: 'rds' },
  { name: 'search-api', kind: 'ecs', dependsOn: ['search-index'] },
  { name: 'search-index', kind: 'other' },
];

/** "HH:MM" UTC of `minutes` after START. */
const clock = (minutes: number): string => at(START, minutes).slice(11, 16);

/** A latency alarm at api in ALARM since `onset`, api quiet otherwise, no error lines anywhere. */
const alarmed = (onset: number, extra: Partial<SyntheticEvidence> = {}): SyntheticEvidence => ({
  brief: `CloudWatch alarm "api-latency-high" changed to ALARM from OK at ${at(START, onset)}.`,
  services,
  alarms: [{ name: 'api-latency-high', service: 'api', state: 'ALARM', since: at(START, onset), reason: 'Threshold Crossed' }],
  metrics: [{ service: 'api', name: 'CPUUtilization', points: series(START, END_MINUTE, (minute) => 30 + (minute % 5)) }],
  logs: Array.from({ length: 12 }, (_, index) => ({ service: 'api', timestamp: at(START, index * 10), level: 'INFO', message: `GET /v1/items/${index} 200` })),
  ...extra,
});

const onset = fc.integer({ min: 50, max: 110 });
const announcedWork = fc.constantFrom('Load test', 'Scheduled maintenance', 'Penetration test', 'Planned reindex');

describe('a near-miss excuse leaves the alarm unexplained', () => {
  it('work announced for a window that does not hold the onset does not explain it, however recently announced', () => {
    fc.assert(
      fc.property(onset, announcedWork, fc.integer({ min: 20, max: 40 }), fc.integer({ min: 10, max: 30 }), (since, work, endsBefore, lasts) => {
        const end = since - endsBefore;
        const announced = { service: 'api', timestamp: at(START, end - lasts - 5), kind: 'other', summary: `${work} against api ${clock(end - lasts)}-${clock(end)} UTC` };
        const diagnosis = diagnose(boardFrom(alarmed(since, { changes: [announced] })));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('work announced for the window of the onset but against another service does not explain it', () => {
    fc.assert(
      fc.property(onset, announcedWork, fc.constantFrom('api', 'db', 'web'), (since, work, recordedAt) => {
        const announced = { service: recordedAt, timestamp: at(START, since - 20), kind: 'other', summary: `${work} against search-api ${clock(since - 10)}-${clock(since + 30)} UTC` };
        const diagnosis = diagnose(boardFrom(alarmed(since, { changes: [announced] })));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('an alarm still in ALARM after the announced window closed outlasted the work', () => {
    fc.assert(
      fc.property(onset.filter((since) => since <= 80), announcedWork, (since, work) => {
        const announced = { service: 'api', timestamp: at(START, since - 20), kind: 'other', summary: `${work} against api ${clock(since - 10)}-${clock(since + 20)} UTC` };
        const diagnosis = diagnose(boardFrom(alarmed(since, { changes: [announced] })));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('an OK from before the alarm fired again is history, not its recovery', () => {
    fc.assert(
      fc.property(onset, fc.integer({ min: 1, max: 600 }), (since, okBefore) => {
        const evidence = alarmed(since, { alarms: [{ name: 'api-latency-high', service: 'api', state: 'OK', since: at(START, since - okBefore) }] });
        const diagnosis = diagnose(boardFrom(evidence));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('a resource retired next to the alarmed service does not retire it', () => {
    fc.assert(
      fc.property(
        onset,
        fc.constantFrom('decommissioned', 'retired', 'torn down', 'removed from service'),
        fc.constantFrom('legacy-search', 'reports-v1', 'old-api-worker'),
        (since, how, other) => {
          const note = { service: 'api', timestamp: at(START, since - 30), kind: 'infrastructure', summary: `${other} ${how}; its traffic now goes to api` };
          const diagnosis = diagnose(boardFrom(alarmed(since, { changes: [note] })));
          expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a backlog that fell for a while and grows again is not draining', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 50 }), fc.integer({ min: 15, max: 35 }), fc.integer({ min: 200, max: 2000 }), (peakAt, regrowsFor, perMinute) => {
        const regrowFrom = END_MINUTE - regrowsFor;
        const backlog = (minute: number) =>
          minute < peakAt ? 100 + minute * perMinute : minute < regrowFrom ? 100 + peakAt * perMinute - (minute - peakAt) * perMinute * 0.6 : 100 + peakAt * perMinute - (regrowFrom - peakAt) * perMinute * 0.6 + (minute - regrowFrom) * perMinute;
        const diagnosis = diagnose(
          boardFrom({
            brief: `CloudWatch alarm "jobs-oldest-message-age" changed to ALARM from OK at ${at(START, peakAt)}.`,
            services: [{ name: 'jobs', kind: 'sqs' }, { name: 'worker', kind: 'lambda', dependsOn: ['jobs'] }],
            alarms: [{ name: 'jobs-oldest-message-age', service: 'jobs', state: 'ALARM', since: at(START, peakAt) }],
            metrics: [{ service: 'jobs', name: 'ApproximateNumberOfMessagesVisible', points: series(START, END_MINUTE, backlog) }],
          }),
        );
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the genuine excuse still explains the alarm', () => {
  it('work announced against this service for a window that holds the onset and has not closed explains it', () => {
    fc.assert(
      fc.property(onset, announcedWork, fc.constantFrom('api', 'db', 'web'), (since, work, recordedAt) => {
        const announced = { service: recordedAt, timestamp: at(START, since - 20), kind: 'other', summary: `${work} against api ${clock(since - 10)}-${clock(END_MINUTE + 15)} UTC` };
        const diagnosis = diagnose(boardFrom(alarmed(since, { changes: [announced] })));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('an alarm whose OK transition came after it fired, with nothing failing, has recovered', () => {
    fc.assert(
      fc.property(fc.integer({ min: 50, max: 100 }), fc.integer({ min: 2, max: 15 }), (since, okAfter) => {
        const diagnosis = diagnose(boardFrom(alarmed(since, { alarms: [{ name: 'api-latency-high', service: 'api', state: 'OK', since: at(START, since + okAfter) }] })));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('the alarmed resource itself retired explains its alarm', () => {
    fc.assert(
      fc.property(onset, fc.constantFrom('decommissioned', 'retired', 'torn down', 'removed from service'), (since, how) => {
        const note = { service: 'api', timestamp: at(START, since - 30), kind: 'infrastructure', summary: `api ${how}; its traffic now goes to search-api` };
        const diagnosis = diagnose(boardFrom(alarmed(since, { changes: [note] })));
        expect(diagnosis.draft.incident, diagnosis.draft.rootCause.summary).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});
