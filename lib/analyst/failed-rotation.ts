import type { RootCauseCategory } from '../domain/vocabulary.ts';
import { categoryOfChange, causesIn } from './cause-signals.ts';
import type { Change, EvidenceBoard } from './evidence-board.ts';
import { computeKinds, dependenciesOf, kindOf } from './service-map.ts';
import { SAME_TIME_MS, severityOfLine } from './signals.ts';

/**
 * A Secrets Manager rotation runs its function four times, one step each: createSecret stages the
 * new value as AWSPENDING, setSecret sets it where it is checked (the database), testSecret tries it,
 * finishSecret moves AWSCURRENT to it. A function that fails after createSecret leaves the rotation
 * half done: the pending value may already be (or later be made) the database's password while the
 * clients still read the current one, so their credentials are refused. The function that stopped
 * is the cause, not the secret it was rotating nor the clients refused.
 */
export interface FailedRotation {
  /** The rotation function that failed. */
  rotator: string;
  /** The step it failed at. */
  step: string;
  /** Its own line saying why. */
  error: string;
  failedAt: number;
  /** The release of the rotation function whose first rotation this was, when one came after its last successful rotation. */
  release?: Change;
  /** The secret it rotates, when the service map holds it apart from the database. */
  secret?: string;
  /** The clients whose credentials were refused after it failed, those that run code of their own (they cache what they read). */
  refused: string[];
}

const databaseKinds: ReadonlySet<string> = new Set(['rds', 'dynamodb']);
const stepName = /\b(createSecret|setSecret|testSecret|finishSecret|(?:create|set|test|finish)_secret)\b/;
/** Steps after which a failure can leave the password and the secret's current value apart. */
const stepsPastCreate = /^(set|test|finish)/i;
/** How long before the credentials are refused a half-done rotation is still the reason. */
const ROTATION_REACH_MS = 2 * 60 * 60_000;
/** A rotation function's release runs first at the next rotation, which may be weeks later (rotations are often monthly). */
const RELEASE_REACH_MS = 35 * 24 * 60 * 60_000;
const succeededRotation = /\bRotationSucceeded\b|rotation (succeeded|completed)/i;

const refusedCredentials = (message: string): boolean => causesIn(message).some((hit) => hit.label === 'credentials');

/** Normalizes `set_secret` to `setSecret`. */
const stepOf = (name: string): string => name.replace(/_(\w)/, (_, letter: string) => letter.toUpperCase());

export const failedRotationOf = (board: EvidenceBoard): FailedRotation | undefined => {
  const refusals = board.logs.filter((line) => severityOfLine(line) >= 3 && refusedCredentials(line.message));
  if (refusals.length === 0) return undefined;
  for (const rotator of (board.services ?? []).filter((node) => computeKinds.has(node.kind ?? '')).map((node) => node.name)) {
    const own = board.logs.filter((line) => line.service === rotator);
    const rotates = new Set(dependenciesOf(board, rotator));
    // The clients refused read the secret the function rotates, or sign in to the database it sets the password of (or are that database).
    const sharesSecret = (service: string) => service !== rotator && (rotates.has(service) || dependenciesOf(board, service).some((name) => rotates.has(name)));
    let step: string | undefined;
    for (const line of own) {
      const named = line.message.match(stepName)?.[1];
      if (named) step = stepOf(named);
      if (!step || !stepsPastCreate.test(step) || severityOfLine(line) < 3) continue;
      const refusedAfter = refusals.filter((refusal) => refusal.at >= line.at - SAME_TIME_MS && refusal.at - line.at <= ROTATION_REACH_MS && sharesSecret(refusal.service));
      if (refusedAfter.length === 0) continue;
      const refused = [...new Set(refusedAfter.map((refusal) => refusal.service))].filter((service) => computeKinds.has(kindOf(board, service) ?? ''));
      // The secret is what the function and its refused clients both read that is not a database.
      const secret = [...rotates].find((name) => !databaseKinds.has(kindOf(board, name) ?? '') && refused.some((client) => dependenciesOf(board, client).includes(name)));
      const lastSuccess = Math.max(-Infinity, ...board.changes.filter((change) => change.at < line.at && succeededRotation.test(change.summary)).map((change) => change.at));
      const release = board.changes
        .filter((change) => change.service === rotator && change.kind === 'deploy' && change.at < line.at && change.at > lastSuccess && line.at - change.at <= RELEASE_REACH_MS)
        .sort((a, b) => b.at - a.at)[0];
      return { rotator, step, error: line.message.split('\n')[0]!.trim(), failedAt: line.at, ...(release ? { release } : {}), ...(secret ? { secret } : {}), refused };
    }
  }
  return undefined;
};

/** A release of the function is what to undo; otherwise the function was refused what its step needs, or is set up wrong. */
export const failedRotationCategory = ({ release, error }: FailedRotation): RootCauseCategory =>
  release ? (categoryOfChange(release) ?? 'deploy') : causesIn(error).some((hit) => hit.category === 'permissions') ? 'permissions' : 'config';

/** The mechanism, in plain words. */
export const failedRotationWords = ({ rotator, step, error, release }: FailedRotation): string =>
  `The secret's rotation stopped half done: ${rotator} failed at its ${step} step ("${error}"), so the new value was left pending (AWSPENDING) and never made current (AWSCURRENT); ` +
  `the password the database checks and the one the clients read no longer match, and their credentials are refused.` +
  (release ? ` That rotation was the first run of ${rotator}'s release "${release.summary}".` : '');
