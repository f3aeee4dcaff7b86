#!/usr/bin/python3
"""make_split_set.py DIR PREFIX T P: T one-element f32 tensors "t<i>" in P parts of T/P each,
written as DIR/PREFIX-NNNNN-of-MMMMM.gguf with their split keys, or as DIR/PREFIX.gguf when P is
1. The files of bench_diff_split.sh: as many names as a large model has, and nothing else, so
that what is measured is looking them up."""
import struct, sys, os
d, prefix, T, P = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def s(b): return struct.pack('<Q', len(b)) + b
def kv_u16(k, v): return s(k) + struct.pack('<I', 2) + struct.pack('<H', v)
def kv_i32(k, v): return s(k) + struct.pack('<I', 5) + struct.pack('<i', v)
def kv_str(k, v): return s(k) + struct.pack('<I', 8) + s(v)
per = T // P
for p in range(P):
    names = [b't%d' % (p * per + k) for k in range(per)]
    kvs = [kv_str(b'general.architecture', b'llama')]
    if P > 1:
        kvs += [kv_u16(b'split.no', p), kv_u16(b'split.count', P), kv_i32(b'split.tensors.count', T)]
    head = b'GGUF' + struct.pack('<IQQ', 3, len(names), len(kvs)) + b''.join(kvs)
    infos = b''.join(s(n) + struct.pack('<I', 1) + struct.pack('<Q', 1) + struct.pack('<I', 0) + struct.pack('<Q', 32 * i) for i, n in enumerate(names))
    meta = head + infos
    pad = (-len(meta)) % 32
    data = b''.join(struct.pack('<f', 1.0) + b'\0' * 28 for _ in names)
    name = f'{prefix}-{p+1:05d}-of-{P:05d}.gguf' if P > 1 else f'{prefix}.gguf'
    with open(os.path.join(d, name), 'wb') as f:
        f.write(meta + b'\0' * pad + data)
