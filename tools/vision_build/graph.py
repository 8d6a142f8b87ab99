"""The namer's ONNX graph, written from its ``.npz`` weights: ``python -m tools.vision_build.graph``.

Why a graph at all: OpenCV's DNN module runs it in half the time the NumPy pass takes (see
:mod:`companion.vision.cnn`), and ONNX is the one format both the Pi's OpenCV 4 and OpenCV 5 read.
Why from the ``.npz`` and not from PyTorch: the weights as shipped (subnormals flushed, as the
recogniser loads them) are the network; the graph is only another way to run them, so it is written
from exactly those, and needs the ``onnx`` package (the dev extra), not the training's.

The build writes it after training; run this module alone to write it again from the shipped weights.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from companion.vision.cnn import CHANNELS, GRAPH_INPUT, GRAPH_OUTPUTS, PATCH_H, PATCH_W, Namer
from companion.vision.recognise import NAMER_GRAPH
from tools.vision_build.options import NAMER

__all__ = ["graph", "main", "write_graph"]

#: ONNX operator set 13: every operator here in the form OpenCV 4.8 and later import.
OPSET = 13
#: The ONNX file format's version for that operator set.
IR_VERSION = 8


def graph(namer: Namer) -> onnx.ModelProto:
    """The namer as ONNX: three 3x3 convolutions (each then ReLU and 2x2 max pooling), flattened
    channel-first, a dense layer with ReLU, and the rank and suit heads' softmaxes."""
    nodes: list[onnx.NodeProto] = []
    weights: list[onnx.TensorProto] = []

    def weight(name: str, array: np.ndarray) -> str:
        weights.append(numpy_helper.from_array(np.asarray(array, np.float32), name))
        return name

    last = GRAPH_INPUT
    for layer in range(3):
        w, b = getattr(namer, f"c{layer}w"), getattr(namer, f"c{layer}b")
        conv, relu, pool = f"conv{layer}", f"relu{layer}", f"pool{layer}"
        inputs = [last, weight(f"{conv}.w", w), weight(f"{conv}.b", b)]
        nodes.append(helper.make_node("Conv", inputs, [conv], kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [conv], [relu]))
        nodes.append(helper.make_node("MaxPool", [relu], [pool], kernel_shape=[2, 2], strides=[2, 2]))
        last = pool
    nodes.append(helper.make_node("Flatten", [last], ["flat"], axis=1))
    dense = ["flat", weight("dense.w", namer.f1w), weight("dense.b", namer.f1b)]
    nodes.append(helper.make_node("Gemm", dense, ["dense"], transB=1))
    nodes.append(helper.make_node("Relu", ["dense"], ["hidden"]))
    for head, w, b in zip(GRAPH_OUTPUTS, (namer.rw, namer.sw), (namer.rb, namer.sb), strict=True):
        scores = f"{head}.scores"
        nodes.append(
            helper.make_node(
                "Gemm", ["hidden", weight(f"{head}.w", w), weight(f"{head}.b", b)], [scores], transB=1
            )
        )
        nodes.append(helper.make_node("Softmax", [scores], [head], axis=1))
    batch = "n"
    body = helper.make_graph(
        nodes,
        "namer",
        [helper.make_tensor_value_info(GRAPH_INPUT, TensorProto.FLOAT, [batch, CHANNELS, PATCH_H, PATCH_W])],
        [
            helper.make_tensor_value_info(GRAPH_OUTPUTS[0], TensorProto.FLOAT, [batch, namer.rw.shape[0]]),
            helper.make_tensor_value_info(GRAPH_OUTPUTS[1], TensorProto.FLOAT, [batch, namer.sw.shape[0]]),
        ],
        weights,
    )
    model = helper.make_model(
        body, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="crib companion"
    )
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model


def write_graph(namer: Namer, path: Path) -> None:
    """Write ``namer``'s graph to ``path``."""
    onnx.save(graph(namer), str(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.vision_build.graph", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--weights", type=Path, default=NAMER, help="the namer's .npz (default: the shipped one)"
    )
    args = parser.parse_args(argv)
    if not args.weights.is_file():
        print(f"graph: {args.weights} is missing", file=sys.stderr)
        return 1
    out = args.weights.with_name(NAMER_GRAPH)
    write_graph(Namer.load(args.weights), out)
    print(f"graph: wrote {out} ({out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
