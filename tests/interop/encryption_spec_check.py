#!/usr/bin/python3
"""An independent reader of Parquet modular encryption (apache/parquet-format Encryption.md), to
check the byte-level structure of the files `pqsift convert --encrypt-footer ...` writes, where no
other encrypting reader (parquet-java, Arrow, arrow-rs) is at hand.

It shares nothing with pqsift: its own Thrift compact decoder, AES from the `cryptography`
package (Debian python3-cryptography), every module found from the footer's offsets and
decrypted with the AAD built from the spec's table, and checked:
  - the magic at both ends; an encrypted footer: FileCryptoMetaData then the footer module; a
    plaintext footer: FileMetaData with encryption_algorithm, then nonce | tag, whose tag is the
    GCM encryption's of the footer under the footer key;
  - RowGroup.ordinal; each encrypted chunk's crypto_metadata (footer key, or the column's path
    and key metadata); encrypted_column_metadata under the column's key; a plaintext footer's
    copy of an encrypted column's metadata without statistics; no meta_data for a column-key
    column under an encrypted footer;
  - every page of every chunk: the header module (dictionary page header, or data page header
    with its ordinal), the page module right after it whose whole size is the header's
    compressed_page_size, GCM or (AES_GCM_CTR_V1) CTR with the IV nonce | 0001, decompressed
    (gzip, uncompressed) to uncompressed_page_size; the data pages' values adding up to the
    chunk's num_values and the chunk's bytes to total_compressed_size;
  - the offset index module: every page location at a data page header module, its size the
    header's and the page's modules together; the column index module; the bloom filter's
    header module then bitset module, their sizes adding up to bloom_filter_length;
  - no key's bytes anywhere in the file.

First it reads parquet-testing's encrypted files (written by parquet-java, keys from that
folder's README) the same way, so the checker itself is checked against the reference writer.

  encryption_spec_check.py --pqsift PATH --workdir DIR [--parquet-testing DIR]

Prints one line per file and `interop_encryption_spec: PASS|FAIL`; exit 1 on FAIL.
"""

import argparse
import csv
import json
import os
import struct
import subprocess
import sys
import zlib

try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:  # pragma: no cover
    print("interop_encryption_spec: FAIL: python3-cryptography is missing (scripts/setup)")
    sys.exit(1)

NAME = "interop_encryption_spec"

# Module types (Encryption.md 4.4.2).
FOOTER, COLUMN_META, DATA_PAGE, DICT_PAGE, DATA_HEADER, DICT_HEADER = 0, 1, 2, 3, 4, 5
COLUMN_INDEX, OFFSET_INDEX, BLOOM_HEADER, BLOOM_BITSET = 6, 7, 8, 9


class Fail(Exception):
    pass


# ---- Thrift compact protocol: a generic decoder into {field id: value} ----

class Thrift:
    def __init__(self, data, pos=0):
        self.d = data
        self.p = pos

    def byte(self):
        if self.p >= len(self.d):
            raise Fail("thrift: truncated")
        b = self.d[self.p]
        self.p += 1
        return b

    def varint(self):
        shift = out = 0
        while True:
            b = self.byte()
            out |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return out

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def value(self, t):
        if t in (1, 2):
            return t == 1
        if t == 3:
            return struct.unpack("b", bytes([self.byte()]))[0]
        if t in (4, 5, 6):
            return self.zigzag()
        if t == 7:
            v = struct.unpack("<d", self.d[self.p:self.p + 8])[0]
            self.p += 8
            return v
        if t == 8:
            n = self.varint()
            v = bytes(self.d[self.p:self.p + n])
            if len(v) != n:
                raise Fail("thrift: truncated binary")
            self.p += n
            return v
        if t in (9, 10):
            h = self.byte()
            n, et = h >> 4, h & 15
            if n == 15:
                n = self.varint()
            if et in (1, 2):  # booleans in a list: one byte each
                return [self.byte() == 1 for _ in range(n)]
            return [self.value(et) for _ in range(n)]
        if t == 11:
            n = self.varint()
            if n == 0:
                return {}
            kv = self.byte()
            return {self.value(kv >> 4): self.value(kv & 15) for _ in range(n)}
        if t == 12:
            return self.struct()
        raise Fail(f"thrift: unknown type {t}")

    def struct(self):
        out = {}
        last = 0
        while True:
            h = self.byte()
            if h == 0:
                return out
            t, delta = h & 15, h >> 4
            fid = last + delta if delta else self.zigzag()
            last = fid
            out[fid] = self.value(t)


