"""Take the reader back out of a joined model, as the ``train.py`` export it was (needs onnx).

    .venv/bin/python -m sudokucam.models.training.unjoin --joined models/digits_v4 \
        --base BASE --out READER

``join.py`` copies the reader's graph into the joined one with every name prefixed ``r_``
and its input renamed ``reader_cells``; this undoes that: the reader's nodes (the ones
``join.py`` placed right after the base's and the selecting nodes) and its ``r_``
initialisers, with the base's input and outputs. ``join.py`` on ``BASE`` and the reader so
recovered writes the joined model again byte for byte, so the shipped model can be joined
anew (another output, another rule) without the reader's training run at hand. ``BASE`` is
the base's export (digits_v3: ``git show 17cebec^:models/digits_v3/model.onnx``).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import onnx
from onnx import helper

from .join import digit_share_nodes, selection_nodes

PREFIX = "r_"
JOINED_INPUT = "reader_cells"  # the reader's input inside the joined graph


def unprefixed(name: str, cells: str) -> str:
    """A joined graph's name as the reader's own."""
    if name == JOINED_INPUT:
        return cells
    return name.removeprefix(PREFIX)


def reader_of(joined: onnx.ModelProto, base: onnx.ModelProto) -> onnx.ModelProto:
    """The reader model held in ``joined`` (joined from ``base`` by ``join.py``)."""
    count = len(base.graph.node)
    first = count + len(digit_share_nodes("b")) + len(selection_nodes())  # base, shares, selection
    cells = base.graph.input[0].name
    nodes = []
    for source in joined.graph.node[first : first + count]:
        if not all(out.startswith(PREFIX) for out in source.output):
            raise ValueError(f"node {source.name!r} is not the reader's: not a join.py model")
        node = onnx.NodeProto()
        node.CopyFrom(source)
        node.input[:] = [unprefixed(name, cells) for name in source.input]
        node.output[:] = [unprefixed(name, cells) for name in source.output]
        node.name = unprefixed(source.name, cells)
        nodes.append(node)
    inits = []
    for source in joined.graph.initializer:
        if source.name.startswith(PREFIX):
            init = onnx.TensorProto()
            init.CopyFrom(source)
            init.name = unprefixed(source.name, cells)
            inits.append(init)
    graph = helper.make_graph(
        nodes, base.graph.name, list(base.graph.input), list(base.graph.output), initializer=inits
    )
    reader = helper.make_model(graph, opset_imports=base.opset_import)
    reader.ir_version = base.ir_version
    onnx.checker.check_model(reader)
    return reader


def main() -> None:
    """Write ``--out``/model.onnx (the reader) and the base's config.json beside it."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--joined", type=Path, required=True, help="a join.py output folder")
    p.add_argument("--base", type=Path, required=True, help="the base it was joined from")
    p.add_argument("--out", type=Path, required=True, help="where the reader is written")
    args = p.parse_args()
    joined = onnx.load(str(args.joined / "model.onnx"))
    base = onnx.load(str(args.base / "model.onnx"))
    args.out.mkdir(parents=True, exist_ok=True)
    onnx.save(reader_of(joined, base), str(args.out / "model.onnx"))
    shutil.copy(args.base / "config.json", args.out / "config.json")
    print(f"wrote {args.out / 'model.onnx'}")


if __name__ == "__main__":
    main()
