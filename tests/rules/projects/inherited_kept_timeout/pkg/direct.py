# select: RES105
from pkg.base import GenAIClient
from pkg.llama import LlamaCppClient, TunedClient


def make(cfg):
    return LlamaCppClient(cfg)  # expect: RES105 "the default `timeout=120` of `GenAIClient`"


def make_bounded(cfg, settings):
    return LlamaCppClient(cfg, timeout=settings.GENAI_TIMEOUT)


def base_only(cfg):
    # the base's own methods send nothing
    return GenAIClient(cfg)


def tuned(cfg):
    return TunedClient(cfg)
