import { existsSync, statSync } from 'node:fs';
import { InvalidArgumentError, Option } from 'commander';
import { modelProviders } from '../../lib/model/config/index.ts';

/** Digits only: `Number()` alone would also accept "1e3", "0x10" and " 5 ". */
export const positiveInteger = (value: string): number => {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError('expected a positive whole number, e.g. 3');
  }
  return parsed;
};

export const existingDirectory = (value: string): string => {
  if (!existsSync(value) || !statSync(value).isDirectory()) throw new InvalidArgumentError('no such directory');
  return value;
};

/** Commander names the option and lists the allowed providers when the value is not one of them. */
export const providerOption = (): Option =>
  new Option('--provider <name>', 'the model provider (default: SRE_AGENT_MODEL_PROVIDER, else offline)').choices(modelProviders);

/** `--tools replay|aws`: which tool code serves the investigation. */
export const toolsOption = (): Option =>
  new Option('--tools <source>', 'replay: the scenario replay tools; aws: the AWS tools (SDK calls answered from the scenario, or live AWS with --event alone)')
    .choices(['replay', 'aws'])
    .default('replay');

/** A port to listen on from 0 (any free port) to 65535. */
export const listenPort = (value: string): number => {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError('expected a port from 0 (any free port) to 65535');
  return Number(value);
};
