import { describe, expect, it } from 'vitest';
import { clientsOfUser, userNamesClient } from '../../lib/analyst/database-user.ts';
import { clientNamedByResource } from '../../lib/analyst/load-source.ts';
import { at, boardFrom } from './board-builder.ts';

const START = '2026-03-02T08:00:00.000Z';

describe('who a database user is', () => {
  it('names a client by its words, a word cut short included, whatever says how it connects', () => {
    expect(userNamesClient('fulfil_batch', 'fulfilment-batcher')).toBe(true);
    expect(userNamesClient('insights_ro', 'insights-api')).toBe(true);
    expect(userNamesClient('ful', 'fulfilment')).toBe(false);
    expect(userNamesClient('auditing_ro', 'audit-exporter')).toBe(false);
  });

  it('stands for the client whose own log connects as it, when its name names none', () => {
    const board = boardFrom({
      logs: [
        { service: 'nightly-export', timestamp: at(START, 1), level: 'INFO', message: 'opening pool against postgres://<USER_2>:***@<DB_ENDPOINT_1>/billing' },
        { service: 'web-api', timestamp: at(START, 2), level: 'INFO', message: 'pool started user=<USER_1> size=20' },
      ],
    });
    expect(clientsOfUser(board, '<USER_2>', ['web-api', 'nightly-export'])).toEqual(['nightly-export']);
    expect(clientsOfUser(board, '<USER_1>', ['web-api', 'nightly-export'])).toEqual(['web-api']);
    expect(clientsOfUser(board, '<USER_3>', ['web-api', 'nightly-export'])).toEqual([]);
  });
});

/** A MySQL slow query log entry: who ran it, how long it took and how long of that it waited for locks. */
const slowEntry = (user: string, minute: number, queryTime: number, lockTime: number, statement: string) => ({
  service: 'parcels-db',
  timestamp: at(START, minute),
  level: 'SLOWQUERY',
  message: `# User@Host: ${user}[${user}] @  [10.0.1.7]  Id: 4411\n# Query_time: ${queryTime}  Lock_time: ${lockTime} Rows_sent: 0  Rows_examined: ${lockTime > 0 ? 1 : 2000000}\n${statement}`,
});

describe("a database's slow query log names the client doing the heavy work", () => {
  const clients = ['storefront-web', 'fulfilment-batcher'];

  it('a statement that spent most of its time waiting for locks was held up, not heavy: the other user is the load', () => {
    const board = boardFrom({
      logs: [
        slowEntry('fulfil_batch', 14, 18.7, 1.5, 'UPDATE parcels p JOIN carrier_scans c ON c.parcel_id = p.id SET p.state = c.state'),
        slowEntry('storefront_app', 18, 34.6, 34.4, 'UPDATE parcels SET label_printed = 1 WHERE id = 77'),
      ],
    });
    expect(clientNamedByResource(board, 'parcels-db', clients)).toEqual({ service: 'fulfilment-batcher', since: Date.parse(at(START, 14)) });
  });

  it('two users both doing heavy work name no one', () => {
    const board = boardFrom({
      logs: [slowEntry('fulfil_batch', 14, 18.7, 1.5, 'UPDATE parcels SET state = 2'), slowEntry('storefront_app', 18, 34.6, 0.1, 'SELECT * FROM parcels')],
    });
    expect(clientNamedByResource(board, 'parcels-db', clients)).toBeUndefined();
  });
});
