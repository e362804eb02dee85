"""Measuring bound extraction against hand-written gold: ``kg eval bounds --gold FILE INPUT…``.

The gold file has one JSON line per abstract::

    {"doc": ID, "bounds": [{"kind", "soft", "latex", "expr", "quantity", "attribution"}]}

``ID`` is the paper id the readers give (the record's ``id`` in JSONL, the derived ``p-…`` id for
seed text). A gold bound is located in its abstract by its ``latex``; when the same text occurs
more than once, the k-th gold bound with that text takes the k-th unused occurrence, preferring
occurrences that fill a whole math span.

The shipped gold, ``tests/data/bounds_gold.jsonl``, was written by reading the abstracts (never
from extractor output): all 50 seed abstracts, and 1785 abstracts of ``ml-abstracts.jsonl``
(copied to ``tests/data/bounds_gold_papers.jsonl``) chosen by a filter blind to the extractor:
venue COLT, ALT, AISTATS or UAI; the abstract contains ``$`` and one of ``O(``, ``\\Omega``,
``\\Theta``, ``\\tilde``, ``\\widetilde``, ``\\mathcal{O}``, ``\\le``, ``\\ge``, ``\\sim``; kg can
read it (its math closes); all 879 of them, in order of ``sha256(id)``, then all 467 of the
abstracts of the other venues that pass the same filter, in the same order, then all 440 of
those that write their bounds without TeX math (batches AD to AL below; one of them, the same
text as an earlier one under another id, is left out)
(``tools/bounds_batch.py FIRST LAST`` draws records of that order; a unit test checks the shipped
ones are its head). Formula bounds only. Records 65–84
were the tuning batch and 85–104 the held-out batch of ``bounds.latex.v2`` (gold written for both
before any rule changed; B scored once, after tuning). ``kg eval bounds`` on each batch alone,
v1 → v2: A (54 gold) F1 0.887 → 0.952, kind 0.979 → 1.000, attribution 0.872 → 0.980, quantity
0.532 → 0.800; B, the unseen estimate (32 gold), F1 0.941 → 0.941, kind 0.969 → 0.969,
attribution 0.781 → 0.875, quantity 0.688 → 0.781. Records 105–134 (C) were the tuning batch and
135–164 (D) the held-out batch of ``bounds.latex.v3`` (gold written for both before any rule
changed; v3 tuned on the older gold and C, D scored once, after tuning), v2 → v3: A F1 0.952 →
0.952, kind 1.000 → 1.000, attribution 0.980 → 0.980, quantity 0.800 → 0.880; B F1 0.941 → 0.985,
kind 0.969 → 1.000, attribution 0.875 → 0.969, quantity 0.781 → 0.906; C (40 gold) F1 0.950 →
0.950, kind 0.974 → 0.974, attribution 1.000 → 1.000, quantity 0.789 → 0.947; D, the unseen
estimate (62 gold), F1 0.924 → 0.924, kind 0.927 → 0.909, attribution 0.818 → 0.818, quantity
0.709 → 0.727, still under the 0.90 and 0.80 asked of unseen text. Records 165–214 (E, 98 gold)
are the held-out batch of ``bounds.latex.v4``, whose mechanisms read sentence structure rather
than more phrases (a generic head noun and its modifier, coordinated formulas, a clause without
its own subject) and were tuned on D (gold for E written before, E scored once, after tuning),
v3 → v4: A F1 0.952 → 0.952, kind 1.000 → 1.000, attribution 0.980 → 0.980, quantity 0.880 →
0.880; B F1 0.985 → 0.985, kind 1.000 → 1.000, attribution 0.969 → 0.969, quantity 0.906 →
0.906; C unchanged (F1 0.950, kind 0.974, attribution 1.000, quantity 0.947); D F1 0.924 → 0.924,
kind 0.909 → 0.927, attribution 0.818 → 0.927, quantity 0.727 → 0.873; E, the unseen estimate,
F1 0.939 → 0.939, kind 0.946 → 0.946, attribution 0.848 → 0.837, quantity 0.761 → 0.739: no
better than v3 on unseen text, and under the 0.95, 0.90 and 0.80 asked of it. The whole gold
(264 abstracts, 443 gold), v3 → v4: F1 0.957 → 0.957, kind 0.972 → 0.974, attribution 0.933 →
0.948, quantity 0.865 → 0.879. The gold before E (214 abstracts, 345 gold), v2 → v3 → v4: F1
0.958 → 0.962 → 0.962, kind 0.979 → 0.979 → 0.982, attribution 0.939 → 0.957 → 0.979, quantity
0.824 → 0.894 → 0.918.

Records 215–264 (F, 90 gold) were written before a learned attribution was tried, to score whatever
shipped once. The learned decision (``python -m extractors.train.bounds_attribution``: a logistic
regression over the words of the formula's clause and sentence, sentence position, "we"/"this
paper"/citation cues, verb tags and the v4 rule decision itself) did not beat the rules under
5-fold cross-validation grouped by paper on A–E and the seeds (421 matched bounds): rules 0.948,
model 0.943 (nested, ``C`` chosen in inner folds; 0.886–0.943 over ``C`` 0.03–10; without the rule
decision as a feature, about 0.82 against a 0.770 majority class). Fitted on the gold before E and
scored on E it reached 0.848 against the rules' 0.837, one bound in 92; fitted on A–E and scored on
F, 0.882, the same as the rules. So it is not used: the extractor is still ``bounds.latex.v4`` and
A–E keep their figures above. F, the unseen estimate for v4: F1 0.914 (P 0.885, R 0.944), kind
0.977, attribution 0.882, quantity 0.612: detection and kind meet the 0.90 and 0.95 asked of unseen
text, attribution and quantity stay under their 0.90 and 0.80. Of F's 33 quantity misses, about a
dozen name the quantity at another grain than the gold ("mistakes" for "mistake bound", "error" for
"expected error", "oracle complexity" for "number of function evaluations"), the others are wrong
or empty. The whole gold (314 abstracts, 533 gold), v4: F1 0.949, kind 0.974, attribution 0.937,
quantity 0.834.

Records 265–314 (G, 94 gold) were written by hand before any rule after v4 was changed, and v4 was
scored on G alone once, a third unseen estimate for v4: F1 0.949 (P 0.920, R 0.979), kind 0.957,
soft 1.000, attribution 0.891, quantity 0.761; again attribution and quantity under the 0.90 and
0.80 asked of unseen text. The whole gold with G (364 abstracts, 627 gold), v4: F1 0.949, kind
0.972, attribution 0.930, quantity 0.823.

``bounds.latex.v5`` was then tuned on the misses of all four held-out batches D–G (86 quantity
and 39 attribution misses under v4). Classified by hand: most attribution misses were a cue word
read outside the formula's clause (the other predicate of "… improves upon the state of the art and
achieves $X$", "in this case", "prior to this work", "if $Q$ is known") or background stated
before the abstract first speaks of itself with no cue at all; the quantity misses were a nearer
noun taken over the subject of the sizing predicate ("the sample complexity of … within an
$\\epsilon$ error is upper bounded by $X$"), over the object of "improves … from $A$ to $B$", over
a quantity a unit after the formula measures ("information complexity at least $X$ bits"), over a
phrase a formula restates between commas, about a fifth the same quantity at another grain than
the gold ("mistakes" for "mistake bound", "number of communications" for "communication
complexity", "error" for "expected error"), and the rest wrong or empty. v5 reads the clause and
the parse for those (module docstring of :mod:`extractors.bounds`); word lists fitting one
abstract were left alone. No matched bound's field got worse on any batch; detection, kind and soft
did not change. v4 → v5: A unchanged (F1 0.952, kind 1.000, attribution 0.980, quantity 0.880); B
quantity 0.906 → 0.938 (attribution 0.969); C unchanged (attribution 1.000, quantity 0.947); D
attribution 0.927 → 0.964, quantity 0.873 → 0.873; E attribution 0.837 → 0.891, quantity 0.739
→ 0.783; F attribution 0.882 → 0.918, quantity 0.612 → 0.647; G attribution 0.891 → 0.946,
quantity 0.761 → 0.815; seeds unchanged (all 1.000); the whole gold (364 abstracts, 627 gold): F1
0.949, kind 0.972, attribution 0.930 → 0.955, quantity 0.823 → 0.845. D–G were all read while
tuning v5, so these are tuning figures: there is no unseen estimate for v5 yet, and the last one,
G under v4 (attribution 0.891, quantity 0.761), is the better guide to unseen text until a new
batch is written first and scored once.

Records 315–364 (H, 123 gold) were that batch: the blind order above reproduced (it gives the
shipped 314 ids in order, G included), the gold written by hand from the abstracts before v5 was
run on them, and v5 scored on H alone once, with no rule changed after. H, the unseen estimate for
v5: F1 0.944 (P 0.936, R 0.951; 117 matched of 123 gold and 125 predicted), kind 0.983, soft
1.000, attribution 0.940, quantity 0.633 (as Metric 0.633): detection, kind and attribution meet
the 0.90, 0.95 and 0.90 asked of unseen text; quantity stays well under its 0.80. Of H's 43
quantity misses, 29 name the quantity at another grain than the gold (a qualified regret or error
for the bare word: "Pareto regret", "Nash regret", "adaptive expected regret", "calibration
error" read "regret" or "error"; "loss in accuracy" read "loss"; "communication complexity" read
"number of bits"; "label complexity", "gradient complexity", "smoothed complexity" read "query
complexity", "oracle complexity", "computational complexity"), 14 are another quantity (among them a
coordinated "samples in time" or "space and runtime", "uniform stability" read as the convergence
rate beside it, the object of "improves the computational efficiency from A to B" read as a later
convergence rate); the 7 attribution misses are two bare costs of the naive and the insecure
scheme taken as this paper's, three results of this paper taken as prior (in abstracts that speak of
previous works or the literature in an earlier sentence), a lower bound "of contextual bandits" taken as this
paper's and the first bound of "ranging from A to B" taken as prior; the 2
kind misses are $\\Omega$ bounds called "necessary and sufficient" (gold tight); the 6 missed are
approximation factors, a bare count ("as few as $3N \\log N$"), ``{O}(…)`` and ``\\varepsilon =
O(…)``; the 8 spurious are conditions and definitions (a separation assumed, "$\\epsilon
\\lesssim 1/k$", "an $O(1/N)$-fraction", "at least $n / k$ points"), a bicriteria pair and a
two-sided matrix inequality. The whole gold with H (414 abstracts, 750 gold), v5: F1 0.948 (P
0.943, R 0.953), kind 0.973, soft 0.994, attribution 0.952, quantity 0.810 (as Metric 0.810);
without the parse F1 0.948, kind 0.973, attribution 0.944, quantity 0.796, under the 0.81
quantity floor of the test (the floor was left as it was then, and later set to 0.79, under the
measured figure, since the gold grew with unseen text and no rule changed).

Records 365–414 (I, 98 gold) are the next unseen batch, written the same way (from the abstracts
only, before any kg command ran on them) and scored once with v5, no rule changed after: F1 0.929
(P 0.929, R 0.929; 91 matched), kind 0.978, soft 0.989, attribution 0.901, quantity 0.659 (as
Metric 0.659). Detection, kind and attribution again meet the targets on unseen text, quantity
again does not. Of its 31 quantity misses about a dozen name the same quantity at another grain
or by a synonym ("optimization error", "inversion bias", "excess empirical risk" read "error",
"bias", "risk"; "gradient complexity" read "oracle complexity" five times), the rest another
quantity of the sentence (a batch size, a width or a rank read as the complexity beside it); the 9
attribution misses are results compared across works in one sentence ("improves A to B", "closes
the gap between"); the 7 missed are approximation factors and iteration counts written as
equations ("$T=\\epsilon^2n^2$"); the 7 spurious are conditions and assumptions ("$k=o(p)$",
"$\\|u\\|\\le D$"). The whole gold with I (464 abstracts, 848 gold), v5: F1 0.946 (P 0.942, R
0.951), kind 0.974, soft 0.994, attribution 0.947, quantity 0.793 (as Metric 0.793); without the
parse F1 0.946, kind 0.974, attribution 0.939, quantity 0.780, so the test's quantity floor is now
0.78 (the gold grew with unseen text; no rule changed).

Before naming quantities at a finer grain, the gold itself was counted (a throwaway script over the
parse, not shipped): for each of the 750 gold bounds, the gold quantity against the noun phrase in
the formula's sentence whose head is the gold's last word, nearest the formula. The head word is in
that sentence for 526: the text puts no modifier before it for 156, the gold is the whole modified
phrase for 119, the bare head where the text qualifies it for 48, part of the modifiers for 35,
longer than the phrase for 116 (mostly counts and fixed names: "number of tests" for "$X$ tests",
"running time" for "time"), another phrase for 52. Modifier by modifier (as the parse tags them):
the gold keeps 119 of 148 noun and proper-noun compounds ("sample complexity", "Nash regret",
"calibration error"; most of the 29 others drop no modifier: the gold names another quantity than
the phrase written, "update time" as "running time", "episode complexity" as "sample complexity",
or the parse tags an adjective a noun, "worst-case", "frequentist", "sublinear"; dropped outright:
"learning error" as "error", "PAC" and "global optimality" sample complexity as "sample
complexity", "T-period regret" as "regret"), none of 44 evaluative adjectives ("optimal",
"minimax", "tight", "best", "near-optimal", "improved", "previous"), and 52 of 107 other
adjectives, split within and across batches ("cumulative", "dynamic", "smoothed", "expected error"
and H's "adaptive expected regret" and "full swap regret" kept; "expected", "Bayesian",
"frequentist", "static", "worst-case", "high-probability", "data-dependent" regret dropped to
"regret" in the earlier batches). So the gold is consistent at the specific grain only for noun
compounds; no gold record was changed (the split adjectives are a convention that moved between
batches, not a slip one record makes). Two mechanisms were tried and not shipped (the extractor
stays ``bounds.latex.v5``). A noun or proper noun compounded with a one-word quantity that names
itself, opening its phrase or a name ("the Nash regret", "$\\epsilon$-calibration error", not "high
probability error" or "worst case regret"), with the parse only: quantity seeds 1.000, 0 (records
1–64) 0.927 → 0.911, A–F unchanged, G 0.815 → 0.826, H 0.632 → 0.658 (74 → 77 of 117; "Pareto
regret", "Nash regret", "calibration error"), whole gold 0.810 → 0.813 (579 → 581 of 715),
detection, kind, soft and attribution unchanged on every batch; it loses "learning error" (gold
"error", twice) and "frequentist regret" (an adjective the parse tags a noun; gold "regret"), so it
improves two batches of nine and harms one, short of the "most batches" it had to improve. Adding
descriptive adjectives as well: 0 0.903, C 0.895, D 0.836, E 0.772, G 0.815, H 0.650, whole gold
0.801 ("Bayesian", "frequentist", "actual" regret), as the count above predicts. The rest of H's
grain misses are not modifiers of the head v5 chose: "loss in accuracy" and "excess accuracy" read
"loss", "communication complexity" read "number of bits", "gradient", "label" and "smoothed"
complexity read "oracle", "query" and "computational" complexity; "in/of + noun" after a head
("loss in accuracy") is in one abstract of the gold only (no other gold quantity but "number of …"
has one) and was not tried.

One grain (v6, v7). The count above shows the gold split on adjectives between batches, so the
convention was written down and the whole gold re-read against it by hand, from the sentences
(never from extractor output): a quantity keeps the qualifiers that say which quantity it is
(noun and proper-noun modifiers, defining adjectives: expected, Bayesian, frequentist,
cumulative, dynamic, static, pseudo-) and drops the words that describe the bound or its regime
(optimal, minimax, worst-case, high-probability, gap-dependent, PAC, $T$-round); the established
names of counted resources stay ("running time" for "in time $X$" or "time complexity", "sample
complexity" for "$X$ samples" or "sample size"), and so do the names the rules give synonyms
("arithmetic complexity" for "arithmetic cost", as the issue names that seed's quantity). 46 of the
848 gold quantities changed, each gaining a qualifier its sentence gives ("expected regret" 9,
"per-action regret" 4, "Bayesian" and "frequentist regret" 3 each …); 37 further proposals of the
re-reading, which replaced an established name by the abstract's synonym, were not taken. On the
re-grained gold v5 reaches quantity 0.744 (seeds 0.967, 0 0.879, A 0.840, B 0.938, C 0.895, D
0.745, E 0.674, F 0.576, G 0.761, H 0.632, I 0.659). ``bounds.latex.v6`` (module docstring of
:mod:`extractors.bounds`) was tuned on all of A–I, every batch of which had been read before:
quantity seeds 1.000, 0 0.927, A 0.860, B 0.938, C 0.947, D 0.800, E 0.761, F 0.682, G 0.826, H
0.684, I 0.714, whole 0.803; no batch lower than under v5; detection, kind, soft and attribution
unchanged.

Records 415–464 (J, 106 gold) were written by hand from the abstracts, in the one-grain convention,
before any kg command ran on them, then v6 was frozen and scored on J once: F1 0.972 (P 0.963, R
0.981; 104 matched), kind 0.971, soft 0.990, attribution 0.894, quantity 0.635 (v5 on J: the same
but quantity 0.548). Of its 38 quantity misses, 11 give the rules' name for a synonym the gold keeps
("oracle complexity" for "gradient complexity" 6, "approximation ratio" for "approximation factor"
4, "round complexity" for "number of rounds"), 10 another grain ("cumulative regret" for
"single-user cumulative regret" and "network regret", "number of tests" for "number of independence
tests"), 5 none (a "$X$-competitiveness" four times), 12 another quantity of the abstract (a lone
"complexity" read as computational where the abstract spoke of iteration or sample complexity).
(Before J was scored, its five most frequent gold quantity names were printed once by mistake,
"gradient complexity" among them; no rule touching those names changed, and the rules mapped
"gradient complexity" to "oracle complexity" until v14, after batch Q.) ``bounds.latex.v7`` was then
tuned on J's misses (module docstring), and records 465–514 (K, 85 gold), written the same way while
v7 was being tuned, were scored once with v7 frozen: F1 0.909 (P 0.879, R 0.941; 80 matched of 85
gold and 91 predicted), kind 0.975, soft 1.000, attribution 0.912, quantity 0.762 (v6 on K 0.762, v5
0.713). Detection, kind and attribution meet the 0.90, 0.95 and 0.90 asked of unseen text; quantity,
the closest an unseen batch has come, does not reach its 0.80. Of K's 19 quantity misses, 4 are
another grain ("expected 1-Wasserstein distance" read "Wasserstein distance", "expected running
time" read "running time", "regret" read "bandit regret"), 1 a synonym the gold keeps
("computational cost"), 1 none, 13 another quantity of the sentence (the time and the space of one
sentence swapped, a VC dimension beside a sample complexity). The whole gold with J and K (564
abstracts, 1039 gold), quantity v5 → v6 → v7 per batch: seeds 0.967 → 1.000 → 1.000, 0 0.879 → 0.927
→ 0.927, A 0.840 → 0.860 → 0.860, B 0.938, C 0.895 → 0.947 → 0.947, D 0.745 → 0.800 → 0.800, E 0.674
→ 0.761 → 0.761, F 0.576 → 0.682 → 0.694, G 0.761 → 0.826 → 0.837, H 0.632 → 0.684 → 0.692, I 0.659
→ 0.714 → 0.714, J 0.548 → 0.635 → 0.760, K 0.713 → 0.762 → 0.762; whole 0.721 → 0.782 → 0.798; v7:
F1 0.946 (P 0.938, R 0.953), kind 0.974, soft 0.994, attribution 0.938 (every batch as under v5),
quantity 0.798 (as Metric 0.798); without the parse quantity 0.738.

``bounds.latex.v8`` was tuned on K's misses (K 0.762 → 0.850, J 0.760 → 0.769, no batch lower),
and records 515–564 (L, 107 gold), written the same way while v8 was being tuned, were scored once
with v8 frozen: F1 0.903 (P 0.891, R 0.916; 98 matched of 107 gold and 110 predicted), kind 0.908,
soft 1.000, attribution 0.939, quantity 0.704 (v7 on L 0.704, v5 0.684). So on the three batches
written after the gold was put at one grain, each scored once by the rules of its day, quantity
reads 0.635 (J, v6), 0.762 (K, v7) and 0.704 (L, v8), against 0.548, 0.713 and 0.684 for v5: the
finer grain is read more often, and unseen text still sits 0.04–0.17 under the 0.80 asked. L's 9
kind misses are 8 bounds its gold calls tight where the abstract says the rates "cannot be
improved" (a sentence later), "nearly tight" (earlier batches keep that one upper), "known to be
tight" or "the well-known lower bound", and one lower bound read upper; of its 29 quantity misses,
14 are another quantity of the sentence, 8 a name the gold keeps where the rules give another
("number of episodes", "number of rounds", "number of mistakes", "label" for "query
complexity" …), 4 another grain ("expected running time", "parametric mean squared error" read
"mean squared error"), 2 none, and 1 a "number of" phrase run past its verb ("number of neurons must
be"). ``bounds.latex.v9`` mends three of those after L was scored (so v9 has no unseen estimate):
a "number of" phrase ends at a verb or modal, a hyphenated word whose first part describes the
bound is skipped ("best-known regret"), and "$X$ mistakes" counts a number of mistakes. The whole
gold with L (614 abstracts, 1146 gold), v9: F1 0.942 (P 0.934, R 0.949), kind 0.968, soft 0.995,
attribution 0.938, quantity 0.801 (as Metric 0.801); L 0.704 → 0.745 under v9, every other batch
as under v8; without the parse quantity 0.744. ``bounds.latex.v10`` then reads the tightness L's
gold found a sentence later ("Those rates … cannot be improved", module docstring), also with no
unseen estimate: kind on L 0.908 → 0.939, on every other batch unchanged; the whole gold: kind
0.971, every other figure as under v9.

Records 565–614 (M, 108 gold) were written by hand from the abstracts before any kg command ran on
them, then scored once with v10 frozen: F1 0.873 (P 0.886, R 0.861; 93 matched), kind 0.892, soft
1.000, attribution 0.935, quantity 0.570 (as Metric 0.581); v5 on M: the same but quantity 0.538.
Its writer was told to name a quantity in the abstract's own words, and did so for counted
resources ("number of oracle calls", "number of communication rounds", "number of iterations"
where the convention above keeps "oracle", "round" and "iteration complexity"): 15 of its 40
quantity misses are such a pair, the same quantity under the other name. It was also told that a
bound merely called "optimal" is an upper bound, where the rules read "which is optimal" as tight
(1 of its 10 kind misses). The file keeps what was written. The graph now resolves the names of
one quantity to one Metric (``aliases.jsonl``: "number of iterations" and "iteration
complexity", "time complexity" and "running time", "approximation factor" and "ratio" …), which
the "as Metric" figure counts. ``bounds.latex.v11`` (module docstring of :mod:`extractors.bounds`)
then mends what generalises from M's other misses (starred heads, "necessary and sufficient",
"converge as", "the first known", "$X$ conjecture", "in expectation", "total variation
distance"); M under v11, a tuning figure: F1 0.889, kind 0.906, attribution 0.969, quantity 0.594
(as Metric 0.688). The whole gold with M (664 abstracts, 1254 gold), v11: F1 0.937 (P 0.930, R
0.944), kind 0.969, soft 0.996, attribution 0.941, quantity 0.784 (as Metric 0.797); no batch
lower than under v10 (kind E 0.946 → 0.967, H 0.983 → 1.000; as Metric A 0.860 → 0.880, J 0.769
→ 0.817, L 0.745 → 0.755); without the parse quantity 0.731.

Records 615–663 (N, 49 abstracts, 113 gold; the order now leaves out a record kg cannot read,
whose math never closes, so N is the next 49) were written the same way, their writer given the
specification's words and the convention above, and scored once with v11 frozen: F1 0.881 (P
0.823, R 0.947; 107 matched), kind 0.906, soft 0.981, attribution 0.888, quantity 0.514 (as
Metric 0.523); v10 on N the same but as Metric 0.514, v5 quantity 0.495. 23 of its predictions
are formulas its writer read as regimes or definitions ("as $K$ goes from $o(\\sqrt{n})$ to
$\\omega(\\sqrt{n})$", "$k\\sim n^\\theta$ infected individuals"); 6 of its 10 kind misses are
bounds called "optimal" its writer read as tight, where the gold before it reads them upper (41
against 2). ``bounds.latex.v12`` then mends three general misses (a sized plural, "$X$
approximations", "so long as"); N under v12, a tuning figure: F1 0.884, quantity 0.551 (as Metric
0.579). The whole gold with N (713 abstracts, 1367 gold), v12: F1 0.932 (P 0.920, R 0.944), kind
0.964, soft 0.995, attribution 0.936, quantity 0.768 (as Metric 0.783); F 0.694 → 0.741 and K
0.850 → 0.863 under v12, no batch lower; without the parse quantity 0.717.

Records 664–713 (O, 110 gold), written the same way as N, scored once with v12 frozen: F1 0.900
(P 0.900, R 0.900; 99 matched), kind 0.929, soft 0.980, attribution 0.929, quantity 0.606 (as
Metric 0.616); v5 on O the same but quantity 0.576. Its 39 quantity misses are mostly another
quantity or a finer one ("$1/e$-regret", "social regret", "amortized update time", "variance of
the slower iterate"); ``bounds.latex.v13`` reads one general form among them, an acronym the
abstract defines on a bound's left side ("$\\mathrm{RTD}(\\mathcal C) = O(d^2)$"), and O under v13,
a tuning figure, reaches quantity 0.636. The whole gold with O (763 abstracts, 1477 gold), v13:
F1 0.930 (P 0.919, R 0.941), kind 0.961, soft 0.994, attribution 0.936, quantity 0.759 (as Metric
0.773), every older batch as under v12; without the parse quantity 0.712.

Records 714–763 (P, 85 gold), written the same way, scored once with v13 frozen: F1 0.929 (P
0.940, R 0.918; 78 matched), kind 0.897, soft 0.974, attribution 0.923, quantity 0.590 (as Metric
0.590); v5 on P: F1 0.934, the same kind and attribution, quantity 0.551. 5 of its 8 kind misses
are bounds its writer read as tight, 3 of them on "minimax optimal", "of the order" or "tight
within polylogarithmic factors", which the older gold reads otherwise. No rule changed after P.
The whole gold with P (813 abstracts, 1562 gold), v13: F1 0.930 (P 0.920, R 0.940), kind 0.958, soft 0.993,
attribution 0.935, quantity 0.750 (as Metric 0.764; 0.765 once "computational", "communication"
and "arithmetic cost" resolve to the complexities of those names); without the parse quantity
0.706.

Records 764–813 (Q, 50 abstracts, 90 gold), written the same way, scored once with v13 frozen: F1
0.932 (P 0.954, R 0.911; 82 matched), kind 0.951, soft 1.000, attribution 0.890, quantity 0.549 (as
Metric 0.549); v5 on Q: the same but quantity 0.512. Kind reaches the 0.95 asked for the first time
since K; quantity does not come near its 0.80. Of its 37 quantity misses, 5 name gradients counted
("$X$ stochastic gradient evaluations", "gradient complexity") where the rules said oracle
complexity and the gold, here and in J, H and I, says gradient complexity; 4 are a gap ("strong
gap", "empirical gap") the tables did not know; 3 say "space" where the rules said "space
complexity" (as the older gold does) or "number of words"; the rest another quantity of the abstract
or another grain ("1/2-approximate pseudo-regret", "U-calibration error"). ``bounds.latex.v14``
(module docstring of :mod:`extractors.bounds`) then mends the general ones; Q under v14, a tuning
figure: kind 0.963, attribution 0.902, quantity 0.634. Per batch, v13 → v14: quantity M 0.594 →
0.604, N 0.551 → 0.561, F 0.741 → 0.753, H 0.692 → 0.709, I 0.714 → 0.769, J 0.769 → 0.827, L 0.745
→ 0.755, but 0 0.927 → 0.919 (an abstract whose gold calls "the number of gradient evaluations" an
oracle complexity, as its sentence before counts "function and gradient evaluations"); kind P 0.897
→ 0.910. The whole gold with Q (863 abstracts, 1652 gold), v14: F1 0.929 (P 0.921, R 0.938), kind
0.959, soft 0.993, attribution 0.933, quantity 0.754 (as Metric 0.768); without the parse F1 0.930,
kind 0.959, attribution 0.928, quantity 0.710.

Records 814–863 (R, 50 abstracts, 98 gold), written the same way, scored once with v14 frozen:
F1 0.929 (P 0.929, R 0.929; 91 matched), kind 1.000, soft 1.000, attribution 0.846, quantity 0.725
(as Metric 0.780: four of its misses are "number of iterations" against "iteration complexity",
one Metric in the graph); v5 on R: F1 0.923, kind 1.000, attribution 0.844, quantity 0.667.
Detection and kind meet their targets, attribution does not (several of its 14 misses are the
writer's own calls: a result of "Cutkosky and Mehta (2021)" written as this paper's, the problem
statement's "complexity bounds $O(g_u(x))$" as a claim); quantity comes nearer its 0.80 than any
batch since K. ``bounds.latex.v15`` then mends four general misses ("takes time at least $X$",
"$X$-robustness", "aligned with the $X$ lower bound", "from $A$ for PC-PG to $B$"); R under v15,
a tuning figure: attribution 0.868, quantity 0.769 (as Metric 0.824); O attribution 0.929 →
0.949 and P 0.923 → 0.936 under v15, every other figure of every batch as under v14. The whole
gold with R (913 abstracts, 1750 gold), v15: F1 0.929 (P 0.921, R 0.938), kind 0.961, soft
0.993, attribution 0.932, quantity 0.755 (as Metric 0.771); without the parse F1 0.930, kind
0.961, attribution 0.924, quantity 0.711.

Records 864–879 (S, 16 abstracts, 29 gold), the last of the blind order (no eligible record is left
after them), written the same way and scored once with v15 frozen: F1 0.857 (P 0.889, R 0.828; 24
matched), kind 0.875, soft 1.000, attribution 0.917, quantity 0.833 (as Metric 0.833); v5 on S: F1
0.836, kind 0.913, attribution 0.913, quantity 0.739. S is too small to read much into (24 matched
bounds: one bound moves a figure by 0.04); its detection misses are "$O(\\log n)$-competitive"
bounds and unit counts written with ``\\mathrm{poly}`` heads; of its three kind misses, a guarantee
called "optimal up to the implicit constant" and a known rate were read tight by its writer, and an
approximation factor was read as a lower bound. No rule changed after S. The whole gold with S (929
abstracts, 1779 gold), v15: F1 0.928 (P 0.921, R 0.936), kind 0.960, soft 0.993, attribution 0.931,
quantity 0.756 (as Metric 0.772); without the parse F1 0.928, kind 0.960, attribution 0.924,
quantity 0.713.

Records 880–929 (T, 50 abstracts, 76 gold), the first of the other venues (29 NeurIPS, 13 ICML, 5
ACML, 2 CoRL, 1 ICLR), written the same way and scored once with v15 frozen: F1 0.921 (P 0.921, R
0.921; 70 matched), kind 0.914, soft 0.957, attribution 0.857, quantity 0.529 (as Metric 0.529); v5
on T: the same but quantity 0.486. Detection meets its target, kind and attribution do not, and
quantity is lower than on any batch since N. Its misses show what these venues write that the theory venues
seldom do: authors' macros for the heads (``\\Ot``, ``\\O``, ``\\tlO``), counts of parameters and
comparisons, costs per step, "SGD can achieve the fastest known $X$", and convention calls of their
writer (a bare "complexity" kept as "complexity" where the older gold says computational complexity;
"communication rounds" as communication complexity; "projection dimension"). ``bounds.latex.v16``
then mends the general ones; T under v16, a tuning figure: F1 0.955, kind 0.946, attribution 0.905,
quantity 0.608. Per batch, v15 → v16: quantity M 0.604 → 0.635 (the comparisons), N 0.561 → 0.570, F
0.753 → 0.776; attribution I 0.901 → 0.923, J 0.894 → 0.904; every other figure of every batch as
under v15. The whole gold with T (979 abstracts, 1855 gold), v16: F1 0.929 (P 0.921, R 0.938), kind
0.959, soft 0.993, attribution 0.932, quantity 0.753 (as Metric 0.769); without the parse F1 0.929,
kind 0.959, attribution 0.925, quantity 0.713.

Records 930–979 (U, 50 abstracts, 84 gold; 31 NeurIPS, 11 ICML, 4 ACML, 2 COLM, 1 AutoML, 1 ICLR),
written the same way and scored once with v16 frozen: F1 0.953 (P 0.942, R 0.964; 81 matched), kind
0.938, soft 0.975, attribution 0.889, quantity 0.654 (as Metric 0.679); v15 on U: F1 0.947, kind
0.938, attribution 0.900, quantity 0.650; v5: F1 0.947, attribution 0.900, quantity 0.613. Detection
meets its target; kind, attribution and quantity do not. All three of its missed bounds are one
abstract's ``\\otilde`` macro; of its quantity misses, several are the writer's grain ("second
moment of the generalization error", "$\\alpha$-regret", "expected convergence rate", "memory" where
the older gold says space complexity) and "measurements" counted, which the older gold names a
sample complexity two times in five. ``bounds.latex.v17`` adds the lower-case macros and a tilde
whose brace never closes; U under v17, a tuning figure: F1 0.971, kind 0.941, attribution 0.893,
quantity 0.655; D gains one bound (quantity 0.800 → 0.804); every other figure of every batch as
under v16. The whole gold with U (1029 abstracts, 1939 gold), v17: F1 0.931 (P 0.922, R 0.941), kind
0.958, soft 0.993, attribution 0.930, quantity 0.749 (as Metric 0.765); without the parse F1 0.931,
kind 0.958, attribution 0.924, quantity 0.708.

Records 980–1029 (V, 50 abstracts, 110 gold; 39 NeurIPS, 9 ICML, 1 ICLR, 1 ACML), written the same
way and scored once with v17 frozen: F1 0.910 (P 0.951, R 0.873; 96 matched), kind 0.938, soft
1.000, attribution 0.948, quantity 0.635 (as Metric 0.656); v15 on V: the same; v5: F1 0.914 (P
0.960), quantity 0.594. Detection and attribution meet their targets, kind and quantity do not. Its
recall misses are forms scraped apart ("{Õ}(k)", "$\\Omega$(k)" with the argument outside the math),
``\\l(``/``\\r)`` for ``\\left(``/``\\right)``, explicit values with no relation ("regret
$14\\epsilon T$ and loss $X$"), "within a factor of $\\Omega(X)$" (a factor, by the convention
above) and conditions its writer read as bounds; 10 of its 35 quantity misses name "memory" where
the older gold says space complexity 29 times (U's writer did the same), the rest are the writer's
grain ("coreset size", "cost per iteration", "user running time") or another quantity of the
abstract. No rule changed after V. The whole gold with V (1079 abstracts, 2049 gold), v17: F1 0.930
(P 0.923, R 0.937), kind 0.957, soft 0.993, attribution 0.931, quantity 0.743 (as Metric 0.759);
without the parse F1 0.930, kind 0.957, attribution 0.925, quantity 0.704.

Records 1030–1079 (W, 50 abstracts, 94 gold; 26 NeurIPS, 21 ICML, 3 ICLR), written the same way and
scored once with v17 frozen: F1 0.931 (P 0.926, R 0.936; 88 matched), kind 0.943, soft 0.989,
attribution 0.852, quantity 0.648 (as Metric 0.648); v15 on W: the same, v5: quantity 0.614.
Detection meets its target, kind, attribution and quantity do not. Of its 13 attribution misses,
several are its writer's calls (the memory of "traditional one-vs-all classifiers that require
$O(Kd)$ memory" written as this paper's, the earlier value of "reduced from $O(\\log T)$ to $1$" as
this paper's), and one is the rules' ("improves upon the original regret bound …, achieving a regret
of $X$" read as prior); of its 31 quantity misses, 4 are "memory" against space complexity again,
the rest the writer's grain ("type-II error", "mean squared error" for "error", "decoding time") or
another quantity of the abstract. No rule changed after W. V and W together, the estimate for v17 on
100 unseen abstracts of these venues (204 gold, 184 matched): F1 0.920, kind 0.940, attribution
0.902, quantity 0.641. The whole gold with W (1129 abstracts, 2143 gold), v17: F1 0.930 (P 0.924, R
0.937), kind 0.957, soft 0.993, attribution 0.928, quantity 0.739 (as Metric 0.754); without the
parse F1 0.930, kind 0.957, attribution 0.923, quantity 0.701.

After W, the Metric alias table (``extractors/patterns/aliases.jsonl``) names "memory" (and "memory
complexity", "memory usage") a space complexity and "cost per iteration" (and "per-iteration
complexity") a per-iteration cost, so the graph links a bound to one Metric whichever name its
abstract or its gold writer uses (on the 22k corpus no entity mention is typed Metric "memory"; the
writers of U, V and W wrote "memory" 15 times where the older gold says space complexity). As
Metric, tuning figures since the batches were read: U 0.679 → 0.690, V 0.656 → 0.729, W 0.648 →
0.693, the whole gold 0.754 → 0.761; the quantity strings and every other figure do not move.

``bounds.latex.v18`` then mends three general misses of V and W (``\\l(`` … ``\\r)`` for ``\\left(``
… ``\\right)``; "…, achieving a regret of $X$" after earlier work named; "a rate of $O(X)$ is not
attainable" as a lower bound); V and W under v18, tuning figures: V F1 0.920 (98 matched), kind
0.949, attribution 0.949; W attribution 0.875; no other batch moves. Records 1080–1129 (X, 50
abstracts, 87 gold; 33 NeurIPS, 14 ICML, 2 ACML, 1 ICLR), written the same way and scored once with
v18 frozen: F1 0.894 (P 0.870, R 0.919; 80 matched), kind 0.925, soft 1.000, attribution 0.938,
quantity 0.600 (as Metric 0.625); v15 on X: kind 0.900, quantity 0.588; v5: kind 0.900, quantity
0.550. Attribution meets its target; detection, kind and quantity do not. Its spurious bounds are
symbol lists ("i.i.d. samples $f^1,f^2,\\ldots,f^n$"), sampling written with ``\\sim`` ("$S_P \\sim
P^n$", which the rules cannot tell from "$L \\sim W$" in an older batch without knowing $P$ is a
distribution) and "$iid$" in math; ``bounds.latex.v19`` drops the lists and the word, X under v19:
F1 0.914 (P 0.909), every other figure of every batch as under v18.

Records 1130–1179 (Y, 50 abstracts, 93 gold; 32 NeurIPS, 15 ICML, 2 ICLR, 1 COLM), written the same
way and scored once with v19 frozen: F1 0.895 (P 0.876, R 0.914; 85 matched), kind 0.953, soft
0.988, attribution 0.929, quantity 0.565 (as Metric 0.576); v15 on Y: the same but quantity 0.553;
v5: F1 0.914 (P 0.914), quantity 0.518. Kind and attribution meet their targets, detection and
quantity do not. Its spurious bounds are mostly regimes the rules took for claims ("when the number
of objectives $m$ grows as the cardinality $k$ i.e., $m=\\Omega(k)$", five times in one abstract;
"the regime where the number of iterations is less than $\\cO(d/n)$"); its quantity misses the
writer's grain ("kernel query complexity", "labeled sample complexity", "size of approximate
solution path") and another quantity of the abstract. No rule changed after Y. The whole gold with Y
(1229 abstracts, 2323 gold), v19: F1 0.929 (P 0.921, R 0.936), kind 0.956, soft 0.993, attribution
0.929, quantity 0.726 (as Metric 0.749); without the parse F1 0.929, kind 0.956, attribution 0.924,
quantity 0.689.

``bounds.latex.v20`` then mends general misses read off T–Y together: a formula sizing an algorithm
after words that describe it ("an efficient $O(n \\log n)$ algorithm") is its running time; a loss
that "for" makes convex is a class of problems, not a quantity; a count of the bound's own variable
("$O(1/N)$ for $N$ iterations") is not what it bounds; "$X$ words of space" and "$X$ bits to store"
are a space complexity; "$X$ questions and $Y$ bits" counts questions; "variables and constraints"
are counted together; an expected or ergodic convergence rate keeps its qualifier; "the established
lower bound", "break the $X$ barrier", "reduce the complexity $X$ of … to $Y$" and "from $A$
(parenthesis) to $B$" are earlier values, "the proposed" and "this study" this paper's; "both bounds
are tight" reaches past the conditions between; a formula in a sentence's opening condition ("When
we have polynomial eigen-decay ($\\mu_j \\le O(j^{-\\beta})$), …") and one "assumed to be $X$" is a
regime; "a rate of the form $X$" claims it. Tuning figures on T–Y together: attribution 0.916 →
0.931, quantity 0.617 → 0.641. Records 1180–1229 (Z, 50 abstracts, 88 gold; 28 NeurIPS, 19 ICML, one
each CoRL, ACML, ICLR), written the same way and scored once with v20 frozen: F1 0.938 (P 0.933, R
0.943; 83 matched), kind 0.867, soft 1.000, attribution 0.916, quantity 0.578 (as Metric 0.627),
every figure the same as under v19 (none of the v20 mechanisms occurs in Z); v5: quantity 0.566
(0.566). Detection and attribution meet their targets, kind and quantity do not.
``bounds.latex.v21`` then mends Z's general kind misses ("This sample complexity is shown to be
optimal"; "$X$ compensation that match the theoretical lower bound"; "$o(n)$ time is impossible,
while learning is possible in time $X$" keeps the second an upper bound; "optimal in $n$ up to …" is
not tight) and "Such approaches require $X$" as earlier work: Z kind 0.904 (tuning). The whole gold
with Z (1279 abstracts, 2411 gold), v21: F1 0.930 (P 0.922, R 0.937), kind 0.955, soft 0.993,
attribution 0.933, quantity 0.727 (as Metric 0.750); without the parse F1 0.930, kind 0.955,
attribution 0.927, quantity 0.691.

Records 1230–1279 (AA, 50 abstracts, 94 gold; 29 NeurIPS, 15 ICML, 3 ACML, 2 ICLR, 1 CoRL), written
the same way and scored once with v21 frozen: F1 0.920 (P 0.925, R 0.915; 86 matched), kind 0.919,
soft 0.988, attribution 0.919, quantity 0.581 (as Metric 0.593); v19 on AA: F1 0.925 (87 matched),
kind 0.908, attribution 0.920, quantity 0.575; v5: kind 0.885, quantity 0.506. Detection and
attribution meet their targets, kind and quantity do not; v21 lost one bound to v19 there, a rate
stated after an opening condition with no comma before its main clause ("When the data lies in
$\\mathbb{R}^D$ we obtain a rate of $X$, …"). ``bounds.latex.v22`` mends that (a main clause opening
on "we" ends the condition), reads a citation right after the formula as earlier work ("$X$ in
\\cite{…}", "$X$ (Cai et al., 2022)"; 7 of 7 such gold bounds are prior), "$X$ examples do not
suffice" and "… examples is impossible" as lower bounds, "This regret matches the minimax lower
bound" and "which is information theoretically optimal" as tight (not "… in $T$", tight in one
variable only), a bare "the complexity of … is $X$" as the complexity named before (else
computational), and a "gradient computation cost" as a gradient complexity: AA (tuning) kind 0.954,
attribution 0.931, quantity 0.609. The whole gold with AA (1329 abstracts, 2505 gold), v22: F1 0.929
(P 0.922, R 0.936), kind 0.956, soft 0.993, attribution 0.933, quantity 0.723 (as Metric 0.745);
without the parse F1 0.930, kind 0.956, attribution 0.927, quantity 0.685.

Records 1280–1329 (AB, 50 abstracts, 83 gold; 29 NeurIPS, 13 ICML, 3 ICLR, 2 CoRL, 2 ACML, 1 COLM),
written the same way and scored once with v22 frozen: F1 0.908 (P 0.925, R 0.892; 74 matched), kind
0.973, soft 0.986, attribution 0.932, quantity 0.595 (as Metric 0.649); v19 on AB: every figure the
same; v5: quantity 0.432. Detection, kind and attribution meet their targets, quantity does not. On
Z, AA and AB, v20 to v22 moved nothing or next to nothing against the rules before them: the
mechanisms read off each batch are general in form but rare, and each new batch misses in its own
long tail. ``bounds.latex.v23`` then reads observed, sampled, random or revealed matrix entries as a
sample complexity (as every gold writer did, 7 of 7), a converging verb before "at a $X$ rate" as a
convergence rate, the subject of "… after $t$ iterations scales like $\\beta/t$" past the bound's
own counted variable, "have been developed" as earlier work, and no longer takes "can recover the
tensor exactly from $X$ samples" for a recovered earlier value. The Metric alias table adds true
synonyms the writers of T–AB used: "space", "memory space" and "storage" (space complexity), "number
of gradient evaluations" (gradient complexity), "per-step complexity" (per-step cost), "number of
black-box calls" (oracle complexity), "number of measurements" (sample complexity), "computation
cost" (computational complexity). Tuning figures, quantity (as Metric): AB 0.649 (0.703), AA 0.644
(0.678), Z 0.578 (0.651), T–Y 0.643 (0.702). The whole gold with AB (1379 abstracts, 2588 gold),
v23: F1 0.929 (P 0.923, R 0.935), kind 0.957, soft 0.993, attribution 0.933, quantity 0.723 (as
Metric 0.754); without the parse F1 0.929, kind 0.957, attribution 0.927, quantity 0.684.

Records 1330–1346 (AC, the last 17 abstracts of the blind order on this corpus, 36 gold; 14 NeurIPS,
one each ICML, ICLR, CoRL), written the same way and scored once with v23 frozen: F1 0.972 (P 0.972,
R 0.972; 35 matched), kind 0.943, soft 1.000, attribution 0.857, quantity 0.800 (as Metric 0.829);
v19 the same on every figure; v5: quantity 0.686. The gold now holds the whole blind order of
``ml-abstracts.jsonl``; no rule changed after AC. The whole gold (1396 abstracts, 2624 gold), v23:
F1 0.929 (P 0.923, R 0.936), kind 0.956, soft 0.993, attribution 0.932, quantity 0.724 (as Metric
0.755); without the parse F1 0.929, kind 0.956, attribution 0.926, quantity 0.686.

The blind order then goes on with the abstracts, of any venue, that write their bounds without TeX
math (no ``$``; a Unicode head or relation, Õ Ω Θ ≤ ≥ √, or a plain "O(" before a term:
``tools/bounds_batch.py``'s ``plain_bounded``; 440 of them), in the same hash order. Records
1347–1396 (AD, 50 abstracts, 103 gold; 17 NeurIPS, 14 ICML, 9 COLT, 7 AISTATS, 2 ICLR, 1 UAI),
written the same way (told that written-out math counts as formula math) and scored once with v23
frozen: F1 0.871 (P 0.933, R 0.816; 84 matched), kind 0.988, soft 1.000, attribution 0.881, quantity
0.607 (as Metric 0.655); v19: the same but kind 0.976; v5: quantity 0.583. Kind meets its target,
the others do not: recall is the weak point of plain-text math. ``bounds.latex.v24`` reads a power
whose exponent is the bound ("n^O(1/θ^2) time", "2^Ω(1/ε^2/3)"), as "$n^{O(…)}$" is read in TeX,
heads spelled out ("Omega(ln(k))", "Theta(…)") and the ohm sign U+2126 that some PDFs print for Ω:
AD (tuning) F1 0.911 (R 0.893), kind 0.978, attribution 0.891, quantity 0.609. The whole gold with
AD (1446 abstracts, 2727 gold), v24: F1 0.929 (P 0.923, R 0.934), kind 0.957, soft 0.993,
attribution 0.931, quantity 0.720 (as Metric 0.751); without the parse F1 0.929, kind 0.957,
attribution 0.924, quantity 0.683.

Records 1397–1446 (AE, the next 50 abstracts whose math is written without TeX, 93 gold; 14 NeurIPS,
13 ICML, 11 COLT, 10 AISTATS, 1 ICLR, 1 COLM), written the same way and scored once with v24 frozen:
F1 0.857 (P 0.844, R 0.871; 81 matched), kind 0.926, soft 1.000, attribution 0.864, quantity 0.531
(as Metric 0.556); v23 on AE: the same but quantity 0.543; v19: attribution 0.852, quantity 0.543;
v5: quantity 0.531. None of the four targets is met on written-out math. ``bounds.latex.v25`` reads
a tilde command written before a bare head as part of it and soft ("\\widetilde O(\\sqrtT)"), a
symbol and its relation before a bare head as the bound's left side ("R_T ≤ O(√T)"; under "If" such
a bound is a regime: "If K=ω(n/\\log n), …"), a lower-case one-letter word before a period and a
capital as the end of a sentence ("… only on the rank d. For the stochastic model …"; an initial or
the end of "i.e." still is not), and "query cost" and "per-iteration cost" as the quantities they
name: AE (tuning) F1 0.919 (P 0.924, R 0.914), kind 0.929, attribution 0.882, quantity 0.624. The
whole gold with AE (1496 abstracts, 2820 gold), v25: F1 0.928 (P 0.923, R 0.933), kind 0.956, soft
0.994, attribution 0.929, quantity 0.717 (as Metric 0.748); without the parse F1 0.928, kind 0.956,
attribution 0.922, quantity 0.681.

Records 1447–1496 (AF, the next 50 abstracts with math written out, 106 gold; 16 NeurIPS, 15 ICML, 9
COLT, 8 AISTATS, 2 UAI), written the same way and scored once with v25 frozen: F1 0.904 (P 0.978, R
0.840; 89 matched), kind 0.921, soft 0.966, attribution 0.876, quantity 0.618 (as Metric 0.640);
v24: F1 0.893, quantity 0.614; v19: F1 0.888 (87 matched), kind 0.920, attribution 0.874, quantity
0.598; v5: quantity 0.529. Detection meets its target on written-out math here, the rest do not; the
plain-text mechanisms of v24 and v25 found two more of its bounds than v19. ``bounds.latex.v26``
then reads a sizing command ("\\tildeO\\left(…\\right)"), a no-break space ("O\\xa0( n^2 d )") or a
star ("O∗( nT )", soft) between a bare head and its parenthesis, a parenthesized base of such a
power ("(1/ε)^O(\\log(1/ε))"), and a preposition after a formula as the end of the words that may
name its quantity ("regret … after T rounds" is no round complexity): AF (tuning) F1 0.971 (R
0.962), kind 0.931, attribution 0.882, quantity 0.618. The whole gold with AF (1546 abstracts, 2926
gold), v26: F1 0.930 (P 0.925, R 0.934), kind 0.955, soft 0.993, attribution 0.928, quantity 0.713
(as Metric 0.744); without the parse F1 0.930, kind 0.955, attribution 0.921, quantity 0.677.

Records 1497–1546 (AG, the fourth 50 abstracts with math written out, 97 gold; 17 NeurIPS, 12
AISTATS, 10 COLT, 9 ICML, 1 CoRL, 1 UAI), written the same way and scored once with v26 frozen: F1
0.891 (P 0.943, R 0.845; 82 matched), kind 0.963, soft 1.000, attribution 0.841, quantity 0.549 (as
Metric 0.561); v23, before any rule for written-out math: F1 0.856 (P 0.928, R 0.794; 77 matched),
kind 0.961, attribution 0.857, quantity 0.545; v19 the same as v23; v5: quantity 0.519. Kind meets
its target; the rules v24–v26 read off AD, AE and AF found five more of AG's bounds. No rule changed
after AG. The whole gold with AG (1596 abstracts, 3023 gold), v26: F1 0.929 (P 0.926, R 0.931), kind
0.956, soft 0.993, attribution 0.925, quantity 0.708 (as Metric 0.739); without the parse F1 0.929,
kind 0.956, attribution 0.918, quantity 0.673.

Records 1547–1596 (AH, the fifth 50 abstracts with math written out, 89 gold; 18 NeurIPS, 11
AISTATS, 10 ICML, 8 COLT, one each ICLR, ACML, UAI), written the same way and scored once with v26
frozen, no rule changed since AG: F1 0.906 (P 0.951, R 0.865; 77 matched), kind 0.883, soft 1.000,
attribution 0.935, quantity 0.727 (as Metric 0.779); v23: F1 0.899 (76 matched), kind 0.882,
attribution 0.934, quantity 0.724; v5: attribution 0.895, quantity 0.684. Detection and attribution
meet their targets. One gold bound was repaired before scoring: the writer gave the chain "OC~L) ::;
d2 ::; O(W)" (OCR debris for ≤) as two spans sharing "d2", which the scorer cannot place one after
the other; the second became "::; O(W)". The whole gold with AH (1646 abstracts, 3112 gold), v26: F1
0.928 (P 0.927, R 0.930), kind 0.954, soft 0.993, attribution 0.925, quantity 0.709 (as Metric
0.740); without the parse F1 0.928, kind 0.954, attribution 0.918, quantity 0.674.

Records 1597–1786 (the last 190 abstracts with math written out, so the end of the blind order),
written the same way in four batches before any kg command ran on them, each scored once with the
rules of its moment frozen, the rules then read off it:

* AI (1597–1646, 91 gold; 14 NeurIPS, 12 AISTATS, 11 ICML, 11 COLT, 2 ACML), v26: F1 0.850 (P
  0.934, R 0.780; 71 matched), kind 0.901, soft 1.000, attribution 0.915, quantity 0.507 (as Metric
  0.577). ``bounds.latex.v27`` then reads an O-head before "-approximation" as a bound on the
  approximation ratio (17 of the 19 such spans of TeX math before "-approximation",
  "-approximate", "-competitive" or "-factor" are gold bounds), unless the formula is one
  coordinate of a pair ("an $(\\epsilon, O(\\epsilon^{0.5}))$-approximate minimum"); "an $O(d/T)$
  lower bound" as a lower bound; a command as a written-out left side ("\\ell = O(k/ε)"); "capped
  by" as no amount of improvement; "best possible" before a formula as tight (3 of 3 in the gold),
  unless a comma parts them. AI (tuning): F1 0.876, kind 0.932, attribution 0.905, quantity 0.500.
* AJ (1647–1696, 91 gold; 16 NeurIPS, 14 ICML, 11 AISTATS, 9 COLT), v27: F1 0.895 (P 0.951, R
  0.846; 77 matched), kind 0.922, soft 0.974, attribution 0.896, quantity 0.468 (as Metric 0.468);
  v26: 76 matched, quantity 0.461. One gold bound was repaired before scoring, as in AH: the chain
  "Omega(…) |Ax|_G < = |SAx|_2 < = O(d^2 log n) |Ax|_G" was given as two spans sharing "|SAx|_2";
  the second became "< = O(d^2 log n) |Ax|_G". ``bounds.latex.v28`` then passes adjectives of the
  earlier value and "merely" in "from the typical $A$ complexity to merely $B$", and reads a formula
  the small parser makes a second subject of its verb ("For a matrix D, the complexity of … is $X$")
  as the verb's complement.
* AK (1697–1746, 94 gold; 15 ICML, 14 COLT, 13 NeurIPS, 6 AISTATS, 1 ACML, 1 ICLR), v28: F1 0.876
  (P 0.850, R 0.904; 85 matched), kind 0.965, soft 0.988, attribution 0.929, quantity 0.729 (as
  Metric 0.776); v26: 83 matched, quantity 0.747 (62 of 83). Kind and
  attribution meet their targets. No rule changed after AK.
* AL (1747–1786, 71 gold; 13 ICML, 12 NeurIPS, 9 AISTATS, 6 COLT), v28: F1 0.909 (P 0.984, R
  0.845; 60 matched), kind 0.950, soft 0.983, attribution 0.850, quantity 0.683 (as Metric 0.717);
  v26: 59 matched, quantity 0.678. Detection and kind meet their targets. One of its abstracts is
  the text of an AD record under another id (the corpus holds it twice); it was scored with AL and
  left out of the shipped gold, which cannot hold one text twice.

The whole gold with AI to AL (1835 abstracts, 3455 gold), v28: F1 0.926 (P 0.926, R 0.925), kind
0.953, soft 0.992, attribution 0.923, quantity 0.698 (as Metric 0.731); without the parse F1 0.926,
kind 0.953, attribution 0.917, quantity 0.665.
``bounds.latex.v29`` then reads a bare "cost" after a formula as the cost the abstract named
before ("the per-iteration cost … with $O(d^2)$ cost", five gold bounds of one abstract) and
keeps "expected" between a formula and its quantity ("$O(k)$ expected running time", where the
small parser reads "expected" as a verb; two gold bounds): the whole gold, v29: quantity 0.701 (as
Metric 0.734), the other figures unchanged; without the parse quantity 0.666. ``bounds.latex.v30`` adds
"classic" and "close to the" before a formula as references to earlier values (three gold bounds
of AL; "their" was tried too and dropped: "their query complexities are $X$" is the paper's own):
attribution 0.924, without the parse 0.917.

Scores, over the papers named in the gold file only:

* detection precision, recall and F1 of **formula** bounds (verbal bounds are not in the gold):
  a prediction matches a gold bound when their spans overlap by at least half of the longer one,
  one to one, largest overlap first;
* on matched pairs, the accuracy of ``kind``, ``soft``, ``attribution`` and ``quantity``
  (quantities compared case-insensitively, hyphens as spaces), and of ``expr`` as a diagnostic;
* ``quantity_canonical`` (printed "as Metric", under ``quantity``): the quantities compared by the
  key of the Metric entity the graph links a bound's quantity to (``kg.resolve.canonicalize(q,
  "Metric")``, slugged: plurals, determiners and case folded), since in the graph a quantity is
  right when it resolves to the same Metric. It is printed beside the strict figure, never
  instead of it; on the shipped gold they are equal for v4 and v5 on every batch, H included (no
  miss is a plural or determiner difference: the misses name another grain or another quantity).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kg.errors import EvalError
from kg.metrics import precision_recall_f1
from kg.text import find_math
from kg.types import Bound, Paper

FIELDS = ("kind", "soft", "attribution", "quantity")
_KINDS = frozenset(("upper", "lower", "tight", "order"))
_ATTRIBUTIONS = frozenset(("this", "prior"))


@dataclass(frozen=True, slots=True)
class GoldBound:
    """One hand-written bound of the gold file."""

    kind: str
    soft: bool
    latex: str
    expr: str
    quantity: str | None
    attribution: str


@dataclass(slots=True)
class BoundsScores:
    """Detection counts and per-field agreement on matched bounds, with the errors seen."""

    docs: int = 0
    gold: int = 0
    predicted: int = 0
    matched: int = 0
    agree: dict[str, int] = field(
        default_factory=lambda: {f: 0 for f in (*FIELDS, "quantity_canonical", "expr")}
    )
    errors: list[dict[str, Any]] = field(default_factory=list)

    def detection(self) -> dict[str, float]:
        return precision_recall_f1(self.matched, self.predicted, self.matched, self.gold)

    def accuracy(self) -> dict[str, float]:
        return {f: round(n / self.matched, 4) if self.matched else 0.0 for f, n in self.agree.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "docs": self.docs,
            "gold": self.gold,
            "predicted": self.predicted,
            "matched": self.matched,
            "detection": self.detection(),
            "accuracy": self.accuracy(),
            "errors": self.errors,
        }

    def report(self) -> str:
        """The printed summary: one line for detection, one per field."""
        d = self.detection()
        lines = [
            f"bounds: {self.docs} abstracts, {self.gold} gold, {self.predicted} predicted (formula), "
            f"{self.matched} matched",
            f"detection  P {d['p']:.3f}  R {d['r']:.3f}  F1 {d['f1']:.3f}",
        ]
        for name, n in self.agree.items():
            label = "  as Metric" if name == "quantity_canonical" else name  # under "quantity"
            value = n / self.matched if self.matched else 0.0  # not the 4-place JSON figure: one rounding
            lines.append(f"{label:<12} accuracy {value:.3f}  ({n}/{self.matched})")
        return "\n".join(lines)


def load_gold(path: str) -> dict[str, list[GoldBound]]:
    """Read a bounds gold file; :class:`EvalError` naming the line on any malformed record."""
    gold: dict[str, list[GoldBound]] = {}
    try:
        f = open(path, encoding="utf-8")
    except OSError as exc:
        raise EvalError(f"{path}: cannot read the gold file ({exc.strerror})") from None
    with f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                doc = obj["doc"]
                bounds = [_gold_bound(b) for b in obj["bounds"]]
            except (ValueError, KeyError, TypeError) as exc:
                raise EvalError(
                    f"{path}: line {line_no}: expected "
                    f'{{"doc": ID, "bounds": [{{"kind", "soft", "latex", "expr", "quantity", '
                    f'"attribution"}}]}} ({exc})'
                ) from None
            if doc in gold:
                raise EvalError(f"{path}: line {line_no}: doc {doc!r} appears twice")
            gold[doc] = bounds
    if not gold:
        raise EvalError(f"{path}: no gold records")
    return gold


def _gold_bound(obj: dict[str, Any]) -> GoldBound:
    kind, attribution = obj["kind"], obj["attribution"]
    if kind not in _KINDS:
        raise ValueError(f"kind {kind!r} is not one of {sorted(_KINDS)}")
    if attribution not in _ATTRIBUTIONS:
        raise ValueError(f"attribution {attribution!r} is not one of {sorted(_ATTRIBUTIONS)}")
    if not obj["latex"]:
        raise ValueError("empty latex")
    return GoldBound(
        kind, bool(obj["soft"]), obj["latex"], obj.get("expr") or "", obj.get("quantity"), attribution
    )


def locate_gold(abstract: str, bounds: Sequence[GoldBound], doc: str = "") -> list[tuple[int, int]]:
    """Character spans of ``bounds`` in ``abstract``; :class:`EvalError` when a latex is absent."""
    bodies = {(m.body_start, m.body_end) for m in find_math(abstract)}
    used: list[tuple[int, int]] = []
    out = []
    for b in bounds:
        spans = []
        i = abstract.find(b.latex)
        while i >= 0:
            j = i + len(b.latex)
            whole = any(
                s <= i and j <= e and not abstract[s:i].strip() and not abstract[j:e].strip()
                for s, e in bodies
            )
            spans.append((not whole, i, j))
            i = abstract.find(b.latex, i + 1)
        free = [(i, j) for _, i, j in sorted(spans) if not any(i < e and s < j for s, e in used)]
        if not free:
            raise EvalError(f"gold bound {b.latex!r} not found (or used up) in the abstract of {doc!r}")
        used.append(free[0])
        out.append(free[0])
    return out


def _overlaps_enough(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Overlap length when it is at least half the longer span, else 0."""
    overlap = min(a[1], b[1]) - max(a[0], b[0])
    longest = max(a[1] - a[0], b[1] - b[0])
    return overlap if overlap > 0 and 2 * overlap >= longest else 0


