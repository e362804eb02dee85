"""kg.text: normalization keeps the way back to the original offsets."""

import pytest

from kg.text import MATH_PLACEHOLDER, MathError, find_math, fingerprint_text, normalize, read_math


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        ("phased\u2011elimination algorithms", "phased-elimination algorithms"),
        ("a\u2010b a\u2012b a\u2013b", "a-b a-b a-b"),
        ("models---which admit", "models - which admit"),
        ("pages 1--2", "pages 1-2"),
        ("a ``middle ground'' here", 'a "middle ground" here'),
        ("\u201cquoted\u201d and \u2018single\u2019", "\"quoted\" and 'single'"),
        ("\\textit{or} and \\emph{not} and \\textsc{Caps}", "or and not and Caps"),
        ("Q\\&A and 50\\% off", "Q&A and 50% off"),
        ("non~breaking", "non breaking"),
        ("a **bold** claim", "a bold claim"),
        ("x\u200by\u202ez", "xyz"),
        ("line\nbreak\ttab", "line break tab"),
        ("nul\x00byte", "nul byte"),
    ],
)
def test_normalize_rewrites(original, expected):
    assert normalize(original).text == expected


@pytest.mark.parametrize(
    "original",
    [
        "We achieve $\\widetilde{O}(dB + d\\sqrt{T})$ regret.",
        "Display $$\\sum_i x_i$$ and \\(a+b\\) and \\[c\\] here.",
        "The \\emph{phased\u2011elimination} ``algorithm'' --- it works.",
        "Cost under \\$5 and $5 per model.",
    ],
)
def test_normalize_every_character_maps_back(original):
    norm = normalize(original)
    assert len(norm.starts) == len(norm.text) == len(norm.ends)
    for i in range(len(norm.text)):
        a, b = norm.to_original(i, i + 1)
        assert 0 <= a < b <= len(original)


def test_normalize_masks_math_as_one_token():
    original = "The first achieves $\\widetilde{O}(dB + d\\sqrt{T})$ regret."
    norm = normalize(original)
    assert norm.text == f"The first achieves {MATH_PLACEHOLDER} regret."
    start = norm.text.index(MATH_PLACEHOLDER)
    a, b = norm.to_original(start, start + len(MATH_PLACEHOLDER))
    assert original[a:b] == "$\\widetilde{O}(dB + d\\sqrt{T})$"


def test_normalize_span_maps_to_original_word():
    original = "We propose \\textbf{phased\u2011elimination} algorithms."
    norm = normalize(original)
    start = norm.text.index("phased-elimination")
    a, b = norm.to_original(start, start + len("phased-elimination"))
    assert original[a:b] == "phased\u2011elimination"


def test_normalize_text_only_math_is_text():
    norm = normalize("quantization only $\\textit{or}$ total budgets")
    assert norm.text == "quantization only or total budgets"
    assert len(norm.math) == 1


@pytest.mark.parametrize(
    ("original", "spans"),
    [
        ("a $x$ b $$y$$ c", [(2, 5), (8, 13)]),
        ("\\(a\\) and \\[b\\]", [(0, 5), (10, 15)]),
        ("escaped \\$ is text, $z$ is math", [(20, 23)]),
        ("costs $5 per run", []),
        ("no math at all", []),
    ],
)
def test_find_math_locates_spans(original, spans):
    assert [(m.start, m.end) for m in find_math(original)] == spans


def test_find_math_body_offsets():
    (span,) = find_math("see $O(n)$.")
    assert (span.body_start, span.body_end) == (5, 9)


@pytest.mark.parametrize(
    ("original", "offset"),
    [("open $x never closed", 5), ("\\(a never", 0), ("$$ display", 0), ("ok $a$ then $b", 12)],
)
def test_find_math_strict_unbalanced_raises(original, offset):
    with pytest.raises(MathError) as info:
        find_math(original, strict=True)
    assert info.value.offset == offset


@pytest.mark.parametrize(
    ("original", "spans", "stray"),
    [
        # a stray "$" before two well-formed ones: pairing it would make the prose between math
        (
            "up to $\\sim \\textbf{10.9%} accuracy improvement, $\\sim$\\textbf{1.91x} latency reduction, "
            "and $\\sim$\\textbf{2.14x} energy",
            ["$\\sim$", "$\\sim$"],
            [(6, "$")],
        ),
        # a closing "$" whose opener is missing
        ("is \\|F(x)\\|_\\infty$ (i.e. how confident $F$ is", ["$F$"], [(18, "$")]),
        # a formula left open before prose and a well-formed one
        ("we derive a $O(D \\sqrt{S A T}) regret bound, where $D$ is", ["$D$"], [(12, "$")]),
        # an abstract cut off inside math
        ("only a few arms, namely $s", [], [(24, "$")]),
        ("a $O(n)$ bound when $d^{3/2}<< r <", ["$O(n)$"], [(20, "$")]),
        # prices: a "$" before a digit with nothing to close it
        ("at a cost of $5.2K USD, which", [], [(13, "$")]),
        ("mAP of 54.4%$that is only", [], [(12, "$")]),
        ("a layer with \\Omega\\(N) units", [], [(19, "\\(")]),
        ("$$ display never closed", [], [(0, "$"), (1, "$")]),
        ("balanced $a$ and \\(b\\)", ["$a$", "\\(b\\)"], []),
    ],
)
def test_read_math_reads_delimiters_that_open_no_math_as_text(original, spans, stray):
    scan = read_math(original)
    assert [original[m.start : m.end] for m in scan.spans] == spans
    assert [(d.offset, d.delimiter) for d in scan.stray] == stray
    assert find_math(original) == list(scan.spans)


@pytest.mark.parametrize(
    "original",
    ["a $x$ b $$y$$ c", "a $k$-armed bandit costs $5 per run", "$a$$b$", "\\(a\\) $b$ \\[c\\]"],
)
def test_read_math_balanced_is_the_strict_reading(original):
    assert list(read_math(original).spans) == find_math(original, strict=True)


def test_normalize_unbalanced_math_keeps_the_dollar_as_text():
    original = "we derive a $O(D) regret bound, where $D$ is the diameter"
    norm = normalize(original)
    assert norm.text == "we derive a $O(D) regret bound, where MATH is the diameter"
    assert [(m.start, m.end) for m in norm.math] == [(38, 41)]
    a, b = norm.to_original(12, 13)
    assert original[a:b] == "$"


def test_fingerprint_text_ignores_wrapping_and_composition():
    assert fingerprint_text("caf\u00e9  au\nlait ") == fingerprint_text("cafe\u0301 au lait")

