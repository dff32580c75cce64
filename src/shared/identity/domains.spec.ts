import { domainInputProblem, emailDomain, normaliseDomain } from './domains';

describe('domain rules shared by the server and the page', () => {
  it.each([
    'example.com',
    'EU.Example.COM.',
    ' a-b.co.uk ',
    'xn--bcher-kva.example',
    'bücher.example',
    '1password.com',
  ])('accepts %s', (d) => expect(domainInputProblem(d)).toBeNull());
  it.each([
    '',
    'localhost',
    'a@b.com',
    'https://example.com',
    'example.com/x',
    '10.0.0.1',
    '-a.com',
    'a_b.com',
    '*.a.com',
    'bücher.example/x',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(125)}abcd`,
  ])('refuses %s', (d) => expect(domainInputProblem(d)).not.toBeNull());
  it('normalises names and e-mail domains alike', () => {
    expect(normaliseDomain(' Example.COM. ')).toBe('example.com');
    expect(emailDomain('Ada@Example.COM')).toBe('example.com');
    expect(emailDomain('no-at-sign')).toBe('');
  });
});
