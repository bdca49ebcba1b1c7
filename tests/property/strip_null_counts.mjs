// A Parquet file as a writer without null counts would leave it: every chunk's
// Statistics.null_count and every column index's null_counts removed, everything else kept
// (the level histograms of SizeStatistics and of the column index among it). For the level
// histogram property test (level_histogram_differential.mjs), where the histograms must be the
// only evidence of NULLs.
//
//   stripNullCounts(bytes) -> bytes
//   stripNullCounts(bytes, { levels: false }) -> bytes without the level histograms either
//     (SizeStatistics and the column indexes' histograms): a file with no evidence of NULLs
//
// The footer and the column indexes are Thrift compact structs (parquet.thrift), parsed here
// into a generic tree and written back without the dropped fields. The new column indexes are
// placed after the old page indexes, before the new footer (the old bytes stay, unreferenced),
// and each chunk's column_index_offset/length point at them. Throws on anything it cannot parse.

// Compact protocol type codes.
const T = { STOP: 0, TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12 };

class Reader {
  constructor(buf, pos = 0) { this.buf = buf; this.pos = pos; }
  byte() {
    if (this.pos >= this.buf.length) throw new Error('thrift: read past the end');
    return this.buf[this.pos++];
  }
  varint() {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.byte();
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
      if (shift > 70n) throw new Error('thrift: varint too long');
    }
  }
  zigzag() { const v = this.varint(); return (v >> 1n) ^ -(v & 1n); }
  bytes(n) {
    if (this.pos + n > this.buf.length) throw new Error('thrift: binary past the end');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  value(type) {
    switch (type) {
      case T.TRUE: return true;
      case T.FALSE: return false;
      case T.BYTE: return this.byte();
      case T.I16: case T.I32: case T.I64: return this.zigzag();
      case T.DOUBLE: return this.bytes(8);
      case T.BINARY: return this.bytes(Number(this.varint()));
      case T.LIST: case T.SET: {
        const h = this.byte();
        let n = h >> 4;
        const elem = h & 0x0f;
        if (n === 15) n = Number(this.varint());
        const items = [];
        for (let i = 0; i < n; i++) {
          // Booleans in a list are one byte each.
          items.push(elem === T.TRUE || elem === T.FALSE ? this.byte() === 1 : this.value(elem));
        }
        return { elem, items };
      }
      case T.MAP: {
        const n = Number(this.varint());
        const kv = n > 0 ? this.byte() : 0;
        const entries = [];
        for (let i = 0; i < n; i++) entries.push([this.value(kv >> 4), this.value(kv & 0x0f)]);
        return { kv, entries };
      }
      case T.STRUCT: return this.struct();
      default: throw new Error(`thrift: unknown type ${type}`);
    }
  }
  struct() {
    const fields = [];
    let last = 0;
    for (;;) {
      const h = this.byte();
      const type = h & 0x0f;
      if (type === T.STOP) return { fields };
      const delta = h >> 4;
      const id = delta ? last + delta : Number(this.zigzag());
      last = id;
      fields.push({ id, type, value: type === T.TRUE || type === T.FALSE ? type === T.TRUE : this.value(type) });
    }
  }
}

