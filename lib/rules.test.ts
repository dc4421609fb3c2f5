import { describe, expect, it } from 'vitest';
import { formatRules, learnRules, scoreRules, type RuleExample } from './rules.ts';

/** Links of a toy department: papers are .pdf/.ps outside /courses/; syllabi are .pdf inside it. */
function site(seed: number): RuleExample[] {
  const out: RuleExample[] = [];
  let x = seed;
  const next = (): number => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
  for (let i = 0; i < 600; i++) {
    const dir = ['courses', 'people', 'pubs', 'admin', 'groups'][Math.floor(next() * 5)];
    const ext = ['html', 'pdf', 'ps'][Math.floor(next() * 3)];
    const noise = `w${Math.floor(next() * 40)}`;
    out.push({
      features: [`dir:${dir}`, `ext:${ext}`, `anchor:${noise}`],
      positive: (ext === 'pdf' || ext === 'ps') && dir !== 'courses' && dir !== 'admin',
    });
  }
  return out;
}

describe('the rule learner', () => {
  it('finds a planted rule on some sites and keeps it on another', () => {
    const list = learnRules([...site(1), ...site(2), ...site(3)]);
    const held = scoreRules(list, site(4));
    expect(held).toMatchObject({ precision: 1, recall: 1 });
    const text = formatRules(list);
    expect(text).toMatch(/ext:pdf|ext:ps|ext:html/);
    expect(text).toMatch(/not dir:courses|not dir:admin|dir:people|dir:pubs|dir:groups/);
  });

  it('learns nothing where nothing is to be learnt, and says so', () => {
    const noise = site(5).map((e, i) => ({ ...e, positive: i % 7 === 0 }));
    const list = learnRules(noise);
    expect(
      scoreRules(
        list,
        site(6).map((e, i) => ({ ...e, positive: i % 7 === 0 })),
      ).precision,
    ).toBeLessThan(0.5);
    expect(formatRules({ rules: [], f1: 0 })).toBe('(no rule beats matching nothing)');
  });
});
