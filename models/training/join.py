"""Join a base digit model and a reader model into the one ONNX model that ships (needs onnx).

    .venv/bin/python -m sudokucam.models.training.join --base BASE --reader READER --out DIR

Both are ``train.py`` exports (same input, 21 classes: empty, printed 1-9, handwritten 1-9,
notes, crossed out). The joined model answers, for every cell:

- empty, notes and crossed-out probabilities, and the embedding: the base model's;
- the digit mass (1 - those three) and, per digit, the printed share of it: the base
  model's, so the kind log-odds log p(printed d) / p(handwritten d) of a digit both read
  alike are the base model's, the scale the kind decision's thresholds were set on
  (``vision/read/kinds.py``, ``KindDecisionConfig``);
- which digit (how the digit mass is shared among 1-9): on the cells where the base reads a
  legible digit (digit mass above ``--reader-from`` and its likeliest digit holding at
  least ``KindDecisionConfig.legible_from`` of it), the geometric mean of the base's and
  the reader's shares (the softmax of their mean log-shares); the base's on the others. So whether a
  cell holds a legible digit at all (a speck, two digits written over each other) stays
  the base's call, a digit both read surely stays sure, one they disagree on is unsure
  (asked about, or left to the repair), and the reader runs on those cells only: a page
  of few digits costs little more than the base alone.

A second output, ``base_probs``, is the base model's own probabilities: candidate notes'
small digits are read from them too (``vision/read/notes.py``: a noted digit counts only
where the base's likeliest digit is the joined one; the reader, trained on full-size
digits, reads a noted 2 a few pixels high as a sure 9).

A reader trained on more hands (more weight on real cells, the Times digits with their kinds)
reads more digits right, but alone it moves the print/pen log-odds of cells the base reads
right, and reads entries pushed to a cell's edge, once centred, less surely; the join keeps
what each does best. Its model card: ``models/digits_v4/README.md``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, compose, helper, numpy_helper

from sudokucam.vision.read.decide import DEFAULT_KIND_DECISION_CONFIG

VERSION = "digits_v4"
EPSILON = 1e-12  # keeps shares finite where a probability is 0
# The reader reads only the cells whose base digit mass (1 - empty, notes, crossed out) is
# above this (and whose digit is legible): blank cells keep the base's digit share.
READER_FROM = 0.05
BASE_PROBS = "base_probs"  # the output holding the base model's own probabilities


def constants(reader_from: float) -> list[onnx.TensorProto]:
    """The joining nodes' constant inputs."""
    values: dict[str, np.ndarray] = {
        "printed_idx": np.arange(1, 10, dtype=np.int64),
        "written_idx": np.arange(10, 19, dtype=np.int64),
        "empty_idx": np.array([0], dtype=np.int64),
        "other_idx": np.array([19, 20], dtype=np.int64),
        "class_axis": np.array([1], dtype=np.int64),
        "epsilon": np.array(EPSILON, dtype=np.float32),
        "reader_from": np.array(reader_from, dtype=np.float32),
        "legible_from": np.array(DEFAULT_KIND_DECISION_CONFIG.legible_from, dtype=np.float32),
        "half": np.array(0.5, dtype=np.float32),
    }
    return [numpy_helper.from_array(value, name) for name, value in values.items()]


def digit_share_nodes(model: str) -> list[onnx.NodeProto]:
    """Nodes from ``{model}_probs`` to its printed ``_p``, digit ``_d`` (printed + written),
    digit mass ``_mass`` and per-digit share of that mass ``_share``."""
    node = helper.make_node
    return [
        node("Gather", [f"{model}_probs", "printed_idx"], [f"{model}_p"], axis=1),
        node("Gather", [f"{model}_probs", "written_idx"], [f"{model}_h"], axis=1),
        node("Add", [f"{model}_p", f"{model}_h"], [f"{model}_d"]),
        node("ReduceSum", [f"{model}_d", "class_axis"], [f"{model}_mass"], keepdims=1),
        node("Add", [f"{model}_mass", "epsilon"], [f"{model}_mass_e"]),
        node("Div", [f"{model}_d", f"{model}_mass_e"], [f"{model}_share"]),
    ]