def decode(data):
    return Thrift(data).struct()


# ---- modules ----

def aad(file_aad, mtype, rg=None, col=None, page=None):
    out = file_aad + bytes([mtype])
    if mtype != FOOTER:
        out += struct.pack("<hh", rg, col)
    if mtype in (DATA_PAGE, DATA_HEADER):
        out += struct.pack("<h", page)
    return out


class Keys:
    def __init__(self, footer, columns, by_id, aad_prefix):
        self.footer = footer
        self.columns = columns  # path -> key
        self.by_id = by_id  # key metadata -> key
        self.aad_prefix = aad_prefix


class File:
    def __init__(self, path, keys):
        self.path = path
        self.data = open(path, "rb").read()
        self.keys = keys
        self.counts = {}

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def module_at(self, pos):
        if pos + 4 > len(self.data):
            raise Fail(f"module at {pos} outside the file")
        n = struct.unpack_from("<I", self.data, pos)[0]
        if pos + 4 + n > len(self.data):
            raise Fail(f"module at {pos} of length {n} overruns the file")
        return self.data[pos:pos + 4 + n]

    def decrypt(self, module, key, mtype, rg=None, col=None, page=None, ctr=False):
        """`module`: length | nonce | ciphertext [| tag]."""
        n = struct.unpack_from("<I", module, 0)[0]
        if n + 4 != len(module):
            raise Fail(f"module type {mtype}: length field {n} != {len(module) - 4}")
        nonce = module[4:16]
        if ctr:
            c = Cipher(algorithms.AES(key), modes.CTR(nonce + b"\x00\x00\x00\x01")).decryptor()
            self.count(f"ctr {mtype}")
            return c.update(module[16:]) + c.finalize()
        try:
            out = AESGCM(key).decrypt(nonce, module[16:], aad(self.file_aad, mtype, rg, col, page))
        except Exception:
            raise Fail(f"module type {mtype} (row group {rg}, column {col}, page {page}): "
                       "GCM authentication failed")
        self.count(f"gcm {mtype}")
        return out

    # -- the footer --

    def read_footer(self):
        d = self.data
        head, tail = d[:4], d[-4:]
        if head != tail or tail not in (b"PAR1", b"PARE"):
            raise Fail(f"magic {head!r} ... {tail!r}")
        length = struct.unpack_from("<I", d, len(d) - 8)[0]
        footer = d[len(d) - 8 - length:len(d) - 8]
        self.encrypted_footer = tail == b"PARE"
        if self.encrypted_footer:
            t = Thrift(footer)
            crypto = t.struct()
            self.set_algorithm(crypto[1])
            self.footer_key = self.key_for(crypto.get(2), None, "footer")
            module = footer[t.p:]
            plain = self.decrypt(module, self.footer_key, FOOTER)
            self.meta = decode(plain)
            if 8 in self.meta or 9 in self.meta:
                raise Fail("an encrypted footer's FileMetaData sets the plaintext footer's fields")
        else:
            meta = decode(footer)
            if 8 not in meta:
                raise Fail("a PAR1 file without encryption_algorithm")
            self.set_algorithm(meta[8])
            plain, signature = footer[:-28], footer[-28:]
            if decode(plain) != meta:
                raise Fail("the plaintext footer does not end where its signature starts")
            self.footer_key = self.key_for(meta.get(9), None, "footer")
            nonce, tag = signature[:12], signature[12:]
            sealed = AESGCM(self.footer_key).encrypt(nonce, plain, aad(self.file_aad, FOOTER))
            if sealed[-16:] != tag:
                raise Fail("the plaintext footer's signature does not verify")
            self.count("signature")
            self.meta = meta

    def set_algorithm(self, union):
        if list(union) not in ([1], [2]):
            raise Fail(f"EncryptionAlgorithm {union}")
        self.ctr = 2 in union
        a = union[1] if 1 in union else union[2]
        if 2 not in a or len(a[2]) == 0:
            raise Fail("no aad_file_unique")
        prefix = a.get(1)
        if a.get(3):
            if prefix is not None:
                raise Fail("supply_aad_prefix with a stored aad_prefix")
            if self.keys.aad_prefix is None:
                raise Fail("the prefix must be supplied")
            prefix = self.keys.aad_prefix.encode()
        self.file_aad = (prefix or b"") + a[2]

    def key_for(self, key_metadata, path, what):
        if key_metadata is not None and key_metadata.decode() in self.keys.by_id:
            return self.keys.by_id[key_metadata.decode()]
        if what == "footer" and self.keys.footer:
            return self.keys.footer
        if path is not None and path in self.keys.columns:
            return self.keys.columns[path]
        raise Fail(f"no key for the {what} (key metadata {key_metadata!r})")

    # -- columns --

    def check(self):
        self.read_footer()
        schema = self.meta[2]
        leaves = []
        # Leaf paths from the depth-first schema (field 5: num_children, 4: name).
        def walk(i, prefix):
            e = schema[i]
            n = e.get(5, 0)
            path = prefix + [e[4].decode()] if i > 0 else []
            if n == 0 and i > 0:
                leaves.append(".".join(path))
                return i + 1
            j = i + 1
            for _ in range(n):
                j = walk(j, path)
            return j
        walk(0, [])
        rows = 0
        for g, rg in enumerate(self.meta.get(4, [])):
            if rg.get(7) != g:
                raise Fail(f"row group {g}: ordinal {rg.get(7)}")
            rows += rg[3]
            for c, chunk in enumerate(rg[1]):
                self.check_chunk(g, c, leaves[c], chunk, rg[3])
        if rows != self.meta[3]:
            raise Fail(f"rows {rows} != num_rows {self.meta[3]}")
        for k in [self.keys.footer, *self.keys.columns.values(), *self.keys.by_id.values()]:
            if k and self.data.find(k) >= 0:
                raise Fail("a key's bytes are in the file")

    def check_chunk(self, g, c, path, chunk, num_rows):
        crypto = chunk.get(8)
        if crypto is None:
            if 9 in chunk:
                raise Fail(f"{path}: encrypted metadata without crypto_metadata")
            self.count("plaintext chunk")
            return  # plaintext column: not this checker's business
        if 1 in crypto:
            key, with_footer = self.footer_key, True
        else:
            ck = crypto[2]
            if b".".join(ck[1]).decode() != path:
                raise Fail(f"{path}: crypto_metadata names {ck[1]}")
            key, with_footer = self.key_for(ck.get(2), path, f"column {path}"), False
        if 9 in chunk:
            meta = decode(self.decrypt(chunk[9], key, COLUMN_META, g, c))
            if self.encrypted_footer and with_footer:
                raise Fail(f"{path}: a footer-key column's metadata encrypted apart under an encrypted footer")
            if self.encrypted_footer and 3 in chunk:
                raise Fail(f"{path}: plaintext metadata of a column-key column in an encrypted footer")
            if not self.encrypted_footer:
                legacy = chunk.get(3)
                if legacy is None or 12 in legacy or 13 in legacy:
                    raise Fail(f"{path}: the plaintext footer's copy is missing or keeps statistics")
                for f in (1, 4, 5, 7, 9):
                    if legacy.get(f) != meta.get(f):
                        raise Fail(f"{path}: the plaintext copy's field {f} differs")
        else:
            if not (self.encrypted_footer and with_footer):
                raise Fail(f"{path}: no encrypted_column_metadata")
            meta = chunk[3]
        self.check_pages(g, c, path, meta, key, chunk)

    def check_pages(self, g, c, path, meta, key, chunk):
        codec = meta[4]
        start = meta.get(11, meta[9])
        end = start + meta[7]
        pos = start
        values = 0
        ordinal = 0
        data_headers = []
        first = True
        while pos < end:
            hmod = self.module_at(pos)
            dictionary = first and 11 in meta
            first = False
            if dictionary:
                header = decode(self.decrypt(hmod, key, DICT_HEADER, g, c))
            else:
                header = decode(self.decrypt(hmod, key, DATA_HEADER, g, c, ordinal))
            ptype = header[1]
            if (ptype == 2) != dictionary:
                raise Fail(f"{path}: page type {ptype} where {'a dictionary' if dictionary else 'a data'} page was expected")
            pmod = self.module_at(pos + len(hmod))
            if header[3] != len(pmod):
                raise Fail(f"{path}: compressed_page_size {header[3]} != the page module's {len(pmod)} bytes")
            page_ctr = self.ctr
            body = self.decrypt(pmod, key, DICT_PAGE if dictionary else DATA_PAGE, g, c,
                                None if dictionary else ordinal, ctr=page_ctr)
            levels = 0
            if ptype == 3:  # v2: levels uncompressed before the values
                v2 = header[8]
                levels = v2[5] + v2[6]
            if codec == 2:  # GZIP
                out = body[:levels] + zlib.decompress(body[levels:], 47)
            elif codec == 0:
                out = body
            else:
                out = None  # other codecs: sizes only
            if out is not None and len(out) != header[2]:
                raise Fail(f"{path}: page decompresses to {len(out)} bytes, header says {header[2]}")
            if not dictionary:
                values += (header[5] if ptype == 0 else header[8])[1]
                data_headers.append((pos, len(hmod) + len(pmod)))
                ordinal += 1
            pos += len(hmod) + len(pmod)
        if pos != end:
            raise Fail(f"{path}: pages end at {pos}, the chunk at {end}")
        if values != meta[5]:
            raise Fail(f"{path}: data pages hold {values} values, the chunk {meta[5]}")
        self.count("chunk")
        if 4 in chunk:
            oi = decode(self.decrypt(self.module_at(chunk[4]), key, OFFSET_INDEX, g, c))
            if len(self.module_at(chunk[4])) != chunk[5]:
                raise Fail(f"{path}: offset_index_length")
            locations = [(loc[1], loc[2]) for loc in oi[1]]
            if locations != data_headers:
                raise Fail(f"{path}: offset index {locations[:3]}... != pages {data_headers[:3]}...")
        if 6 in chunk:
            if len(self.module_at(chunk[6])) != chunk[7]:
                raise Fail(f"{path}: column_index_length")
            ci = decode(self.decrypt(self.module_at(chunk[6]), key, COLUMN_INDEX, g, c))
            if len(ci[1]) != len(data_headers):
                raise Fail(f"{path}: column index of {len(ci[1])} pages")
        if 14 in meta:
            hmod = self.module_at(meta[14])
            header = decode(self.decrypt(hmod, key, BLOOM_HEADER, g, c))
            bmod = self.module_at(meta[14] + len(hmod))
            bitset = self.decrypt(bmod, key, BLOOM_BITSET, g, c)
            if len(bitset) != header[1]:
                raise Fail(f"{path}: bloom bitset of {len(bitset)} bytes, header says {header[1]}")
            if 15 in meta and meta[15] != len(hmod) + len(bmod):
                raise Fail(f"{path}: bloom_filter_length {meta[15]} != {len(hmod) + len(bmod)}")


