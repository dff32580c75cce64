import { z } from 'zod';

/**
 * The bridge from the shared rules (src/shared/validation.ts, src/shared/*: plain functions that answer the
 * message of the first failed rule, or null) to the zod schemas of the client's forms (react-hook-form with
 * zodResolver). The rules stay in one place; a schema only says which rule checks which field.
 */
export function ruled(rule: (value: string) => string | null | undefined) {
  return z.string().superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

/** A field that must hold something besides spaces. */
export function requiredText(message: string) {
  return ruled((value) => (value.trim() ? null : message));
}
