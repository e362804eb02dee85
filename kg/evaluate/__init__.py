"""The evaluations behind ``kg eval``, one module per target: :mod:`~kg.evaluate.entities`
(SciERC and the seed key entities), :mod:`~kg.evaluate.bounds` (the bounds gold),
:mod:`~kg.evaluate.related` (related-work judgments), :mod:`~kg.evaluate.links` (the share links
against the same judgments); :mod:`~kg.evaluate.metrics` holds the
scores they share."""