def selection_nodes() -> list[onnx.NodeProto]:
    """Nodes picking the cells the reader reads: ``reader_rows`` (K, 1), ``reader_cells``."""
    node = helper.make_node
    return [
        node("Greater", ["b_mass", "reader_from"], ["inked"]),
        node("ReduceMax", ["b_share"], ["b_top"], axes=[1], keepdims=1),
        node("GreaterOrEqual", ["b_top", "legible_from"], ["legible"]),
        node("And", ["inked", "legible"], ["read"]),
        node("Squeeze", ["read", "class_axis"], ["inked_rows"]),
        node("NonZero", ["inked_rows"], ["inked_idx"]),
        node("Transpose", ["inked_idx"], ["reader_rows"], perm=[1, 0]),
        node("GatherND", ["cells", "reader_rows"], ["reader_cells"]),
    ]


def output_nodes() -> list[onnx.NodeProto]:
    """Nodes from the base's and reader's shares to ``probs`` and ``embedding``."""
    node = helper.make_node
    return [
        node("GatherND", ["b_share", "reader_rows"], ["b_read_share"]),
        node("Add", ["b_read_share", "epsilon"], ["b_read_share_e"]),
        node("Add", ["r_share", "epsilon"], ["r_share_e"]),
        node("Log", ["b_read_share_e"], ["b_log"]),
        node("Log", ["r_share_e"], ["r_log"]),
        node("Add", ["b_log", "r_log"], ["log_sum"]),
        node("Mul", ["log_sum", "half"], ["log_mean"]),
        node("Softmax", ["log_mean"], ["mean_share"], axis=1),
        node("ScatterND", ["b_share", "reader_rows", "mean_share"], ["share"]),
        node("Gather", ["b_probs", "empty_idx"], ["empty"], axis=1),
        node("Gather", ["b_probs", "other_idx"], ["other"], axis=1),
        node("Add", ["b_d", "epsilon"], ["b_d_e"]),
        node("Div", ["b_p", "b_d_e"], ["printed_share"]),
        node("Mul", ["share", "b_mass"], ["digit_mass"]),
        node("Mul", ["digit_mass", "printed_share"], ["printed"]),
        node("Sub", ["digit_mass", "printed"], ["written"]),
        node("Concat", ["empty", "printed", "written", "other"], ["probs"], axis=1),
        node("Identity", ["b_embedding"], ["embedding"]),
        node("Identity", ["b_probs"], [BASE_PROBS]),
    ]


def prefixed(path: Path, prefix: str, cells: str) -> onnx.ModelProto:
    """The model at ``path`` with every name prefixed, its input renamed ``cells``."""
    model = compose.add_prefix(onnx.load(str(path / "model.onnx")), prefix)
    for n in model.graph.node:
        n.input[:] = [cells if name == prefix + "cells" else name for name in n.input]
    return model


def join(base: Path, reader: Path, reader_from: float = READER_FROM) -> onnx.ModelProto:
    """One ONNX model: ``base``'s and ``reader``'s graphs on one input, joined as documented."""
    b, r = prefixed(base, "b_", "cells"), prefixed(reader, "r_", "reader_cells")
    nodes = [*b.graph.node, *digit_share_nodes("b"), *selection_nodes(), *r.graph.node]
    nodes += [*digit_share_nodes("r"), *output_nodes()]
    inits = [*b.graph.initializer, *r.graph.initializer, *constants(reader_from)]
    source = onnx.load(str(base / "model.onnx"))
    classes = source.graph.output[0].type.tensor_type.shape.dim[1].dim_value
    width = source.graph.output[1].type.tensor_type.shape.dim[1].dim_value
    outputs = [
        helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", classes]),
        helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", width]),
        helper.make_tensor_value_info(BASE_PROBS, TensorProto.FLOAT, ["batch", classes]),
    ]
    graph = helper.make_graph(nodes, VERSION, [source.graph.input[0]], outputs, initializer=inits)
    joined = helper.make_model(graph, opset_imports=source.opset_import)
    joined.ir_version = source.ir_version
    onnx.checker.check_model(joined)
    return joined


def main() -> None:
    """Join ``--base`` and ``--reader`` into ``--out`` (model.onnx and config.json)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--base", type=Path, required=True, help="kinds, empty, notes: train.py out")
    p.add_argument("--reader", type=Path, required=True, help="which digit: train.py out")
    p.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / VERSION)
    p.add_argument("--reader-from", type=float, default=READER_FROM, help="base digit mass")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    onnx.save(join(args.base, args.reader, args.reader_from), str(args.out / "model.onnx"))
    config = json.loads((args.base / "config.json").read_text())
    config["version"] = VERSION
    config["joined"] = {"reader_from": args.reader_from}
    config["base_probs_output"] = BASE_PROBS
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    print(f"wrote {args.out / 'model.onnx'}")


if __name__ == "__main__":
    main()