# ---- the files ----

def parquet_testing(dir_):
    """parquet-java's files and their keys (parquet-testing/data/README.md)."""
    footer, kc1, kc2 = b"0123456789012345", b"1234567890123450", b"1234567890123451"
    out = []
    for name in ["encrypt_columns_and_footer.parquet.encrypted",
                 "encrypt_columns_plaintext_footer.parquet.encrypted",
                 "uniform_encryption.parquet.encrypted",
                 "encrypt_columns_and_footer_ctr.parquet.encrypted",
                 "encrypt_columns_and_footer_aad.parquet.encrypted"]:
        p = os.path.join(dir_, "data", name)
        if not os.path.exists(p):
            continue
        prefix = "tester" if "aad" in name else None
        out.append((p, Keys(footer, {"double_field": kc1, "float_field": kc2},
                            {"kf": footer, "kc1": kc1, "kc2": kc2}, prefix)))
    # data/aes256: AES-256 keys, every column under its own.
    footer256 = b"01234567890123456789012345678901"
    columns256 = {name: b"123456789012345678901234567890" + str(12 + k).encode()
                  for k, name in enumerate(["double_field", "float_field", "boolean_field",
                                            "int32_field", "ba_field", "flba_field",
                                            "int64_field.list.element", "int96_field"])}
    by_id = {"kf": footer256, **{f"kc{k + 1}": v for k, v in enumerate(columns256.values())}}
    for name in ["encrypt_columns_and_footer.parquet.encrypted", "uniform_encryption.parquet.encrypted"]:
        p = os.path.join(dir_, "data", "aes256", name)
        if os.path.exists(p):
            out.append((p, Keys(footer256, columns256, by_id, None)))
    return out


