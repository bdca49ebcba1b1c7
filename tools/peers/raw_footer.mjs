// Independent, raw view of a Parquet footer through hyparquet's Thrift compact decoder.
//
// DuckDB's parquet_metadata() renders statistics through its own types and hides some values
// (non-finite floats become NULL, see tests/interop/README.md). Where the interop test must tell
// "DuckDB hid it" from "the file has no such value", it asks this module for the raw bytes.
//
//   rawFooter(file) -> { fileMetadata, footerLength, rowGroups: [[{ stats: {min, max, min_value,
//                        max_value, null_count, ...} | undefined }]] }
// Byte fields are Uint8Array, integers are Number or BigInt as hyparquet's decoder returns them.

import fs from 'node:fs';
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js';
import { parquetMetadata } from 'hyparquet';

export function rawFooter(file) {
  const buf = fs.readFileSync(file);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.length < 12 || view.getUint32(buf.length - 4, true) !== 0x31524150) {
    throw new Error(`${file}: not a Parquet file (no trailing PAR1)`);
  }
  const footerLength = view.getUint32(buf.length - 8, true);
  const start = buf.length - 8 - footerLength;
  if (start < 4) throw new Error(`${file}: footer length ${footerLength} exceeds the file`);
  const raw = deserializeTCompactProtocol({ view, offset: start });
  const rowGroups = (raw.field_4 ?? []).map((rg) => (rg.field_1 ?? []).map((cc) => {
    const s = cc.field_3?.field_12;
    return {
      stats: s && {
        max: s.field_1, min: s.field_2, null_count: s.field_3, distinct_count: s.field_4,
        max_value: s.field_5, min_value: s.field_6, is_max_value_exact: s.field_7, is_min_value_exact: s.field_8,
      },
    };
  }));
  return { raw, footerLength, rowGroups, metadata: parquetMetadata(buf) };
}

// Decodes a raw little-endian FLOAT (4 bytes) or DOUBLE (8 bytes) statistic; undefined otherwise.
export function rawFloat(bytes, physicalType) {
  if (!(bytes instanceof Uint8Array)) return undefined;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (physicalType === 'FLOAT' && bytes.length === 4) return v.getFloat32(0, true);
  if (physicalType === 'DOUBLE' && bytes.length === 8) return v.getFloat64(0, true);
  return undefined;
}
