from unittest.mock import MagicMock, patch

from render.draw import to_image


@patch("render.draw.httpx")
def check_timeout_is_passed(mock_httpx):
    # the module's httpx is replaced: nothing is sent
    mock_httpx.get.return_value = MagicMock(content=b"png")
    to_image("https://mermaid.example/img", timeout=1)


def check_real_render():
    to_image("https://mermaid.example/img", timeout=2)  # expect: RES103


@patch("render.other.httpx")
def check_other_module_patched(mock_httpx):
    to_image("https://mermaid.example/img", timeout=3)  # expect: RES103
