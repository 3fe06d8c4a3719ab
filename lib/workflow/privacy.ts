import { Masker, type MaskMapState } from '../masking/index.ts';
import type { InvestigationStore } from '../store/port.ts';

/** The investigation's placeholder map, stored beside it and read by every step. */
export const MASK_MAP_DOCUMENT = 'mask-map';

export const loadMasker = async (store: InvestigationStore, investigationId: string, options = {}): Promise<Masker> =>
  new Masker(options, (await store.document(investigationId, MASK_MAP_DOCUMENT)) as MaskMapState | undefined);

export const maskMapDocument = (masker: Masker): Record<string, unknown> => ({ [MASK_MAP_DOCUMENT]: masker.state() });
