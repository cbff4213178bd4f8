"""``primaryLocationLineHash`` as GitHub's upload action computes it.

The expected values of ``ACTION_CASES`` are those of the action's own test of its algorithm
(github/codeql-action, ``src/fingerprints.test.ts``, test "hash"). The values of
``NODE_CASES`` were computed by the action's ``hash`` function itself (``fingerprints.ts``,
its ``Long`` arithmetic done with JavaScript's BigInt) under Node.js, reading the files as the
action does (``fs.createReadStream(path, "utf8")``): what it does with a byte-order mark,
invalid UTF-8 and characters outside the BMP, which its own tests do not cover.
"""

from __future__ import annotations

import pytest

from resilint.lint.line_hash import line_hashes

ACTION_CASES = [
    ("", ["c129715d7a2bc9a3:1"]),
    (" a\nb\n  \t\tc\n d", ["271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"]),
    (
        " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
        ["8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1",
         "b86d3392aea1be30:1", "e6ceba753e1a442:1"],
    ),
]
# The same text with every kind of line break: the same hashes.
GREETINGS = ["e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1",
             "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"]
ACTION_CASES += [
    (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", GREETINGS),
    (" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", GREETINGS),
    (" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n", GREETINGS),
    (" hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n", GREETINGS),
    (
        "Lorem ipsum dolor sit amet.\n" * 10,
        ["a7f2ff13bc495cf2:1", "a7f2ff13bc495cf2:2", "a7f2ff13bc495cf2:3", "a7f2ff13bc495cf2:4",
         "a7f2ff13bc495cf2:5", "a7f2ff13bc495cf2:6", "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
         "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"],
    ),
    (
        "x = 2\nx = 1\nprint(x)\nx = 3\nprint(x)\nx = 4\nprint(x)\n",
        ["e54938cc54b302f1:1", "bb609acbe9138d60:1", "1131fd5871777f34:1", "5c482a0f8b35ea28:1",
         "54517377da7028d2:1", "2c644846cb18d53e:1", "f1b89f20de0d133:1", "c129715d7a2bc9a3:1"],
    ),
]

NODE_CASES = [
    (b"a\xf0\x9f\x98\x80b\nc\n", ["8025dd5336ab6fb2:1", "3791504be0bd17cc:1", "c129715d7a2bc9a3:1"]),
    (b"\xef\xbb\xbfimport requests\r\n\trequests.get(u)\r", ["53428a9d9a6edac1:1", "92264f5d3047ff85:1", "c129715d7a2bc9a3:1"]),
    (b"x\xff\xfey\n\xed\xa0\x80\n", ["c1f6c454194fb7f5:1", "66bb4c1842ee204c:1", "c129715d7a2bc9a3:1"]),
]


@pytest.mark.parametrize("text, expected", ACTION_CASES)
def test_the_hashes_the_actions_own_tests_expect(text, expected):
    assert line_hashes(text.encode("utf-8")) == expected


@pytest.mark.parametrize("data, expected", NODE_CASES)
def test_the_hashes_the_action_computes_for_a_bom_invalid_utf8_and_astral_characters(data, expected):
    assert line_hashes(data) == expected


def test_hashing_up_to_a_line_gives_the_same_hashes_for_the_lines_above():
    data = ("Lorem ipsum dolor sit amet.\n" * 10).encode()
    whole = line_hashes(data)
    for last in range(0, 12):
        assert line_hashes(data, last) == whole[:last]
    assert line_hashes(data, 50) == whole


def test_a_line_keeps_its_hash_when_different_lines_are_added_above():
    line = b"    return requests.get(url)\n"
    before = line_hashes(b"import requests\n\n" + line + b"x = 1\n")
    after = line_hashes(b"import requests\n# a comment\nimport os\n\n" + line + b"x = 1\n")
    assert before[2] == after[4]
