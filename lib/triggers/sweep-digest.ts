import { readEvidence, type Alarm, type Change } from '../analyst/evidence-board.ts';
import { collectSignals, type Signal } from '../analyst/signals.ts';
import { messageOf } from '../domain/transcript-messages.ts';
import type { TranscriptEvent } from '../domain/transcript.ts';

/** What a scheduled health sweep saw, read from its own tool results (the masked view the model read). */
export interface SweepDigest {
  /** Alarms in ALARM or INSUFFICIENT_DATA (an alarm with no data may be watching a service that stopped reporting). */
  alarms: Alarm[];
  /** Key metrics that shifted, drifted towards a limit, surged or spiked. */
  anomalies: Signal[];
  /** Changes in the sweep's look-back, oldest first. */
  changes: Change[];
}

const NOT_OK = new Set<Alarm['state']>(['ALARM', 'INSUFFICIENT_DATA']);
const METRIC_KINDS = new Set<Signal['kind']>(['metric', 'trend', 'demand', 'transient']);
/** Lines per list in the report; the evidence refs lead to the rest. */
const MAX_LINES = 10;

export const sweepDigest = (events: readonly TranscriptEvent[]): SweepDigest => {
  const board = readEvidence(events.flatMap((event) => messageOf(event) ?? []));
  return {
    alarms: board.alarms.filter((alarm) => NOT_OK.has(alarm.state)),
    anomalies: collectSignals(board)
      .filter((signal) => METRIC_KINDS.has(signal.kind))
      .sort((a, b) => a.at - b.at),
    changes: board.changes,
  };
};

const list = <T>(items: readonly T[], line: (item: T) => string, none: string): string => {
  if (items.length === 0) return `- ${none}`;
  const shown = items.slice(0, MAX_LINES).map((item) => `- ${line(item)}`);
  return [...shown, ...(items.length > MAX_LINES ? [`- …and ${items.length - MAX_LINES} more`] : [])].join('\n');
};

/** The digest as a report section; `unmask` turns the masked view back into what humans read. */
export const sweepDigestSection = (digest: SweepDigest, unmask: (text: string) => string): string =>
  unmask(
    [
      '## Sweep digest',
      'Alarms in ALARM or INSUFFICIENT_DATA:',
      list(digest.alarms, (alarm) => `**${alarm.name}** (${alarm.service}): ${alarm.state}${alarm.since ? ` since ${alarm.since}` : ''}${alarm.reason ? `: ${alarm.reason}` : ''} _(${alarm.ref})_`, 'none'),
      '',
      'Anomalies in key metrics:',
      list(digest.anomalies, (signal) => `${signal.description} _(${signal.ref})_`, 'none seen'),
      '',
      'Recent changes:',
      list(digest.changes, (change) => `${change.timestamp} ${change.service} ${change.kind}: ${change.summary} _(${change.ref})_`, 'none'),
    ].join('\n'),
  );
