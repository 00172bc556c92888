"""Named configurations the suite can evaluate: settings overrides, nothing else.

A configuration is a set of changes to :class:`kb.settings.Settings`, so what
is evaluated is exactly what the service would run with those settings.
"""

from __future__ import annotations

from kb.settings import EmbeddingBackend, Settings

CONFIGS: dict[str, dict] = {
    "e5-small": {"embedding_backend": EmbeddingBackend.E5_SMALL},
    "use-m3": {"embedding_backend": EmbeddingBackend.USE_M3},
    "e5-use-concat": {"embedding_backend": EmbeddingBackend.E5_USE_CONCAT},
    # the dense default without the per-article cap, to measure what the cap does
    "e5-small-nocap": {"embedding_backend": EmbeddingBackend.E5_SMALL, "max_chunks_per_article": 0},
}


# Suites a configuration means something for: the per-article cap has no effect on XQuAD-R.
SUITES: dict[str, tuple[str, ...]] = {"e5-small-nocap": ("kb",)}


def applies(config: str, suite: str) -> bool:
    return suite in SUITES.get(config, ("kb", "xquad-r"))


def default_config_name(settings: Settings) -> str:
    """The name of the configuration that the given (default) settings amount to."""
    for name, overrides in CONFIGS.items():
        if all(getattr(settings, key) == value for key, value in overrides.items()) and \
                settings.max_chunks_per_article == overrides.get("max_chunks_per_article", Settings().max_chunks_per_article):
            return name
    return "custom"


def settings_for(name: str, base: Settings) -> Settings:
    if name not in CONFIGS:
        raise KeyError(f"unknown configuration {name!r}; known: {', '.join(CONFIGS)}")
    return base.model_copy(update=CONFIGS[name])
