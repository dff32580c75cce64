/** class-transformer functions shared by the DTOs (use with @Transform). */

/** Trims strings; anything else passes unchanged. */
export const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Trims strings, and turns a missing value into '' so that a required field gets its one 'empty' message. */
export const trimOrEmpty = ({ value }: { value: unknown }) =>
  value === undefined || value === null ? '' : trim({ value });
