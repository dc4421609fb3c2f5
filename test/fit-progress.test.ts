/** sim:fit's estimate of its own time (issue #85): whole seconds, never "10 min 60 s". */
import { describe, expect, it } from 'vitest';
import { duration, looseLine, madeLine } from '../experiments/cli/fit-run.ts';

describe("sim:fit's durations", () => {
  it('rounds to whole seconds before splitting minutes from seconds', () => {
    expect(duration(659.6)).toBe('11 min 00 s');
    expect(duration(659.4)).toBe('10 min 59 s');
    expect(duration(90)).toBe('1 min 30 s');
    expect(duration(12.34)).toBe('12.3 s');
  });

  it('says what ran against the plan, and why they differ', () => {
    expect(madeLine(24, 24)).toBe('fit: 24 evaluations made, 24 planned');
    expect(madeLine(438, 490)).toMatch(/438 evaluations made, 490 planned \(52 repeated a point already measured/);
    expect(madeLine(500, 490)).toMatch(/\(10 more: the self-checks/);
  });

  it('says in one line when the threshold is too loose to identify any knob', () => {
    const flat = [{ identified: false }, { identified: false }];
    expect(looseLine(flat, 390, 440, 5.476)).toBe(
      'nothing identified: the threshold 5.476 accepts 390 of the 440 evaluated points (89%); these statistics ' +
        'do not pin any knob of this archive down, and the twin is one web among many that fit as well',
    );
    expect(looseLine([...flat, { identified: true }], 390, 440, 5.476)).toBeNull();
  });
});
