import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loginEmailError, VALIDATION_MESSAGES } from '@shared/validation';
import { requiredText, ruled } from './forms';

describe('the shared rules as zod schemas', () => {
  it('a ruled field fails with the rule’s own message and passes what the rule accepts', () => {
    const schema = z.object({ email: ruled(loginEmailError) });
    const failed = schema.safeParse({ email: 'not-an-email' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues).toEqual([
      expect.objectContaining({ path: ['email'], message: VALIDATION_MESSAGES.EMAIL_INVALID }),
    ]);
    expect(schema.safeParse({ email: `${'a'.repeat(95)}@x.com` }).error?.issues[0].message).toBe(
      VALIDATION_MESSAGES.EMAIL_TOO_LONG,
    );
    expect(schema.safeParse({ email: ' ada@example.com ' }).success).toBe(true);
  });

  it('a required text refuses blanks and spaces only', () => {
    const schema = requiredText('Please type in a title.');
    expect(schema.safeParse('').error?.issues[0].message).toBe('Please type in a title.');
    expect(schema.safeParse('   ').success).toBe(false);
    expect(schema.safeParse(' Idea ').success).toBe(true);
  });
});
