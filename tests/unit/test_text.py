"""kg.text: normalization keeps the way back to the original offsets."""

import pytest

from kg.text import MATH_PLACEHOLDER, MathError, find_math, fingerprint_text, normalize


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
def test_find_math_unbalanced_raises(original, offset):
    with pytest.raises(MathError) as info:
        find_math(original)
    assert info.value.offset == offset


def test_fingerprint_text_ignores_wrapping_and_composition():
    assert fingerprint_text("caf\u00e9  au\nlait ") == fingerprint_text("cafe\u0301 au lait")

