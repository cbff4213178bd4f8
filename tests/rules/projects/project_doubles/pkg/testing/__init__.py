from .mocker import HttpMocker

__all__ = ["HttpMocker"]
