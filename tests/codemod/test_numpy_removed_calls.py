"""``numpy_removed_calls`` and ``numpy_removed_names``' ``np.asfarray``: NumPy calls NumPy 2.x no
longer takes, rewritten to what computes the same on NumPy 1.26 and 2.x.

Modelled on old TF1 scripts: a GAN that shows its samples with ``np.reshape(g, newshape=(4, 28,
28, 1))``, a TFRecord writer that stores ``img.tostring()``, an MNIST idx reader with
``np.fromstring`` and ``np.dtype(np.uint32).newbyteorder('>')``, a feature scaler with
``x.ptp(axis=0)``, a tic-tac-toe board set with ``board.itemset(i, j, v)``.  The rewritten code
is run on the installed NumPy and compared with what the old call computed.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("libcst")

from _support import migrated_twice

_SCRIPT = """
    import numpy as np
    import xml.etree.ElementTree as ET


    def show(samples):
        g = np.reshape(samples, newshape=(4, 28, 28, 1))
        rgb = np.reshape(np.repeat(g[0], 3, axis=2), newshape=[28, 28, 3], order="C")
        return g, rgb


    def to_feature(img):
        raw = img.tostring()
        back = np.fromstring(raw, dtype=np.uint8)
        return raw, back


    def scale(features, board):
        span = features.ptp(axis=0)
        board.itemset(1, 2, 7.0)
        counts, edges = np.histogram(features[:, 0], 5, normed=True)
        return span, counts


    header = np.dtype(np.uint32).newbyteorder(">")
    words = np.fromstring("1 2 3", dtype=int, sep=" ")
    xml = ET.tostring(ET.Element("a"))
    images = np.asfarray([[1, 2], [3, 4]])
    half = np.asfarray(images, dtype=np.float32)
"""


def test_each_call_is_rewritten_to_its_exact_equivalent() -> None:
    code, warnings = migrated_twice(_SCRIPT)
    for new in (
        "g = np.reshape(samples, (4, 28, 28, 1))",
        'rgb = np.reshape(np.repeat(g[0], 3, axis=2), [28, 28, 3], order="C")',
        "raw = img.tobytes()",
        "back = np.frombuffer(raw, dtype=np.uint8).copy()",
        "span = np.ptp(features, axis=0)",
        "board[1, 2] = 7.0",
        "counts, edges = np.histogram(features[:, 0], 5, density=True)",
        'header = np.dtype(np.uint32).newbyteorder(">")',  # a dtype keeps it
        'words = np.fromstring("1 2 3", dtype=int, sep=" ")',  # text mode stays
        'xml = ET.tostring(ET.Element("a"))',  # ElementTree's, not NumPy's
        "images = np.asarray([[1, 2], [3, 4]], dtype=float)",
        "half = np.asarray(images, dtype=np.float32)",
    ):
        assert new in code, (new, code)
    assert warnings == ()


def test_the_rewritten_code_computes_what_the_old_calls_did() -> None:
    code, _ = migrated_twice(_SCRIPT)
    space: dict[str, object] = {}
    exec(code, space)
    samples = np.arange(4 * 784, dtype=np.float32)
    g, rgb = space["show"](samples)  # type: ignore[operator]
    assert g.shape == (4, 28, 28, 1)
    assert rgb.shape == (28, 28, 3)
    img = np.arange(12, dtype=np.uint8).reshape(3, 4)
    raw, back = space["to_feature"](img)  # type: ignore[operator]
    assert raw == img.tobytes()
    assert back.flags.writeable  # fromstring gave a copy of its own
    np.testing.assert_array_equal(back, img.ravel())
    features = np.array([[1.0, 5.0], [4.0, 2.0], [2.0, 9.0]])
    board = np.zeros((3, 3))
    span, counts = space["scale"](features, board)  # type: ignore[operator]
    np.testing.assert_array_equal(span, [3.0, 7.0])
    assert board[1, 2] == 7.0
    # normed=True with equal-width bins: a density (sums to 1 over the bins' width)
    widths = (4.0 - 1.0) / 5
    assert counts.sum() * widths == pytest.approx(1.0)
    assert space["images"].dtype == np.float64  # type: ignore[union-attr]
    assert space["half"].dtype == np.float32  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("v = board.itemset((1, 1), 2)", "write a[i] = v"),  # a value read: no statement
        ("board.itemset(5)", "write a[i] = v"),
        ('swapped = arr.newbyteorder("<")', "a.view(a.dtype.newbyteorder(order))"),
        ("c, e = np.histogram(x, bins=edges, normed=True)", "density="),
        ("g = np.reshape(a=g, newshape=(2, 2))", "np.reshape(a, s)"),
        ("d = np.asfarray(images, np.int32)", "np.asarray(a, dtype=float)"),
    ],
)
def test_a_call_with_no_exact_equivalent_is_left_with_a_warning(line: str, says: str) -> None:
    code, warnings = migrated_twice(f"import numpy as np\n{line}\n")
    assert line in code
    (warning,) = warnings
    assert warning.startswith("2: ")
    assert says in warning
    assert "left unchanged" in warning


def test_a_script_without_numpy_keeps_its_own_methods() -> None:
    source = "import lxml.etree as etree\ns = node.tostring()\nspan = series.ptp()\n"
    code, warnings = migrated_twice(source)
    assert code == source
    assert warnings == ()


def test_the_removed_aliases_numpy_2_dropped_are_renamed() -> None:
    code, warnings = migrated_twice(
        """
        import numpy as np
        mask = np.zeros(3, dtype=np.bool8)
        index = np.int0(2)
        grid = np.row_stack([mask, mask])
        dims = np.rank(grid)
        n = np.alen(grid)
        """
    )
    assert "dtype=np.bool_" in code
    assert "np.intp(2)" in code
    assert "np.vstack([mask, mask])" in code
    assert "dims = np.ndim(grid)" in code
    (warning,) = warnings
    assert warning.startswith("6: np.alen left unchanged")
    assert "len(a)" in warning
