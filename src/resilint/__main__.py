"""``python -m resilint``: the same as the ``resilint`` command."""

from resilint.cli import entry

if __name__ == "__main__":
    entry()
