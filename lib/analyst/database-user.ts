import { escapeRegExp } from '../masking/regex-text.ts';
import type { EvidenceBoard } from './evidence-board.ts';

/** A database log line's session prefix: `user@database:[pid]`, its user perhaps masked (`<USER_1>@database:[pid]`). */
export const sessionOf = /(<[A-Z]+_\d+>|\b[A-Za-z][\w.-]*)@[\w.-]+:\[(\d+)\]/;

/** Who a database user is: the client it names, or the client that says it connects as it. */

const wordsOf = (name: string): string[] => name.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/** Words of a database user that say how it connects, not who it is: `insights_ro` is the insights client reading. */
const accessWords = new Set(['ro', 'rw', 'readonly', 'read', 'write', 'app', 'user', 'svc', 'service', 'admin', 'prod']);

/** A word this long that begins a client's word is that word cut short (`recon` for `reconciliation`). */
const SHORTEST_ABBREVIATION = 4;

const abbreviates = (word: string, full: string): boolean => word === full || (word.length >= SHORTEST_ABBREVIATION && full.startsWith(word));

/** Whether a database user names a client: every word of the user that says who it is is a word of the client's name, or begins one. */
export const userNamesClient = (user: string, client: string): boolean => {
  const own = wordsOf(user).filter((word) => !accessWords.has(word));
  const clientWords = wordsOf(client);
  return own.length > 0 && own.every((word) => clientWords.some((full) => abbreviates(word, full)));
};

/**
 * Whether the client's own logs say it connects as the user: a connection address carrying it
 * (`postgresql://reporter@orders-db:5432`) or the user set outright (`user=reporter`). A user the
 * masking replaced (`<USER_2>`) is replaced the same way wherever it appears, so it still matches.
 */
export const connectsAs = (board: EvidenceBoard, client: string, user: string): boolean => {
  const stated = new RegExp(`(?:\\/\\/|\\s|^)${escapeRegExp(user)}(?::[^@\\s]*)?@|\\b(?:db_?)?user(?:name)?[=:]\\s*["']?${escapeRegExp(user)}(?![\\w-])`, 'i');
  return board.logs.some((line) => line.service === client && stated.test(line.message));
};

/** The clients a database user stands for: those it names, else those that say they connect as it. */
export const clientsOfUser = (board: EvidenceBoard, user: string, clients: readonly string[]): string[] => {
  const named = clients.filter((client) => userNamesClient(user, client));
  return named.length > 0 ? named : clients.filter((client) => connectsAs(board, client, user));
};
