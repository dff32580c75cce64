import { hasIllFormedText, nestingDepth } from './body-parsing';

describe('nestingDepth', () => {
  it('counts levels of arrays and objects; scalars are 0', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth(null)).toBe(0);
    expect(nestingDepth('[[[')).toBe(0);
    expect(nestingDepth([])).toBe(1);
    expect(nestingDepth({ a: 1, b: [2, { c: [] }] })).toBe(4);
    expect(nestingDepth([[1], [[2]], 3])).toBe(3);
  });

  it('walks a structure 100,000 levels deep without recursion, and stops once past the bound', () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestingDepth(deep, 32)).toBe(33);
    let objects: Record<string, unknown> = {};
    for (let i = 0; i < 50_000; i++) objects = { a: objects };
    expect(nestingDepth(objects)).toBe(50_001);
  });

  it('measures the deepest branch of a wide body', () => {
    const wide = Array.from({ length: 10_000 }, (_, i) => (i === 9_999 ? [[[[1]]]] : i));
    expect(nestingDepth(wide)).toBe(5);
  });
});

describe('hasIllFormedText', () => {
  it('finds a lone surrogate in any string or key, and accepts pairs (emoji)', () => {
    expect(hasIllFormedText({ a: ['ok', { b: 'x\ud83d' }] })).toBe(true);
    expect(hasIllFormedText({ ['\udc00']: 1 })).toBe(true);
    expect(hasIllFormedText('\ud83d')).toBe(true);
    expect(hasIllFormedText({ name: 'Zoë 😀', list: ['ü', 1, null] })).toBe(false);
  });
});
