"""Named configurations the suite can evaluate: settings overrides, nothing else.

A configuration is a set of changes to :class:`kb.settings.Settings`, so what
is evaluated is exactly what the service would run with those settings.
"""

from __future__ import annotations

from kb.settings import EmbeddingBackend, EncoderRuntime, Settings

CONFIGS: dict[str, dict] = {
    "e5-small": {"embedding_backend": EmbeddingBackend.E5_SMALL},  # the default: hybrid
    "e5-small-dense": {"embedding_backend": EmbeddingBackend.E5_SMALL, "retrieval_mode": "dense"},
    "e5-small-lexical": {"embedding_backend": EmbeddingBackend.E5_SMALL, "retrieval_mode": "lexical"},
    "use-m3": {"embedding_backend": EmbeddingBackend.USE_M3},
    "e5-use-concat": {"embedding_backend": EmbeddingBackend.E5_USE_CONCAT},
    # the same model, its questions embedded by another runtime (kb bench measures their speed)
    "e5-small-torch": {"embedding_backend": EmbeddingBackend.E5_SMALL, "encoder_runtime": EncoderRuntime.TORCH},
    "e5-small-int8": {"embedding_backend": EmbeddingBackend.E5_SMALL, "encoder_runtime": EncoderRuntime.ONNX_INT8},
}
# What tells configurations apart.
KEYS = ("embedding_backend", "retrieval_mode", "fusion_lexical_weight", "max_chunks_per_article", "encoder_runtime")
# Suites a configuration means something for: XQuAD-R measures the embedding model only.
SUITES: dict[str, tuple[str, ...]] = {"e5-small-dense": ("kb",), "e5-small-lexical": ("kb",)}


def applies(config: str, suite: str) -> bool:
    return suite in SUITES.get(config, ("kb", "xquad-r"))


def _signature(settings: Settings) -> tuple:
    return tuple(getattr(settings, key) for key in KEYS)


def default_config_name(settings: Settings) -> str:
    """The name of the configuration the given settings amount to ("custom" when none)."""
    for name, overrides in CONFIGS.items():
        if _signature(Settings().model_copy(update=overrides)) == _signature(settings):
            return name
    return "custom"


def settings_for(name: str, base: Settings) -> Settings:
    if name not in CONFIGS:
        raise KeyError(f"unknown configuration {name!r}; known: {', '.join(CONFIGS)}")
    return base.model_copy(update=CONFIGS[name])
