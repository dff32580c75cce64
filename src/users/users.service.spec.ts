import { newUserEmailError } from './dto/user-changes.dto';
import { activeUsersLimitMessage, likePattern } from './users.service';

describe('likePattern: search text taken literally', () => {
  it('escapes %, _ and \\ and wraps the text in wildcards', () => {
    expect(likePattern('ada')).toBe('%ada%');
    expect(likePattern('50%')).toBe('%50\\%%');
    expect(likePattern('a_b')).toBe('%a\\_b%');
    expect(likePattern('back\\slash')).toBe('%back\\\\slash%');
  });
});

describe('newUserEmailError: one message per failure (spec 000 §5)', () => {
  it('empty, too long, invalid, fine', () => {
    expect(newUserEmailError('')).toBe('User email must not be empty');
    expect(newUserEmailError(undefined)).toBe('User email must not be empty');
    expect(newUserEmailError(`${'a'.repeat(60)}@${'b'.repeat(40)}.com`)).toBe('Entered email must be less than or equal to 100 characters.');
    expect(newUserEmailError('nope')).toBe('Entered email is not a valid email');
    expect(newUserEmailError('jane@example.com')).toBeNull();
  });
});

describe('activeUsersLimitMessage', () => {
  it('names the allowed number', () => {
    expect(activeUsersLimitMessage(3)).toContain('allowed only 3 active user(s)');
  });
});
