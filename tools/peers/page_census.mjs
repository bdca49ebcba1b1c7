// An independent census of the pages in a Parquet file, through hyparquet's Thrift compact
// decoder (not pqsift's): for every column chunk, walks the page headers from the first page
// (dictionary page if any, else first data page) over total_compressed_size bytes.
//
//   pageCensus(file) -> { codecs: Set, pageTypes: Set, encodings: Set (of data and dictionary
//                         pages), chunks: [{ rowGroup, column, codec, pages, dataPages,
//                         dictionaryPages, pageTypes, encodings }], maxPagesPerChunk }
//
// Used by tests/interop/scan_vs_duckdb.mjs to prove that the generated files really contain
// what the test claims to cover (many pages per chunk, data page V2, each encoding and codec).
// Throws when a page header cannot be decoded or runs past the chunk.

import fs from 'node:fs';
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js';

const CODECS = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];
const ENCODINGS = ['PLAIN', 'GROUP_VAR_INT', 'PLAIN_DICTIONARY', 'RLE', 'BIT_PACKED', 'DELTA_BINARY_PACKED',
  'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'RLE_DICTIONARY', 'BYTE_STREAM_SPLIT'];
const PAGE_TYPES = ['DATA_PAGE', 'INDEX_PAGE', 'DICTIONARY_PAGE', 'DATA_PAGE_V2'];

export function pageCensus(file) {
  const buf = fs.readFileSync(file);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const footerLength = view.getUint32(buf.length - 8, true);
  const meta = deserializeTCompactProtocol({ view, offset: buf.length - 8 - footerLength });
  const out = { codecs: new Set(), pageTypes: new Set(), encodings: new Set(), chunks: [], maxPagesPerChunk: 0 };
  (meta.field_4 ?? []).forEach((rg, g) => {
    (rg.field_1 ?? []).forEach((cc, c) => {
      const md = cc.field_3;
      if (!md) return;
      const codec = CODECS[md.field_4] ?? `codec${md.field_4}`;
      const first = Number(md.field_11 ?? md.field_9); // dictionary_page_offset else data_page_offset
      const end = first + Number(md.field_7);
      const chunk = { rowGroup: g, column: (md.field_3 ?? []).map((p) => Buffer.from(p).toString()).join('.'),
        codec, pages: 0, dataPages: 0, dictionaryPages: 0, pageTypes: new Set(), encodings: new Set() };
      let offset = first;
      while (offset < end) {
        const reader = { view, offset };
        const h = deserializeTCompactProtocol(reader);
        const type = PAGE_TYPES[h.field_1] ?? `page${h.field_1}`;
        // DataPageHeader and DictionaryPageHeader: encoding is field 2; DataPageHeaderV2: field 4
        const enc = h.field_5 ? ENCODINGS[h.field_5.field_2] : h.field_7 ? ENCODINGS[h.field_7.field_2]
          : h.field_8 ? ENCODINGS[h.field_8.field_4] : undefined;
        chunk.pages++;
        if (type === 'DICTIONARY_PAGE') chunk.dictionaryPages++;
        else if (type !== 'INDEX_PAGE') chunk.dataPages++;
        chunk.pageTypes.add(type);
        if (enc) chunk.encodings.add(enc);
        offset = reader.offset + Number(h.field_3);
        if (!(h.field_3 >= 0) || offset > end) throw new Error(`${file}: rg ${g} column ${chunk.column}: page runs past the chunk`);
      }
      out.chunks.push(chunk);
      out.codecs.add(codec);
      for (const t of chunk.pageTypes) out.pageTypes.add(t);
      for (const e of chunk.encodings) out.encodings.add(e);
      out.maxPagesPerChunk = Math.max(out.maxPagesPerChunk, chunk.dataPages);
    });
  });
  return out;
}
