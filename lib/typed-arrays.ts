/**
 * Growable typed-array storage, for the struct-of-arrays tables of the frontier (crawler/), the
 * web generator and the WARC index (sim/): millions of rows without an object per row.
 */
export type TypedArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/** A copy of `a` with room for `length` elements (the new tail zeroed); the same array type. */
export function grown<T extends TypedArray>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a.length <= length ? a : (a.subarray(0, length) as T));
  return b;
}

/** A list of 32-bit integers that doubles its storage as it fills. */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.data = grown(this.data, this.data.length * 2);
    this.data[this.length++] = v;
  }
  /** The items so far, without a copy. */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}
