"""dlc-compare-plot's inputs, checked: the CSV columns dlc-compare wrote, read in one pass into
numpy arrays (10^6 messages in well under a second and 8 bytes a value), and the checks of a
value that name the file and the line or the field (InputError)."""
import csv
import io
import math
import os
import warnings

import numpy as np


class InputError(Exception):
    """A bad input: the message names the file and the line or the field."""


def open_text(path):
    """path opened once as UTF-8 text; InputError for a directory or what cannot be opened."""
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a file")
    try:
        return open(path, encoding="utf-8", newline="")
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")


def read_bytes(path):
    """The whole of path, read once; InputError for a directory or what cannot be read."""
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a file")
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")


def shown(text):
    return text if len(text) <= 40 else text[:40] + "..."


def number(where, text, lo, hi):
    try:
        x = float(text)
    except (TypeError, ValueError):
        raise InputError(f"{where}: '{shown(str(text))}' is not a number")
    if not (math.isfinite(x) and lo <= x <= hi):
        raise InputError(f"{where}: {shown(str(text))} is outside [{lo:g}, {hi:g}]")
    return x


def read_columns(path, ranges, rows_are):
    """The columns named in `ranges` ({name: (lo, hi)}) of a CSV file dlc-compare wrote, as
    float64 arrays. The file is read once; numpy's C reader parses it when it is plain (ASCII,
    no quotes, carriage returns or blank lines, every line as many fields as the header, every
    value in its range); anything else is read again from the same bytes by csv, field by
    field, which takes what csv takes and names the line and field of what it refuses."""
    data = read_bytes(path)
    cols = plain_columns(data, ranges)
    if cols is None:
        cols = exact_columns(path, data, ranges)
    if not len(next(iter(cols.values()))):
        raise InputError(f"{path}: no {rows_are} after the header")
    return cols


def plain_columns(data, ranges):
    """`ranges`' columns of a plain CSV file's bytes, or None (then exact_columns decides)."""
    first = data.find(b"\n")
    if (first < 0 or not data.isascii() or b'"' in data or b"\r" in data or b"\n\n" in data
            or data.endswith(b"\n\n")):
        return None
    header = data[:first].decode("ascii").split(",")
    if len(set(header)) != len(header) or any(k not in header for k in ranges):
        return None
    rows = data.count(b"\n") - (1 if data.endswith(b"\n") else 0)
    if data.count(b",") != (len(header) - 1) * (rows + 1):
        return None
    # The last column read too: a line short of fields fails; with the count of commas above,
    # every line then has exactly the header's fields.
    use = sorted({header.index(k) for k in ranges} | {len(header) - 1})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "input contained no data": refused by the caller
            table = np.loadtxt(io.BytesIO(data), dtype=np.float64, delimiter=",",
                               comments=None, skiprows=1, usecols=use, ndmin=2,
                               encoding="ascii")
    except ValueError:
        return None
    if table.shape[0] != rows:
        return None
    cols = {}
    for k, (lo, hi) in ranges.items():
        v = np.ascontiguousarray(table[:, use.index(header.index(k))])
        if not (np.isfinite(v).all() and (v >= lo).all() and (v <= hi).all()):
            return None
        cols[k] = v
    return cols


def exact_columns(path, data, ranges):
    """`ranges`' columns as csv reads the file, every value checked; InputError naming the
    line and field of the first that is not a number in its range."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text: not dlc-compare's CSV")
    cols = {k: [] for k in ranges}
    line = 1
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        header = next(reader, None)
        if header is None:
            raise InputError(f"{path}: empty: no header line")
        if header and header[0].startswith("\ufeff"):
            raise InputError(f"{path}:1: starts with a byte-order mark: not dlc-compare's CSV")
        index = {}
        for k in ranges:
            if k not in header:
                raise InputError(f"{path}:1: field {k}: missing from the header "
                                 f"('{shown(','.join(header))}')")
            index[k] = header.index(k)
        for row in reader:
            line = reader.line_num
            if len(row) != len(header):
                raise InputError(f"{path}:{line}: {len(row)} fields, the header has "
                                 f"{len(header)}")
            for k, i in index.items():
                cols[k].append(number(f"{path}:{line}: field {k}", row[i], *ranges[k]))
    except csv.Error as e:
        raise InputError(f"{path}:{line + 1}: {e}")
    return {k: np.array(v, dtype=np.float64) for k, v in cols.items()}
