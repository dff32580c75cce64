/**
 * Passwords that are test data rather than credentials: the ones the e2e and browser fixtures set and sign in with
 * (each must pass the breached-password check, or the suites that use them would be refused), and entries of the
 * public breached-password list the product ships (each must be refused, in any case and with digits and symbols
 * added to a listed word).
 */
export const FIXTURE_PASSWORDS = [
  'Correct-Horse-9',
  'Support-Pass-1',
  'Brand-New-Pass-1',
  'Fresh-Password-2',
  'Changed-Pass-1',
  'Another-Pass-1',
  'Another-Pass-3',
  'Another-Horse-8',
  'Pending-Pass-2',
  'New-Pass-1',
  'Site-Admin-Pass-7',
  'Reset-Pass-77',
  'My-Own-Pass-7',
  'Good-One-1',
] as const;

export const BREACHED_EXAMPLES = {
  /** A listed password as listed. */
  listed: 'password123',
  /** A listed word with digits and a symbol added, as cracking rules try it. */
  suffixed: 'Password1234!',
  /** Two more listed entries: a word with a year and a symbol, a keyboard row. */
  others: ['Sunshine2024!', 'qwertyuiop'],
} as const;