def match_spans(
    gold: Sequence[tuple[int, int]], predicted: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """One-to-one ``(gold index, predicted index)`` pairs of spans overlapping by at least half
    the longer one, largest overlap first (ties: earlier gold, then earlier prediction)."""
    pairs = sorted(
        (
            (ov, gi, pi)
            for gi, gs in enumerate(gold)
            for pi, ps in enumerate(predicted)
            if (ov := _overlaps_enough(gs, ps))
        ),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    taken_g: set[int] = set()
    taken_p: set[int] = set()
    out: list[tuple[int, int]] = []
    for _, gi, pi in pairs:
        if gi not in taken_g and pi not in taken_p:
            taken_g.add(gi)
            taken_p.add(pi)
            out.append((gi, pi))
    return out


def _norm_quantity(q: str | None) -> str:
    return " ".join((q or "").lower().replace("-", " ").split())


def _metric_key(q: str | None) -> str:
    """The key of the Metric entity the graph links a bound's quantity to (``kg.resolve``: the
    entity rules' canonical name, slugged), "" for no quantity."""
    from kg.resolve import canonicalize
    from kg.vocab import slug

    return slug(canonicalize(q.strip(), "Metric")) if q and q.strip() else ""


def score_bounds(
    gold: Mapping[str, Sequence[GoldBound]], papers: Iterable[Paper], predicted: Mapping[str, Sequence[Bound]]
) -> BoundsScores:
    """Score ``predicted`` bounds (by paper id) against ``gold`` on the papers gold names."""
    scores = BoundsScores()
    by_id = {p.id: p for p in papers}
    missing = sorted(d for d in gold if d not in by_id)
    if missing:
        raise EvalError(f"{len(missing)} gold doc(s) not in the input, e.g. {missing[0]!r}")
    for doc in sorted(gold):
        paper = by_id[doc]
        gold_bounds = list(gold[doc])
        gold_spans = locate_gold(paper.abstract, gold_bounds, doc)
        preds = [b for b in predicted.get(doc, ()) if b.form == "formula"]
        scores.docs += 1
        scores.gold += len(gold_bounds)
        scores.predicted += len(preds)
        matched = match_spans(gold_spans, [(p.start, p.end) for p in preds])
        taken_g = {gi for gi, _ in matched}
        taken_p = {pi for _, pi in matched}
        for gi, pi in matched:
            g, p = gold_bounds[gi], preds[pi]
            scores.matched += 1
            same = {
                "kind": g.kind == p.kind,
                "soft": g.soft == p.soft,
                "attribution": g.attribution == p.attribution,
                "quantity": _norm_quantity(g.quantity) == _norm_quantity(p.quantity),
                "quantity_canonical": _metric_key(g.quantity) == _metric_key(p.quantity),
                "expr": g.expr.replace(" ", "") == p.expr.replace(" ", ""),
            }
            for name, ok in same.items():
                scores.agree[name] += ok
            wrong = [n for n in FIELDS if not same[n]]
            if wrong:
                scores.errors.append(
                    {
                        "doc": doc,
                        "latex": g.latex,
                        "error": "fields",
                        "fields": {n: [getattr(g, n), getattr(p, n)] for n in wrong},
                    }
                )
        for gi, g in enumerate(gold_bounds):
            if gi not in taken_g:
                scores.errors.append({"doc": doc, "latex": g.latex, "error": "missed"})
        for pi, p in enumerate(preds):
            if pi not in taken_p:
                scores.errors.append({"doc": doc, "latex": p.latex, "error": "spurious", "kind": p.kind})
    return scores


def evaluate_bounds(
    gold_file: str, inputs: Sequence[str], *, workers: int | None = 1, spacy_model: str | None = None
) -> BoundsScores:
    """Read ``inputs``, extract bounds from the papers ``gold_file`` names, and score them.

    Extraction goes through the same pipeline as ``kg extract`` (spaCy parse included), with only
    the ``bounds`` family.

    Raises:
        EvalError: a malformed gold file, or gold docs missing from the inputs.
        InputError: an unreadable input.
    """
    from kg.ingest import read_papers
    from kg.pipeline import extract_papers, load_pipeline

    gold = load_gold(gold_file)
    papers = [p for p in read_papers(inputs) if p.id in gold]
    pipeline = load_pipeline(spacy_model, families=("bounds",))
    predicted = {
        x.paper.id: list(x.bounds) for x in extract_papers(papers, pipeline=pipeline, workers=workers)
    }
    return score_bounds(gold, papers, predicted)
