import { causesIn } from './cause-signals.ts';
import type { EvidenceBoard } from './evidence-board.ts';
import { callersOf, dependenciesOf } from './service-map.ts';
import type { Signal } from './signals.ts';

/**
 * AWS services whose request rate is one account-wide quota every resource of the service draws on
 * (KMS cryptographic operations, Parameter Store, Secrets Manager, STS, SES's daily sending quota and
 * sending rate), and how a refusal names them.
 */
const accountRateQuotas: Readonly<Record<string, RegExp>> = {
  kms: /\bkms\b/i,
  ssm: /\bssm\b|parameter store|GetParameter/i,
  secretsmanager: /secrets ?manager|GetSecretValue/i,
  sts: /\bsts\b|AssumeRole/i,
  ses: /\bses\b|simple ?email|daily message quota|maximum sending rate|sending quota/i,
};

const awsServiceOf = (board: EvidenceBoard, service: string): string | undefined => board.services?.find((node) => node.name === service)?.awsService;

/** Whether a resource draws on an account-wide request-rate quota of its AWS service. */
export const drawsOnAccountQuota = (board: EvidenceBoard, service: string): boolean => (awsServiceOf(board, service) ?? '') in accountRateQuotas;

/**
 * The dependency whose account-wide quota a throttled service's refusals name: "You have exceeded
 * the rate at which you may call KMS" from a function that calls one KMS key is that key's quota,
 * not the table it also reads.
 */
export const accountQuotaNamedBy = (board: EvidenceBoard, service: string, signals: readonly Signal[]): string | undefined => {
  const refusals = signals.filter((signal) => signal.service === service && causesIn(signal.text).some((hit) => hit.label === 'throttling')).map((signal) => signal.text);
  const named = dependenciesOf(board, service).filter((callee) => drawsOnAccountQuota(board, callee) && refusals.some((text) => accountRateQuotas[awsServiceOf(board, callee)!]!.test(text)));
  return named.length === 1 ? named[0] : undefined;
};

/** Everyone drawing on the same account-wide quota as `resource`: the clients of every resource of its AWS service. */
export const quotaTenantsOf = (board: EvidenceBoard, resource: string): string[] => {
  const awsService = awsServiceOf(board, resource);
  const resources = (board.services ?? []).filter((node) => node.awsService === awsService).map((node) => node.name);
  return [...new Set(resources.flatMap((name) => callersOf(board, name)))].filter((client) => !resources.includes(client));
};
