/** An SDK timestamp as the contracts' ISO-8601 string; whole seconds drop the `.000` so lines stay short. */
export const isoOf = (time: Date | number): string => new Date(time).toISOString().replace('.000Z', 'Z');