class Writer {
  constructor() { this.out = []; }
  byte(b) { this.out.push(b & 0xff); }
  varint(v) {
    let x = BigInt(v);
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x) b |= 0x80;
      this.byte(b);
    } while (x);
  }
  zigzag(v) { const x = BigInt(v); this.varint((x << 1n) ^ (x >> 63n)); }
  bytes(b) { for (const x of b) this.byte(x); }
  value(type, v) {
    switch (type) {
      case T.BYTE: this.byte(v); break;
      case T.I16: case T.I32: case T.I64: this.zigzag(v); break;
      case T.DOUBLE: this.bytes(v); break;
      case T.BINARY: this.varint(v.length); this.bytes(v); break;
      case T.LIST: case T.SET: {
        const n = v.items.length;
        this.byte((n < 15 ? n << 4 : 0xf0) | v.elem);
        if (n >= 15) this.varint(n);
        for (const item of v.items) {
          if (v.elem === T.TRUE || v.elem === T.FALSE) this.byte(item ? 1 : 2);
          else this.value(v.elem, item);
        }
        break;
      }
      case T.MAP:
        this.varint(v.entries.length);
        if (v.entries.length) this.byte(v.kv);
        for (const [k, x] of v.entries) { this.value(v.kv >> 4, k); this.value(v.kv & 0x0f, x); }
        break;
      case T.STRUCT: this.struct(v); break;
      default: throw new Error(`thrift: cannot write type ${type}`);
    }
  }
  struct(s) {
    let last = 0;
    for (const f of s.fields) {
      const type = f.type === T.TRUE || f.type === T.FALSE ? (f.value ? T.TRUE : T.FALSE) : f.type;
      const delta = f.id - last;
      if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
      else { this.byte(type); this.zigzag(f.id); }
      last = f.id;
      if (type !== T.TRUE && type !== T.FALSE) this.value(type, f.value);
    }
    this.byte(T.STOP);
  }
  take() { return Uint8Array.from(this.out); }
}

const field = (s, id) => s.fields.find((f) => f.id === id);
const drop = (s, id) => { s.fields = s.fields.filter((f) => f.id !== id); };
const setI64 = (s, id, type, v) => {
  const f = field(s, id);
  if (f) f.value = BigInt(v);
  else { s.fields.push({ id, type, value: BigInt(v) }); s.fields.sort((a, b) => a.id - b.id); }
};

export function stripNullCounts(bytes, { levels = true } = {}) {
  const buf = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const n = buf.length;
  const magic = String.fromCharCode(...buf.subarray(n - 4));
  if (magic !== 'PAR1') throw new Error(`not a plaintext Parquet file (${magic})`);
  const len = buf[n - 8] | (buf[n - 7] << 8) | (buf[n - 6] << 16) | (buf[n - 5] << 24);
  const footerStart = n - 8 - len;
  const meta = new Reader(buf, footerStart).struct();
  const tail = [];  // the re-encoded column indexes
  let at = footerStart;
  for (const rg of field(meta, 4)?.value.items ?? []) {            // FileMetaData.row_groups
    for (const chunk of field(rg, 1)?.value.items ?? []) {          // RowGroup.columns
      const md = field(chunk, 3)?.value;                            // ColumnChunk.meta_data
      const stats = md && field(md, 12)?.value;                     // ColumnMetaData.statistics
      if (stats) drop(stats, 3);                                    // Statistics.null_count
      if (md && !levels) drop(md, 16);                              // size_statistics
      const ciOffset = field(chunk, 6);                             // column_index_offset
      const ciLength = field(chunk, 7);                             // column_index_length
      if (!ciOffset || !ciLength) continue;
      const index = new Reader(buf.subarray(Number(ciOffset.value), Number(ciOffset.value) + Number(ciLength.value))).struct();
      drop(index, 5);                                               // ColumnIndex.null_counts
      if (!levels) { drop(index, 6); drop(index, 7); }              // the level histograms
      const w = new Writer();
      w.struct(index);
      const encoded = w.take();
      setI64(chunk, 6, T.I64, at);
      setI64(chunk, 7, T.I32, encoded.length);
      tail.push(encoded);
      at += encoded.length;
    }
  }
  const w = new Writer();
  w.struct(meta);
  const footer = w.take();
  const total = footerStart + tail.reduce((s, b) => s + b.length, 0) + footer.length + 8;
  const out = new Uint8Array(total);
  out.set(buf.subarray(0, footerStart), 0);
  let p = footerStart;
  for (const b of tail) { out.set(b, p); p += b.length; }
  out.set(footer, p);
  p += footer.length;
  out.set([footer.length & 0xff, (footer.length >> 8) & 0xff, (footer.length >> 16) & 0xff, (footer.length >>> 24) & 0xff], p);
  out.set([0x50, 0x41, 0x52, 0x31], p + 4);
  return out;
}
