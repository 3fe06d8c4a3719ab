import type { Masker } from '../masking/index.ts';
import { modelRequest, modelResponse, type ModelPort, type ModelRequest, type ModelResponse } from './port.ts';

/** A model request was stopped because raw identifiers or secrets were still in it. */
export class LeakBlockedError extends Error {
  override readonly name = 'LeakBlockedError';
  constructor(readonly leaks: readonly { type: string; placeholder?: string }[]) {
    super(`model request blocked: ${leaks.length} unmasked value(s) of type ${[...new Set(leaks.map((leak) => leak.type))].join(', ')}`);
  }
}

/**
 * The one chokepoint between the workflow and any model: the request is masked again, with a
 * second pass for every value the leak check knows, checked for what still leaks (fail closed),
 * and the response validated. Returns the request as the model saw it.
 */
export const completeThroughGateway = async (
  model: ModelPort,
  masker: Masker,
  request: ModelRequest,
): Promise<{ request: ModelRequest; response: ModelResponse }> => {
  const { masked: maskedRequest, leaks } = masker.maskJsonForModel(request);
  if (leaks.length > 0) throw new LeakBlockedError(leaks);
  const masked = modelRequest.parse(maskedRequest);
  const response = modelResponse.parse(await model.complete(masked));
  return { request: masked, response };
};
