/** Number formatting of reports and tables (never locale-formatted: reports are byte-stable). */

/** Three decimals. */
export const f3 = (x: number): string => x.toFixed(3);