def pqsift_files(pqsift, workdir):
    """Files pqsift writes, in every footer mode, algorithm and key layout."""
    os.makedirs(workdir, exist_ok=True)
    src = os.path.join(workdir, "rows.csv")
    with open(src, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "value", "flag"])
        for i in range(5000):
            w.writerow([i, f"n{(i * 7919) % 20}", "" if i % 13 == 0 else i / 7, i % 3 == 0])
    fk = "000102030405060708090a0b0c0d0e0f"
    nk = "101112131415161718191a1b1c1d1e1f2021222324252627"
    vk = "303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f"
    keys = Keys(bytes.fromhex(fk), {"name": bytes.fromhex(nk), "value": bytes.fromhex(vk)},
                {"kf": bytes.fromhex(fk), "kn": bytes.fromhex(nk)}, "table.part3")
    variants = {
        "uniform_gcm": ["--encrypt-footer", fk],
        "uniform_ctr_v2": ["--encrypt-footer", fk, "--ctr", "--data-page-v2"],
        "columns_encrypted_footer": ["--encrypt-footer", fk, "--encrypt-column", f"name:{nk}",
                                     "--encrypt-column", f"value:{vk}", "--encrypt-column", "id",
                                     "--key-metadata", "footer:kf", "--key-metadata", "name:kn"],
        "columns_plaintext_footer": ["--encrypt-footer", fk, "--encrypt-column", f"name:{nk}",
                                     "--encrypt-column", "id", "--plaintext-footer",
                                     "--aad-prefix", "table.part3"],
        "plaintext_footer_ctr_withheld_prefix": ["--encrypt-footer", fk, "--plaintext-footer", "--ctr",
                                                 "--aad-prefix", "table.part3", "--no-aad-storage"],
        "uncompressed_dictionary_off": ["--encrypt-footer", fk, "--dictionary", "off",
                                        "--encrypt-column", f"value:{vk}"],
    }
    out = []
    for name, flags in variants.items():
        p = os.path.join(workdir, f"{name}.parquet")
        codec = "none" if name.startswith("uncompressed") else "gzip"
        cmd = [pqsift, "convert", src, p, "--row-group-rows", "2000", "--page-rows", "300",
               "--compression", codec, "--bloom-filter", "name,id", "--schema", "flag:bool"] + flags
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise Fail(f"{' '.join(cmd)}: {r.stderr.strip()}")
        out.append((p, keys))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pqsift", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--parquet-testing", default=None)
    a = ap.parse_args()
    failures = 0
    reference = parquet_testing(a.parquet_testing) if a.parquet_testing else []
    if a.parquet_testing and not reference:
        print(f"{NAME}: note: no parquet-testing encrypted files under {a.parquet_testing}")
    try:
        ours = pqsift_files(a.pqsift, a.workdir)
    except Fail as e:
        print(f"{NAME}: FAIL: {e}")
        return 1
    for label, files in (("parquet-java", reference), ("pqsift", ours)):
        for path, keys in files:
            f = File(path, keys)
            try:
                f.check()
                print(f"ok   {label} {os.path.basename(path)}: {json.dumps(f.counts, sort_keys=True)}")
            except Fail as e:
                failures += 1
                print(f"FAIL {label} {os.path.basename(path)}: {e}")
    print(f"{NAME}: {'FAIL' if failures else 'PASS'}" + (f": {failures} files" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
