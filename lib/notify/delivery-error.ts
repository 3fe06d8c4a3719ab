/** A notification the receiving service refused; `retryable` when trying again may succeed (429, 5xx, network). */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** An HTTP answer as a delivery outcome: 2xx passes, 429 and 5xx may be retried, other 4xx may not. */
export const checkHttpDelivery = async (response: Response, what: string): Promise<void> => {
  if (response.ok) return;
  const detail = (await response.text().catch(() => '')).slice(0, 300);
  throw new DeliveryError(`${what} answered ${response.status}${detail ? `: ${detail}` : ''}`, response.status === 429 || response.status >= 500);
};
