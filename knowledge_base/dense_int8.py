"""A quarter of the memory traffic for exact dense scoring: an int8 first pass with a proven bound.

Scoring every entry reads every stored vector: 147 MB of float32 at 100,000 entries, which on a
shared 2-core machine is memory-bound (5-13 ms a query). Here each stored vector is also kept as
int8 codes with its own scale (x ~ codes * scale), multiplied with an 8-bit query by onnxruntime's
integer kernel (MatMulInteger with the codes as a constant, packed once: 37 MB a query). For every
row the scan returns an approximate inner product *and a bound on its error* that holds whatever
the vectors are:

    |q.x - q^.x~| <= |q.(x - x~)| + |(q - q^).x~| <= |q| |x - x~| + |q - q^| |x~|

(Cauchy-Schwarz; x~ and q^ are the dequantised vector and query, the integer product is exact).
Retrieval then computes the exact float32 score of only the rows the bound cannot rule out
(knowledge_base.retrieval.search_pool), so every result, score and tie-break is the one the full
float32 scan gives; tests hold the two paths equal.

Rows added after the codes were built are scored exactly (a float32 scan of that tail); the codes
are rebuilt when the tail outgrows max(TAIL_MIN, TAIL_SHARE x the coded rows).
"""

from __future__ import annotations

import numpy as np

MIN_ROWS = 20_000  # below this the float32 scan is already cheap
TAIL_MIN, TAIL_SHARE = 1024, 0.10
SLACK = 1e-4  # rounding: the float32 kernel's own sum (<= ~2e-5 at 384 dims) and float64 products


def available() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnx"))


class Int8Codes:
    def __init__(self, vectors: np.ndarray):
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper

        x = np.asarray(vectors, dtype=np.float32)
        self.rows, dim = x.shape
        peak = np.abs(x).max(axis=1)
        self.scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float64)
        codes = np.clip(np.rint(x / self.scale[:, None].astype(np.float32)), -127, 127).astype(np.int8)
        approx = codes.astype(np.float64) * self.scale[:, None]
        # per row |x - x~| and |x~|, rounded up into float32 (the per-query arithmetic is float32;
        # SLACK covers its rounding)
        self.err = np.nextafter(np.linalg.norm(x.astype(np.float64) - approx, axis=1).astype(np.float32), np.inf)
        self.norm = np.nextafter(np.linalg.norm(approx, axis=1).astype(np.float32), np.inf)
        self.scale32 = self.scale.astype(np.float32)
        b = numpy_helper.from_array(np.ascontiguousarray(codes.T), "codes")
        del codes, approx
        graph = helper.make_graph(
            [helper.make_node("MatMulInteger", ["q", "codes", "q_zero"], ["dots"])],
            "int8_scan",
            [
                helper.make_tensor_value_info("q", TensorProto.UINT8, [1, dim]),
                helper.make_tensor_value_info("q_zero", TensorProto.UINT8, []),
            ],
            [helper.make_tensor_value_info("dots", TensorProto.INT32, [1, self.rows])],
            initializer=[b],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        self._session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])

    def scores(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(approximate q.x, bound on |exact - approximate|) for each coded row, float32."""
        q = np.asarray(query, dtype=np.float64)
        lo, hi = min(float(q.min()), 0.0), max(float(q.max()), 0.0)
        step = (hi - lo) / 255.0 or 1.0
        zero = int(np.clip(np.rint(-lo / step), 0, 255))
        q8 = np.clip(np.rint(q / step) + zero, 0, 255)
        q_hat = (q8 - zero) * step
        (dots,) = self._session.run(
            None, {"q": q8.astype(np.uint8)[None, :], "q_zero": np.asarray(zero, dtype=np.uint8)}
        )
        approx = dots[0].astype(np.float32)
        approx *= self.scale32
        approx *= np.float32(step)
        bound = self.err * np.float32(np.linalg.norm(q))
        bound += self.norm * np.float32(np.linalg.norm(q - q_hat))
        bound += np.float32(SLACK)
        return approx, bound


class BoundedScores:
    """Dense scores of every stored row as intervals, with exact float32 values on demand."""

    def __init__(self, approx: np.ndarray, bound: np.ndarray, exact):
        self.approx, self.bound = approx, bound
        self._exact = exact

    def exact(self, rows: np.ndarray) -> np.ndarray:
        """The float32 inner products the full scan gives for `rows` (same kernel, same values)."""
        return self._exact(rows)
