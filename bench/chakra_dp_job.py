#!/usr/bin/env python3
"""chakra_dp_job.py: writes a synthetic data-parallel training job as Chakra ET files.

usage: bench/chakra_dp_job.py OUT_DIR [--ranks N] [--layers L] [--iterations I]
                              [--bucket-bytes B] [--forward-us F] [--backward-us K]

One <dirname>.<rank>.et per rank (a GlobalMetadata, then Nodes, each length-delimited, the
field numbers of Chakra's et_def.proto), the shape of PyTorch DDP's trace: per iteration, every
layer's forward pass (a COMP_NODE of F us, each after the one before), then the backward passes
in reverse layer order (K us each), and after each layer's backward pass an ALL_REDUCE of its
gradient bucket (B bytes, comm_type 0) that overlaps the backward passes of the layers below;
the next iteration's first forward pass waits for every all-reduce of the iteration before.
Written with the standard library only (the protobuf wire format by hand).
"""
import argparse
import os
import sys


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint((field << 3) | wire)


def length_delimited(field, payload):
    return key(field, 2) + varint(len(payload)) + payload


def int_field(field, value):
    return key(field, 0) + varint(value)


def attr_int64(name, value):  # AttributeProto: name = 1, int64_val = 9
    return length_delimited(10, length_delimited(1, name.encode()) + int_field(9, value))


def attr_bool(name, value):  # bool_val = 27
    return length_delimited(10, length_delimited(1, name.encode()) + int_field(27, int(value)))


def node(node_id, name, node_type, data_deps=(), duration_us=0, attrs=b""):
    # Node: id = 1, name = 2, type = 3, data_deps = 5 (packed), duration_micros = 7, attr = 10.
    out = int_field(1, node_id) + length_delimited(2, name.encode()) + int_field(3, node_type)
    if data_deps:
        out += length_delimited(5, b"".join(varint(d) for d in data_deps))
    if duration_us:
        out += int_field(7, duration_us)
    return out + attr_bool("is_cpu_op", False) + attrs


COMP_NODE, COMM_COLL_NODE, ALL_REDUCE = 4, 7, 0


def rank_nodes(a):
    """The nodes of one rank's file (every rank's is the same: data parallelism)."""
    next_id = 0
    waits = []  # what the next iteration's first forward pass waits for
    for it in range(a.iterations):
        previous = waits
        for layer in range(a.layers):
            yield node(next_id, f"fwd_it{it}_l{layer}", COMP_NODE, previous, a.forward_us)
            previous = [next_id]
            next_id += 1
        reduces = []
        for layer in reversed(range(a.layers)):
            yield node(next_id, f"bwd_it{it}_l{layer}", COMP_NODE, previous, a.backward_us)
            previous = [next_id]
            next_id += 1
            attrs = attr_int64("comm_type", ALL_REDUCE) + attr_int64("comm_size", a.bucket_bytes)
            yield node(next_id, f"allreduce_it{it}_l{layer}", COMM_COLL_NODE, previous, 0, attrs)
            reduces.append(next_id)
            next_id += 1
        waits = previous + reduces


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--layers", type=int, default=8)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--bucket-bytes", type=int, default=256 * 1024)
    p.add_argument("--forward-us", type=int, default=200)
    p.add_argument("--backward-us", type=int, default=400)
    a = p.parse_args()
    for name in ("ranks", "layers", "iterations", "bucket_bytes"):
        if getattr(a, name) < 1:
            sys.exit(f"chakra_dp_job: --{name.replace('_', '-')} must be at least 1")
    if a.forward_us < 0 or a.backward_us < 0:
        sys.exit("chakra_dp_job: compute times must be >= 0")
    os.makedirs(a.out, exist_ok=True)
    stem = os.path.basename(os.path.normpath(a.out))
    meta = length_delimited(1, b"0.0.4")  # GlobalMetadata: version = 1
    body = bytearray(varint(len(meta)) + meta)
    for n in rank_nodes(a):
        body += varint(len(n)) + n
    for r in range(a.ranks):
        with open(os.path.join(a.out, f"{stem}.{r}.et"), "wb") as f:
            f.write(body)
    per_rank = a.iterations * a.layers * 3
    print(f"wrote {a.out}: {a.ranks} ranks, {per_rank} nodes each "
          f"({a.iterations} iterations x {a.layers} layers: forward, backward, all-reduce)")


if __name__ == "__main__":
    main()
