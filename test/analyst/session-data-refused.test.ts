import { describe, expect, it } from 'vitest';
import { namesOwnFault } from '../../lib/analyst/load-source.ts';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-03-20T02:30:00.000Z';

/** A database that checkpoints quietly, then logs at ERROR a unique-key violation every five minutes: `prefix` says whose session's statement it refused, or none. */
const refusing = (prefix: string) =>
  boardFrom({
    brief: 'PagerDuty event incident.triggered at 2026-03-20T03:06:41Z.',
    services: [{ name: 'recon', kind: 'ecs', dependsOn: ['ledger-db'] }, { name: 'ledger-db', kind: 'rds' }],
    logs: [
      ...[0, 4, 8, 12, 16, 20, 24, 28].map((minute) => ({
        service: 'ledger-db',
        timestamp: at(START, minute),
        level: 'INFO',
        message: `2026-03-20 02:${30 + minute}:00 UTC::@:[418]:LOG:  checkpoint complete: wrote ${400 + minute} buffers`,
      })),
      ...[0, 5, 10, 15, 20, 25, 30, 35].map((minute) => ({
        service: 'ledger-db',
        timestamp: at(START, 30 + minute),
        level: 'ERROR',
        message: `2026-03-20 03:${String(minute).padStart(2, '0')}:01 UTC:10.20.14.59(50493):${prefix}ERROR:  duplicate key value violates unique constraint "matches_pkey"`,
      })),
    ],
  });

describe('a database refusing one session’s data', () => {
  it('names the client’s data, not a fault of the database, when the line carries that session', () => {
    const board = refusing('recon@ledger:[30432]:');
    expect(namesOwnFault(board, collectSignals(board).filter((signal) => signal.service === 'ledger-db'), 'ledger-db')).toBe(false);
  });

  it('is the database’s own account of bad data when no session is named', () => {
    const board = refusing('');
    expect(namesOwnFault(board, collectSignals(board).filter((signal) => signal.service === 'ledger-db'), 'ledger-db')).toBe(true);
  });
});
