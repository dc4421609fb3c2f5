/** String basics both sides use. */

/**
 * A string that holds its own characters only. V8 makes a substring of 13 characters or more (a
 * split word, an attribute value, a stem) a slice that keeps the whole string it came from, such
 * as a page, alive: a string kept in a long-lived memory (a cache of words, stems or links) is
 * copied first. The copy flattens " " + s and slices the space off.
 */
export const ownCopy = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));
