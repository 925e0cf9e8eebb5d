import pytest


@pytest.fixture
def english():
    """Learner-facing text in English for one test (Chinese is the default)."""
    from attn_core import set_lang

    set_lang("en")
    yield
    set_lang("zh")
